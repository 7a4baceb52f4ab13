// readline's state is C globals, read and set from the main thread only.
@preconcurrency import CReadline
import Foundation
import QuarryLua
import QuarryModel
import QuarryStore
import QuarryStores

/// The interactive shell: readline editing and history, chunks that continue over lines
/// (prompt `>>`) while Lua reports an unfinished chunk, and expressions printed as `lua`
/// prints them (`return <line>` is tried first).
///
/// Readline's callback interface is used rather than `readline()`, so the loop owns the
/// wait for input: Ctrl-C at the prompt clears the line instead of killing the process.
final class REPL {
    let session: Session
    var runtime: QuarryRuntime { session.runtime }
    private var pendingLines: [String] = []
    /// The pending lines are a SQL statement SQLite found incomplete (`select sport,`),
    /// waiting for the lines that finish it, not a Lua chunk.
    private var pendingSQL = false
    /// The lines of the chunk being read, as typed: its history entry once it is whole.
    private var typedLines: [String] = []
    private var finished = false
    /// The last line was a `.quit` or Ctrl-D refused for unsaved changes: the same again
    /// quits without them.
    private var warnedOfUnsavedChanges = false
    private let historyPath: String

    /// After `… +2 columns`: what shows them (`.pager always` lays the table out whole, to
    /// scroll sideways).
    static let leftOutHint = ".mode line, .width 0 or .pager always shows them"

    /// After `, 43 rows hidden`: what shows them.
    static let hiddenRowsHint = ".maxrows N shows N rows, .maxrows 0 all"

    static let primaryPrompt = "> "
    static let continuationPrompt = ">> "
    /// The REPL whose line handler readline calls (readline's callbacks are plain C).
    /// Readline runs on the main thread only, so its callbacks and this never race.
    nonisolated(unsafe) fileprivate static var current: REPL?

    /// The old history file, read when the XDG one does not exist yet.
    private let oldHistoryPath: String

    init(session: Session) {
        self.session = session
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"] ?? NSHomeDirectory()
        oldHistoryPath = (home as NSString).appendingPathComponent(".quarry_history")
        historyPath = REPL.historyPath(environment: environment) ?? oldHistoryPath
    }

    /// `$XDG_STATE_HOME/quarry/history` when XDG_STATE_HOME is set (an absolute path, as
    /// the XDG base directory specification asks), its folder made if missing; nil otherwise
    /// (or when the folder cannot be made): then `~/.quarry_history`.
    static func historyPath(environment: [String: String]) -> String? {
        guard let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") else { return nil }
        let folder = state + "/quarry"
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return nil }
        return folder + "/history"
    }

    func run() {
        REPL.current = self
        session.console.pager = session.pager
        defer {
            REPL.current = nil
            session.console.pager = nil
        }
        rl_readline_name = UnsafePointer(strdup("quarry"))
        rl_catch_signals = 0
        rl_attempted_completion_function = { text, start, _ in REPL.complete(text, start) }
        // A quote typed right after the one a completion closed a name with is typed over.
        for quote in ["\"", "'"] { rl_bind_key(Int32(quote.utf8.first ?? 0)) { count, key in REPL.typeQuote(count, key) } }
        // Quotes are not completion quotes here: completing inside a predicate string must
        // not close the string.
        rl_basic_quote_characters = UnsafePointer(strdup(""))
        // '.' and ':' end a word, so `o.ti<Tab>` completes `ti`.
        rl_basic_word_break_characters = UnsafePointer(strdup(" \t\n\"'()[]{},=+-*/%^#<>~;.:"))
        // After .open, .read, .import and .export the word is the whole path so far
        // (`data/music.sqlite`): completed where it is, not in the current folder.
        rl_completion_word_break_hook = { REPL.takesFileName(REPL.lineBeforeCursor()) ? REPL.fileNameBreaks : nil }
        // A second Tab lists the candidates when the first has completed all they share:
        // `.schema Inv<Tab>` gives Invoice, and the next Tab lists Invoice and InvoiceLine
        // (readline rang the bell and needed a third).
        rl_variable_bind("show-all-if-unmodified", "on")
        using_history()
        stifle_history(1000)
        // A chunk of several lines is one entry, kept whole in the file: each entry starts
        // with a `#seconds` line, and readline joins the lines up to the next one (as bash's
        // lithist does) when the file starts with one.
        history_write_timestamps = 1
        // An entry's time starts with this character (none by default: no time written).
        history_comment_char = CChar(UInt8(ascii: "#"))
        if FileManager.default.fileExists(atPath: historyPath) {
            let handle = FileHandle(forReadingAtPath: historyPath)
            let first = try? handle?.read(upToCount: 1)
            try? handle?.close()
            let timed = first == Data("#".utf8)
            // Lines without a time of their own belong to the entry before (only in a file
            // that has times: in an older one, every line is an entry).
            history_multiline_entries = timed ? 1 : 0
            read_history(historyPath)
            // A file written before entries had times: written again with them, so the
            // chunks added from now on read back whole.
            if !timed, let first, !first.isEmpty { write_history(historyPath) }
        } else {
            // The first session with XDG_STATE_HOME set starts from the old file's lines.
            if historyPath != oldHistoryPath, FileManager.default.fileExists(atPath: oldHistoryPath) { read_history(oldHistoryPath) }
            write_history(historyPath)
        }

        installPromptHooks()
        if isatty(STDIN_FILENO) != 0 {
            // The store a URL opened is named, its password left out; any other is SQLite.
            let store = runtime.openedContext?.engineDescription ?? "SQLite"
            print("Quarry \(Options.version), Lua 5.4 over \(store). .help for help, Ctrl-D to quit.")
        }
        install(prompt: Self.primaryPrompt)
        while !finished {
            var readable = fd_set()
            fdZero(&readable)
            fdSet(STDIN_FILENO, &readable)
            // A PostgreSQL store's socket wakes the wait when another session commits;
            // a file's commits are polled twice a second.
            let store = runtime.openedContext?.outsideChangesDescriptor.flatMap { $0 < FD_SETSIZE ? $0 : nil } ?? -1
            if store >= 0 { fdSet(store, &readable) }
            var wait = timeval(tv_sec: 0, tv_usec: 500_000)
            let ready = select(max(STDIN_FILENO, store) + 1, &readable, nil, nil, &wait)
            if QuarryRuntime.takeInterrupt() {
                cancelLine()
                continue
            }
            if ready > 0, fdIsSet(STDIN_FILENO, &readable) {
                rl_callback_read_char()
            } else if ready >= 0 {
                runtime.noticeOutsideChanges(beforeOutput: { rl_clear_visible_line() }, afterOutput: { rl_forced_update_display() })
            }
        }
        rl_callback_handler_remove()
        history_truncate_file(historyPath, 1000)
    }

    private func install(prompt: String) {
        rl_callback_handler_install(prompt) { line in REPL.current?.received(line) }
    }

    /// Ctrl-C at the prompt: drop the line and any unfinished chunk, start afresh.
    private func cancelLine() {
        pendingLines = []
        pendingSQL = false
        typedLines = []
        rl_free_line_state()
        rl_callback_sigcleanup()
        rl_replace_line("", 0)
        print("^C")
        // Every stream: `stdout` itself is a C global that Swift 6 cannot prove safe.
        fflush(nil)
        install(prompt: Self.primaryPrompt)
    }

    /// Readline delivers a whole line (nil at end of input, Ctrl-D).
    fileprivate func received(_ cLine: UnsafeMutablePointer<CChar>?) {
        guard let cLine else {
            rl_callback_handler_remove()
            // Readline 8.2 keeps the end of input it saw, and from then on ends every line
            // with an extra newline (rl_deprep_terminal, after bracketed paste): the session
            // goes on, so it is forgotten.
            rl_eof_found = 0
            print()
            // Inside an unfinished chunk, as `lua` does: the chunk is reported as it stands
            // (`'end' expected near <eof>`) and dropped, and the prompt comes back.
            if !pendingLines.isEmpty {
                let message = pendingSQL ? "sql: incomplete input" : runtime.unfinishedChunkMessage(pendingLines.joined(separator: "\n"))
                pendingSQL = false
                remember(typedLines.joined(separator: "\n"))
                pendingLines = []
                typedLines = []
                if let message { reportError(message) }
                install(prompt: Self.primaryPrompt)
                return
            }
            if mayQuit(again: "Ctrl-D") {
                finished = true
            } else {
                install(prompt: pendingLines.isEmpty ? Self.primaryPrompt : Self.continuationPrompt)
            }
            return
        }
        let line = String(cString: cLine)
        free(cLine)
        rl_callback_handler_remove()
        let started = Date()
        let cpuStarted = clock()
        typedLines.append(line)
        handle(line)
        // A chunk goes into the history when it is whole, as one entry, as lua, sqlite3
        // and psql keep a statement: Up brings back the function, not its last line.
        if pendingLines.isEmpty {
            remember(typedLines.joined(separator: "\n"))
            typedLines = []
        }
        if session.timer, pendingLines.isEmpty, !line.hasPrefix(".") {
            let cpu = Double(clock() - cpuStarted) / Double(CLOCKS_PER_SEC)
            print(String(format: "Run Time: real %.3f cpu %.3f", Date().timeIntervalSince(started), cpu))
        }
        if !finished {
            install(prompt: pendingLines.isEmpty ? Self.primaryPrompt : Self.continuationPrompt)
        }
    }

    /// Adds an entry to the history and its file (not a blank one).
    private func remember(_ entry: String) {
        guard !entry.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        // A URL's password is not kept in the history file (it is sent, never shown).
        add_history(StoreRegistry.withoutSecrets(in: entry))
        append_history(1, historyPath)
    }

    /// What the runtime does differently at a prompt: `os.exit()` says what `.quit` says of
    /// pending changes, raised as its error, instead of dropping them unsaid (the same call
    /// again, with the same changes pending, quits); `updateall` and `deleteall` without a
    /// predicate ask first, unless `--yes` or `.destructive off` said not to; a grouped
    /// request says when unsaved changes are not in its rows; `rollback()` says what it
    /// dropped.
    private func installPromptHooks() {
        var warnedOf: String?
        session.settings.exitNote = { [unowned self] in
            guard let (pending, remedy) = unsavedChanges, pending != warnedOf else {
                // Quitting: the store is closed first, as at `.quit` (a typo's empty file goes).
                session.close()
                return nil
            }
            warnedOf = pending
            return "\(pending) would be lost: \(remedy) first, or os.exit() again to quit without saving"
        }
        runtime.guardExit()
        session.settings.confirm = { [unowned session] question in !session.asksBeforeDestroying || TerminalQuestion.ask(question) }
        session.settings.notesAsAPrompt()
    }

    /// Runs lines of SQL as `sql()` would. A statement SQLite finds incomplete (`select
    /// sport,`) waits at the `>>` prompt for the lines that finish it, up to one ending
    /// with ';', as psql and sqlite3 wait; Ctrl-C drops it. So does a first line that names
    /// columns before its FROM (`SELECT payee, count(*) AS n`), which SQLite runs whole and
    /// fails on the column (`SQLAtPrompt.awaitsTheRest`), and one that selects an
    /// aggregate with no FROM (`select count(*)`, `SQLAtPrompt.awaitsFrom`).
    private func runSQL(_ lines: [String]) {
        // Several statements (`select 1; select 2;`) run in turn, as sqlite3 runs them,
        // until one fails; the last may be unfinished and wait for the rest.
        let statements = SQLStatements.split(lines.joined(separator: "\n"))
        for statement in statements.dropLast() {
            guard case .ran(let failure?) = runtime.evaluateLine(SQLAtPrompt.chunk(statement)) else { continue }
            (pendingLines, pendingSQL) = ([], false)
            return reportError(SQLAtPrompt.fileAnswer(statement, failure: failure.message) ?? failure.message)
        }
        if statements.count > 1 { return runSQL([statements[statements.count - 1]]) }
        if lines.count == 1, SQLAtPrompt.awaitsFrom(lines[0]) {
            pendingLines = lines
            pendingSQL = true
            return
        }
        pendingLines = []
        pendingSQL = false
        guard case .ran(let failure) = runtime.evaluateLine(SQLAtPrompt.chunk(lines.joined(separator: "\n"))), let failure else { return }
        if failure.message.hasSuffix("incomplete input")
            || lines.count == 1 && SQLAtPrompt.awaitsTheRest(lines[0], failure: failure.message)
        {
            pendingLines = lines
            pendingSQL = true
            return
        }
        let from = lines.count == 1 ? SQLAtPrompt.mistypedFrom(lines[0]) : nil
        let file = SQLAtPrompt.fileAnswer(lines.joined(separator: "\n"), failure: failure.message)
        reportError(file ?? failure.message + (from.map { " ('\($0.lowercased())': did you mean FROM?)" } ?? ""))
    }

    /// Whether `.quit` or Ctrl-D may end the session: not at once while changes are
    /// unsaved, which ending would drop. The first says what would be lost and how to keep
    /// it, as an editor asks; the same again (right after) quits without them.
    private func mayQuit(again command: String) -> Bool {
        let warned = warnedOfUnsavedChanges
        warnedOfUnsavedChanges = false
        guard !warned, let (pending, remedy) = unsavedChanges else { return true }
        warnedOfUnsavedChanges = true
        reportNote("\(pending) would be lost: \(remedy) first, or \(command) again to quit without saving")
        return false
    }

    /// The unsaved changes ending the session would drop, in the session's store and in
    /// each store `open()` opened (named), and what keeps them; nil when there are none.
    private var unsavedChanges: (summary: String, remedy: String)? {
        var parts: [String] = []
        if let pending = runtime.openedContext?.pendingChangesSummary { parts.append(pending) }
        let others = runtime.otherStoresWithChanges.compactMap { store in store.context.pendingChangesSummary.map { "\($0) in \(store.name)" } }
        guard !parts.isEmpty || !others.isEmpty else { return nil }
        let remedy =
            others.isEmpty ? "save() or rollback()" : parts.isEmpty ? "save(b) or rollback(b) on its store" : "save() and save(b), or rollback()"
        return ((parts + others).joined(separator: ", "), remedy)
    }

    private func handle(_ line: String) {
        if pendingLines.isEmpty { runtime.noticeOutsideChanges() }
        session.settings.format.colors = useColor(STDOUT_FILENO)
        session.settings.format.width = terminalWidth()
        session.settings.format.screenRows = terminalRows()
        // A table that left columns out says how to see them, in the commands typed here.
        session.settings.format.leftOutHint = Self.leftOutHint
        // A long result that hid its middle rows says how to see them.
        session.settings.format.hiddenRowsHint = Self.hiddenRowsHint
        // Under `.pager always` every table is one the pager takes (more than 1 line).
        session.settings.format.pagerRows = session.pager.isAvailable ? min(terminalRows(), session.pager.always ? 1 : .max) : 0
        // The next line of a SQL statement left incomplete: gathered, as psql and sqlite3
        // gather one, until a line ends with ';' (or a blank line ends it), then run.
        if pendingSQL {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasSuffix(";") || text.isEmpty { runSQL(pendingLines + [line]) } else { pendingLines.append(line) }
            return
        }
        // A first line as another shell's habit reads it (`help`, `\dt`, `BEGIN;`).
        var line = line
        if pendingLines.isEmpty {
            guard let read = readingOtherShells(line) else { return }
            line = read
        }
        if pendingLines.isEmpty, line.hasPrefix(".") {
            if DotCommands(session: session).run(line) == .quit {
                finished = mayQuit(again: line.trimmingCharacters(in: .whitespaces))
            } else {
                warnedOfUnsavedChanges = false
            }
            return
        }
        // Any other line than the same quit again: the next one asks again.
        if !line.trimmingCharacters(in: .whitespaces).isEmpty { warnedOfUnsavedChanges = false }
        // A query Lua would also parse, but only to fail on a nil global, runs as SQL.
        if pendingLines.isEmpty, let query = SQLAtPrompt.plainQuery(line) {
            runSQL([query])
            fflush(nil)
            return
        }
        // `=expr` prints expr, as the lua shell has always taken it.
        pendingLines.append(pendingLines.isEmpty && line.hasPrefix("=") ? "return " + line.dropFirst() : line)
        switch runtime.evaluateLine(pendingLines.joined(separator: "\n")) {
        case .incomplete:
            return // unfinished as an expression or as statements: keep reading lines
        case .failed(let message):
            let chunk = pendingLines
            pendingLines = []
            // A line of SQL, as sqlite3 and psql take one: only a whole chunk of one line
            // that Lua refused, so Lua always comes first.
            if chunk.count == 1, !line.hasPrefix("="), let reading = SQLAtPrompt.reading(line) {
                switch reading {
                case .query(let query): runSQL([query])
                case .answer(let answer):
                    // psql's `SHOW timezone` reads the setting where the store's SQL has it.
                    if let show = SQLAtPrompt.showSetting(line), case .ran(nil) = runtime.evaluateLine(SQLAtPrompt.chunk(show)) { break }
                    reportError(session.sqlWriteAnswer.answer(line) ?? answer)
                }
            } else if chunk.count == 1, let answer = SQLAtPrompt.restOfStatement(line) {
                // `from transactions t` after a first line that ran alone.
                reportError(answer)
            } else {
                reportError(message + (chunk.count == 1 ? LuaSyntaxHint.hint(for: line, message: message) ?? "" : ""))
            }
        case .ran(let failure):
            pendingLines = []
            if let failure {
                // The terminal echoed ^C where the cursor was: the message goes on a line of its own.
                if (failure.error as? StoreError)?.interruption != nil || failure.message.hasSuffix("interrupted!") { endEchoedControlLine() }
                if let exit = failure.error as? ExitNote {
                    reportNote(exit.note)
                } else {
                    reportError(failure.message)
                    pointAtPredicateColumn(failure)
                }
            }
        }
        fflush(nil)
    }
}

extension REPL {
    /// Under a predicate error, the predicate with a caret at the column it names (dim,
    /// on the terminal only: the error line itself is what scripts and logs see).
    private func pointAtPredicateColumn(_ failure: LuaFailure) {
        guard let pointer = (failure.error as? PredicateTextError)?.pointer else { return }
        let dim = useColor(STDERR_FILENO)
        FileHandle.standardError.write(Data(((dim ? "\u{1B}[2m" : "") + pointer + (dim ? "\u{1B}[0m" : "") + "\n").utf8))
    }

    /// Whether the word being completed is the file name of a dot-command.
    fileprivate static func takesFileName(_ before: String) -> Bool {
        [".read ", ".import ", ".open ", ".export "].contains { before.hasPrefix($0) }
    }

    /// The line up to the cursor.
    fileprivate static func lineBeforeCursor() -> String {
        guard let buffer = rl_line_buffer else { return "" }
        return String(String(cString: buffer).utf8.prefix(Int(max(0, rl_point)))) ?? ""
    }

    /// The line and cursor a completion that closed a string left: the same quote typed
    /// next, by habit (`count("Fl<Tab>", …` typed as before), is typed over, as editors type
    /// over a closing quote they added, so the string is closed once. Anything else clears it.
    nonisolated(unsafe) fileprivate static var typedOver: (line: String, point: Int32)?

    /// `"` and `'`: inserted, unless the completion just closed the string with it.
    fileprivate static func typeQuote(_ count: Int32, _ key: Int32) -> Int32 {
        defer { typedOver = nil }
        if let pending = typedOver, rl_point == pending.point, let buffer = rl_line_buffer, String(cString: buffer) == pending.line,
            rl_point > 0, Int32(UInt8(bitPattern: buffer[Int(rl_point) - 1])) == key
        {
            return 0
        }
        return rl_insert(count, key)
    }

    /// Inserts `text` `offset` bytes after the cursor, which stays where it is.
    fileprivate static func insertAfterCursor(_ text: String, at offset: Int) {
        let point = rl_point
        rl_point = min(point + Int32(offset), rl_end)
        rl_insert_text(text)
        rl_point = point
    }

    /// The line from the cursor on.
    fileprivate static func lineAfterCursor() -> String {
        guard let buffer = rl_line_buffer else { return "" }
        return String(String(cString: buffer).utf8.dropFirst(Int(max(0, rl_point)))) ?? ""
    }

    /// A file name whose extension says it holds text (a CSV, a script, notes): never a
    /// store `.open` could open.
    static func isTextFile(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return false }
        return ["csv", "tsv", "json", "txt", "lua", "md", "sql", "log"].contains(name[name.index(after: dot)...].lowercased())
    }

    /// Word breaks for a file name: blanks only.
    nonisolated(unsafe) fileprivate static let fileNameBreaks = strdup(" \t\n")

    /// Candidates found by the runtime, handed to readline one by one.
    nonisolated(unsafe) fileprivate static var candidates: [String] = []

    fileprivate static func complete(_ text: UnsafePointer<CChar>?, _ start: Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard let repl = current, let text else { return nil }
        let line = rl_line_buffer.map { String(cString: $0) } ?? ""
        let before = String(line.utf8.prefix(Int(start))) ?? ""
        let word = String(cString: text)
        // File names after .read, .import and .export: readline's own completion.
        if takesFileName(before), !before.hasPrefix(".open ") { return nil }
        rl_attempted_completion_over = 1
        rl_completion_append_character = 0
        rl_completion_suppress_append = 1
        rl_completion_suppress_quote = 1
        if before.hasPrefix(".open ") {
            // What DB completes to on the command line (no sidecar, and `postgres://`), less
            // files of text no store is kept in (`quarry x.lua` runs a script; `.open` none).
            candidates = Options.completeDatabase([], 0, word).filter { $0.hasPrefix(word) && !Self.isTextFile($0) }
        } else if before == "." {
            candidates = DotCommands.commands.map(\.name).filter { $0.hasPrefix(word) }
            // One command: a space after it, as a shell ends a unique completion, ready for
            // its argument (`.op` → `.open `).
            if candidates.count == 1 { candidates[0] += " " }
        } else if before.hasPrefix(".schema ") {
            // Entity names only: every one that starts so (Invoice and InvoiceLine).
            candidates = Set(repl.runtime.context.entities.map(\.name)).filter { $0.hasPrefix(word) }.sorted()
        } else if before.hasPrefix(".help ") {
            candidates = DotCommands.commands.map(\.name).filter { $0.hasPrefix(word) }
        } else {
            candidates = repl.runtime.completions(before: before, word: word)
            // A key with a space becomes `%K`, its name put among the arguments.
            if candidates == ["%K"], let argument = repl.runtime.spacedKeyArgument(before: before, word: word, after: lineAfterCursor()) {
                insertAfterCursor(argument.text, at: argument.offset)
            }
            // One entity name in `fetch("`: the string is closed, as a shell closes a
            // file name it completed, unless the quote is already there after the cursor.
            if candidates.count == 1, let quote = repl.runtime.closingQuote(before: before),
                !lineAfterCursor().hasPrefix(quote)
            {
                candidates = [candidates[0] + quote]
                typedOver = (before + candidates[0] + lineAfterCursor(), Int32(before.utf8.count + candidates[0].utf8.count))
            }
        }
        return rl_completion_matches(text) { _, state in
            let index = Int(state)
            return index < REPL.candidates.count ? strdup(REPL.candidates[index]) : nil
        }
    }
}

/// Ends the line after a ^C the terminal echoed (ECHOCTL) while a statement ran.
private func endEchoedControlLine() {
    var mode = termios()
    guard isatty(STDIN_FILENO) != 0, tcgetattr(STDIN_FILENO, &mode) == 0, mode.c_lflag & tcflag_t(ECHOCTL) != 0 else { return }
    print()
    fflush(nil)
}

import CReadline
import Foundation
import QuarryLua
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
    private var finished = false
    private let historyPath: String

    static let primaryPrompt = "> "
    static let continuationPrompt = ">> "
    /// The REPL whose line handler readline calls (readline's callbacks are plain C).
    fileprivate static var current: REPL?

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
        defer { REPL.current = nil; session.console.pager = nil }
        rl_readline_name = UnsafePointer(strdup("quarry"))
        rl_catch_signals = 0
        rl_attempted_completion_function = { text, start, _ in REPL.complete(text, start) }
        // Quotes are not completion quotes here: completing inside a predicate string must
        // not close the string.
        rl_basic_quote_characters = UnsafePointer(strdup(""))
        // '.' and ':' end a word, so `o.ti<Tab>` completes `ti`.
        rl_basic_word_break_characters = UnsafePointer(strdup(" \t\n\"'()[]{},=+-*/%^#<>~;.:"))
        using_history()
        stifle_history(1000)
        if FileManager.default.fileExists(atPath: historyPath) { read_history(historyPath) }
        else {
            // The first session with XDG_STATE_HOME set starts from the old file's lines.
            if historyPath != oldHistoryPath, FileManager.default.fileExists(atPath: oldHistoryPath) { read_history(oldHistoryPath) }
            write_history(historyPath)
        }

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
            if ready > 0, fdIsSet(STDIN_FILENO, &readable) { rl_callback_read_char() }
            else if ready >= 0 {
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
        rl_free_line_state()
        rl_callback_sigcleanup()
        rl_replace_line("", 0)
        fputs("^C\n", stdout)
        fflush(stdout)
        install(prompt: Self.primaryPrompt)
    }

    /// Readline delivers a whole line (nil at end of input, Ctrl-D).
    fileprivate func received(_ cLine: UnsafeMutablePointer<CChar>?) {
        guard let cLine else {
            finished = true
            rl_callback_handler_remove()
            fputs("\n", stdout)
            return
        }
        let line = String(cString: cLine)
        free(cLine)
        rl_callback_handler_remove()
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            // A URL's password is not kept in the history file (it is sent, never shown).
            add_history(StoreRegistry.withoutSecrets(in: line))
            append_history(1, historyPath)
        }
        let started = Date()
        let cpuStarted = clock()
        handle(line)
        if session.timer, pendingLines.isEmpty, !line.hasPrefix(".") {
            let cpu = Double(clock() - cpuStarted) / Double(CLOCKS_PER_SEC)
            print(String(format: "Run Time: real %.3f cpu %.3f", Date().timeIntervalSince(started), cpu))
        }
        if !finished {
            install(prompt: pendingLines.isEmpty ? Self.primaryPrompt : Self.continuationPrompt)
        }
    }

    private func handle(_ line: String) {
        if pendingLines.isEmpty { runtime.noticeOutsideChanges() }
        session.settings.format.colors = useColor(STDOUT_FILENO)
        session.settings.format.width = terminalWidth()
        if pendingLines.isEmpty, line.hasPrefix(".") {
            finished = DotCommands(session: session).run(line) == .quit
            return
        }
        // `=expr` prints expr, as the lua shell has always taken it.
        pendingLines.append(pendingLines.isEmpty && line.hasPrefix("=") ? "return " + line.dropFirst() : line)
        switch runtime.evaluateLine(pendingLines.joined(separator: "\n")) {
        case .incomplete:
            return  // unfinished as an expression or as statements: keep reading lines
        case .failed(let message):
            pendingLines = []
            reportError(message)
        case .ran(let failure):
            pendingLines = []
            if let failure {
                reportError(failure.message)
                pointAtPredicateColumn(failure)
            }
        }
        fflush(stdout)
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

    /// Candidates found by the runtime, handed to readline one by one.
    fileprivate static var candidates: [String] = []

    fileprivate static func complete(_ text: UnsafePointer<CChar>?, _ start: Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard let repl = current, let text else { return nil }
        let line = rl_line_buffer.map { String(cString: $0) } ?? ""
        let before = String(line.utf8.prefix(Int(start))) ?? ""
        let word = String(cString: text)
        // File names after .read, .import and .open: readline's own completion.
        if before.hasPrefix(".read ") || before.hasPrefix(".import ") || before.hasPrefix(".open ") || before.hasPrefix(".export ") {
            return nil
        }
        rl_attempted_completion_over = 1
        rl_completion_append_character = 0
        rl_completion_suppress_append = 1
        rl_completion_suppress_quote = 1
        if before == "." {
            candidates = DotCommands.commands.map(\.name).filter { $0.hasPrefix(word) }
        } else {
            candidates = repl.runtime.completions(before: before, word: word)
        }
        return rl_completion_matches(text) { _, state in
            let index = Int(state)
            return index < REPL.candidates.count ? strdup(REPL.candidates[index]) : nil
        }
    }
}

/// The terminal's width in columns (0 when stdout is not a terminal).
private func terminalWidth() -> Int {
    var size = winsize()
    guard isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return 0 }
    return Int(size.ws_col)
}

// fd_set's macros are not visible to Swift.
private func fdZero(_ set: inout fd_set) {
    set = fd_set()
}

private func fdSet(_ fd: Int32, _ set: inout fd_set) {
    let bits = MemoryLayout.size(ofValue: set.__fds_bits.0) * 8
    withUnsafeMutableBytes(of: &set.__fds_bits) { raw in
        let words = raw.bindMemory(to: Int.self)
        words[Int(fd) / bits] |= 1 << (Int(fd) % bits)
    }
}

private func fdIsSet(_ fd: Int32, _ set: inout fd_set) -> Bool {
    let bits = MemoryLayout.size(ofValue: set.__fds_bits.0) * 8
    return withUnsafeMutableBytes(of: &set.__fds_bits) { raw in
        raw.bindMemory(to: Int.self)[Int(fd) / bits] & (1 << (Int(fd) % bits)) != 0
    }
}

import Foundation
import QuarryLua

/// Runs `-e` chunks and scripts, reporting a failure as one line on stderr
/// (`script.lua:LINE: message`), with the traceback after it when asked for.
struct BatchRunner {
    let session: Session
    let showTraceback: Bool
    var runtime: QuarryRuntime { session.runtime }

    /// What shows every row of a long result a batch run printed at a terminal.
    static let hiddenRowsHint = "output to a file or pipe shows every row"

    /// How a batch run prints a long result: every row where standard output is not a
    /// terminal; at one, its first and last rows (`.maxrows`), the footer saying how many
    /// were hidden. Set before anything runs, so a piped script's own `.maxrows` still holds.
    static func formatOutput(_ settings: SessionSettings, toTerminal: Bool) {
        if toTerminal { settings.format.hiddenRowsHint = hiddenRowsHint } else { settings.format.maxRows = 0 }
    }

    /// `statement`: the SQL the chunk runs, whose failure on a file read as a table
    /// (`SELECT * FROM 'taxis.csv'`) is answered as the prompt answers it.
    func runChunk(_ code: String, sql statement: String? = nil) -> Bool {
        switch runtime.load(code, chunkName: "=(command line)") {
        case .loaded: return report(runtime.runGuarded(), sql: statement)
        case .incomplete(let message), .failed(let message):
            reportError(SQLInScript.explained(message, in: code))
            return false
        }
    }

    /// A statement given in SCRIPT's place (`quarry f.db "SELECT …"`, as sqlite3 takes
    /// one): a query prints its rows as the prompt prints them; a statement that writes
    /// gets the prompt's one line saying what does that here; a dot-command runs as typed
    /// at the prompt.
    func runQuery(_ text: String) -> QueryOutcome {
        if DotCommands.isCommand(text) {
            let before = reportedErrors
            let outcome = DotCommands(session: session).run(text)
            // `.diff` ends as `diff` and `cmp` do: 2 on trouble, 1 when the stores differ.
            let isDiff = DotCommandWords.split(text.dropFirst()).first == "diff"
            guard reportedErrors == before else { return isDiff ? .failed(.usage) : .failed(.failure) }
            return outcome == .differed ? .differed : .ran
        }
        switch SQLAtPrompt.reading(text) {
        case .query(let query):
            // Laid out as the prompt lays a table out: fitted to the terminal when standard
            // output is one; else each value whole and every row, as sqlite3 writes rows to
            // a pipe (`quarry db "SELECT …" > names.txt` wrote 20 of 36,684 rows, trial 26).
            let format = session.settings.format
            defer { session.settings.format = format }
            session.settings.format.width = terminalWidth()
            session.settings.format.colors = useColor(STDOUT_FILENO)
            if session.settings.format.width == 0 {
                session.settings.format.textWidth = 0
                session.settings.format.maxRows = 0
            }
            // Several statements run in turn, as sqlite3 runs them, until one fails.
            for statement in SQLStatements.split(query) where !runChunk(SQLAtPrompt.showingChunk(statement), sql: statement) {
                return .failed(.failure)
            }
            return .ran
        case .answer(let answer):
            reportError(session.sqlWriteAnswer.answer(text) ?? answer)
            return .failed(.failure)
        case nil:
            reportError("not a statement SQL here reads: \(text)")
            return .failed(.failure)
        }
    }

    /// What a statement given on the command line came to: it ran; it ran and found
    /// differences (`.diff`: the run's status is 1 at its end); it failed, ending the run
    /// with that status.
    enum QueryOutcome: Equatable {
        case ran, differed
        case failed(QuarryMain.Status)
    }

    /// Runs the script at `path` ("-": standard input) with `arg` and `...` set.
    func runScript(_ path: String, arguments: [String]) -> Bool {
        let loaded: LoadResult
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            var code = String(decoding: data, as: UTF8.self)
            if code.hasPrefix("#") { code = "--" + code } // a shebang line, as lua skips it
            loaded = runtime.load(code, chunkName: "=stdin")
            // Text that is not Lua as a whole may be REPL input with dot-commands in it.
            if case .loaded = loaded {
            } else if let parts = PipedScript.parts(code, isFinished: runtime.isFinishedChunk) {
                return runParts(parts, arguments: arguments)
            }
            if case .failed(let message) = loaded {
                reportError(SQLInScript.explained(message, in: code))
                return false
            }
        } else {
            guard FileManager.default.isReadableFile(atPath: path) else {
                // A typo of a script beside it is named, as `.open` names a store's.
                // Lua given where a script's name goes (`quarry f1.db 'count("drivers")'`):
                // the option that runs it is named.
                let lua = Self.looksLikeLua(path) ? " (to run Lua, use -e '...')" : ""
                let missing = NewFileNote.likelyMeant(path).map { "no such file (did you mean '\($0)'?)" } ?? "no such file\(lua)"
                reportError("cannot open \(path): " + (FileManager.default.fileExists(atPath: path) ? "permission denied" : missing))
                return false
            }
            loaded = runtime.loadFile(path)
        }
        switch loaded {
        case .loaded: break
        case .incomplete(let message), .failed(let message):
            reportError(message + (Self.dotCommandInScript(path: path, message: message) ?? ""))
            return false
        }
        runtime.setScriptArguments(script: path, arguments: arguments)
        return report(runtime.runGuarded(arguments: arguments))
    }

    /// A script file is Lua, so a dot-command in it (`.mode csv`, trial 29) is a syntax
    /// error: said so, with the way that reads it, where the line Lua names is one.
    static func dotCommandInScript(path: String, message: String) -> String? {
        guard message.hasPrefix(path + ":"),
            let number = Int(message.dropFirst(path.count + 1).prefix { $0.isNumber }), number > 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        // Lines as Lua counts them: CR LF (one Character in Swift) and a lone CR end one too.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard number <= lines.count else { return nil }
        let line = lines[number - 1].trimmingCharacters(in: .whitespaces)
        guard DotCommands.isCommand(line), let name = DotCommandWords.split(line.dropFirst()).first else { return nil }
        return " (.\(name) is a dot-command: a script is Lua; they run at the prompt and in input piped in, as quarry FILE - < \(path))"
    }

    /// Whether a script argument that names no file reads as Lua rather than a path: it
    /// holds a call's parenthesis, a quote, `=` or a brace, which a script's name seldom does.
    static func looksLikeLua(_ argument: String) -> Bool {
        argument.contains(where: { "()\"'={}".contains($0) })
    }

    /// Runs a piped script that holds dot-commands, as the sqlite3 shell runs one: each
    /// stretch of Lua as a chunk (numbered as in the input), each command in its place; the
    /// first failure of either ends the run.
    private func runParts(_ parts: [PipedScript.Part], arguments: [String]) -> Bool {
        runtime.setScriptArguments(script: "-", arguments: arguments)
        var commands = DotCommands(session: session)
        for part in parts {
            switch part {
            case .lua(let code):
                switch runtime.load(code, chunkName: "=stdin") {
                case .loaded: guard report(runtime.runGuarded(arguments: arguments)) else { return false }
                case .incomplete(let message), .failed(let message):
                    reportError(SQLInScript.explained(message, in: code))
                    return false
                }
            case .command(let line, let number):
                commands.inputLine = number
                let before = reportedErrors
                let outcome = commands.run(line)
                if outcome == .quit { return true }
                // `.diff` ends the run as on the command line: 2 on trouble, 1 when it differed.
                guard reportedErrors == before else {
                    if DotCommandWords.split(line.drop(while: { $0 != "." }).dropFirst()).first == "diff" { session.pipedDiff = .failed(.usage) }
                    return false
                }
                if outcome == .differed { session.pipedDiff = .differed }
            }
        }
        return true
    }

    func report(_ failure: LuaFailure?, sql statement: String? = nil) -> Bool {
        guard let failure else { return true }
        reportError(statement.flatMap { SQLAtPrompt.fileAnswer($0, failure: failure.message) } ?? failure.message)
        if showTraceback, let traceback = failure.traceback { writeError(traceback) }
        return false
    }
}

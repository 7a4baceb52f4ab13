import Foundation
import QuarryFormat
import QuarryLua
import QuarryModel
import QuarryModelFiles
import QuarryStore
import QuarryStores

/// The REPL's dot-commands: a table of name, usage and handler, as the sqlite3 shell has.
struct DotCommands {
    let session: Session
    var runtime: QuarryRuntime { session.runtime }
    var settings: SessionSettings { session.settings }

    /// The line of piped input the command being run is on (`PipedScript`); nil at the prompt.
    var inputLine: Int?

    /// Runs a line of Lua for a command, reporting its error as the REPL does: named by the
    /// command's own line (`stdin:7:` in piped input, `(dot-command):1:` at the prompt),
    /// the Lua made for it being one line (each caller's is), padded to the command's place
    /// in the input.
    func runLua(_ code: String) {
        let failure =
            inputLine.map { runtime.runGuarded(String(repeating: "\n", count: max($0 - 1, 0)) + code, chunkName: "=stdin") }
            ?? runtime.runGuarded(code, chunkName: "=(dot-command)")
        if let failure { reportError(failure.message) }
    }

    /// `differed`: the command ran and found differences (`.diff`), which a batch run's
    /// exit status says, as `diff` and `cmp` do.
    enum Outcome { case ok, quit, differed }

    struct Command: Sendable {
        let name: String
        let usage: String
        let summary: String
        let run: @Sendable (DotCommands, [String]) -> Outcome
        /// What `.help NAME` and `help(".NAME")` print: the usage and what it does.
        var help: String { usage + "  " + summary }
    }

    /// Every command, in the order `.help` lists them: help, what the store holds, `.read`,
    /// how output looks, the store and its files, and leaving.
    static let commands: [Command] =
        [helpCommand] + listingCommands + [readCommand] + outputCommands + storeCommands + [diffCommand] + leavingCommands

    static let helpCommand =
        Command(name: "help", usage: ".help [COMMAND]", summary: "show this list, or one command's usage") { shell, args in
            if let name = args.first.map({ $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }) {
                guard let command = DotCommands.commands.first(where: { $0.name == name }) else {
                    // `.help fetch`: a Lua function's help, as help(fetch) prints it.
                    let entries = FunctionHelp.lookup(name)
                    if !entries.isEmpty {
                        print(entries.map { $0.text(width: shell.session.settings.format.width) }.joined(separator: "\n\n"))
                        return .ok
                    }
                    reportError(ShellError.unknownCommand(name, among: DotCommands.commands.map(\.name)))
                    return .ok
                }
                print(command.help)
                return .ok
            }
            let width = DotCommands.commands.map(\.usage.count).max().map { $0 + 2 } ?? 2
            // Each summary wrapped to the terminal under its own column, as `help()` wraps.
            let columns = shell.session.settings.format.width > width + 20 ? shell.session.settings.format.width : 80
            for command in DotCommands.commands {
                let lines = FunctionHelp.wrapped(command.summary, width: columns - width)
                print(command.usage + String(repeating: " ", count: width - command.usage.count) + (lines.first ?? ""))
                for line in lines.dropFirst() { print(String(repeating: " ", count: width) + line) }
            }
            let lua = "Lua: help() lists Quarry's functions and methods; help(fetch) or .help fetch describes one"
            print(FunctionHelp.wrapped(lua, width: columns).joined(separator: "\n"))
            return .ok
        }

    static let readCommand =
        Command(name: "read", usage: ".read FILE", summary: "run a Lua script, or a file of SQL statements") { shell, args in
            guard let path = args.first else {
                reportError("usage: .read FILE")
                return .ok
            }
            let runner = BatchRunner(session: shell.session, showTraceback: false)
            // sqlite3's `.read` runs SQL: a file of statements runs them in turn until one
            // fails, as a line of them does; any other file is a Lua script.
            if let statements = SQLStatements.ofFile(path) {
                for statement in statements where runner.runQuery(statement) != .ran { break }
                return .ok
            }
            _ = runner.runScript(path, arguments: Array(args.dropFirst()))
            return .ok
        }

    static let leavingCommands: [Command] = [
        Command(name: "quit", usage: ".quit", summary: "leave quarry") { _, _ in .quit },
        Command(name: "exit", usage: ".exit", summary: "leave quarry") { _, _ in .quit }
    ]

    static func onOff(_ args: [String], _ name: String) -> Bool? {
        switch args.first {
        case "on": return true
        case "off": return false
        default:
            reportError("usage: \(name) on|off")
            return nil
        }
    }

    /// Whether `line` names one of the commands (`.schema t`), for a command given on the
    /// command line as sqlite3 takes one.
    static func isCommand(_ line: String) -> Bool {
        guard line.hasPrefix("."), let name = DotCommandWords.split(line.dropFirst()).first else { return false }
        return commands.contains { $0.name == name }
    }

    func run(_ line: String) -> Outcome {
        let words = DotCommandWords.split(line.dropFirst())
        guard let name = words.first else { return .ok }
        guard let command = Self.commands.first(where: { $0.name == name }) else {
            // One the sqlite3 shell has: what does it here (`.dump`, `.indexes`).
            if let answer = OtherShellHabits.sqlite3(name) {
                reportError("sqlite3's .\(name): " + answer)
                return .ok
            }
            reportError(ShellError.unknownCommand(name, among: Self.commands.map(\.name), remedy: ".help lists them"))
            return .ok
        }
        return command.run(self, Array(words.dropFirst()))
    }
}

func onOff(_ args: [String], _ name: String) -> Bool? { DotCommands.onOff(args, name) }

import CLua
import Foundation
import QuarryLua
import QuarryStore

/// The REPL's dot-commands: a table of name, usage and handler, as the sqlite3 shell has.
struct DotCommands {
    let runtime: QuarryRuntime

    enum Outcome { case ok, quit }

    struct Command {
        let name: String
        let usage: String
        let summary: String
        let run: (DotCommands, [String]) -> Outcome
    }

    static let commands: [Command] = [
        Command(name: "help", usage: ".help", summary: "show this list") { shell, _ in
            for command in DotCommands.commands {
                print(command.usage.padding(toLength: 18, withPad: " ", startingAt: 0) + command.summary)
            }
            return .ok
        },
        Command(name: "entities", usage: ".entities", summary: "list the entities") { shell, _ in
            for entity in shell.runtime.context.entities { print(entity.name) }
            return .ok
        },
        Command(name: "schema", usage: ".schema [NAME]", summary: "show entity definitions") { shell, args in
            let entities = shell.runtime.context.entities.filter { args.isEmpty || args.contains($0.name) }
            if entities.isEmpty, let name = args.first {
                reportError("unknown entity '\(name)'")
            }
            for entity in entities {
                print("entity \"\(entity.name)\" {")
                for a in entity.attributes {
                    var options = ""
                    if a.isIndexed { options += ", indexed = true" }
                    if a.isUnique { options += ", unique = true" }
                    if let d = a.defaultValue { options += ", default = \(d.displayString)" }
                    let type = "\"\(a.type.rawValue)\(a.isOptional ? "?" : "")\""
                    print("  \(a.name) = " + (options.isEmpty ? type : "{ \(type)\(options) }") + ",")
                }
                print("}")
            }
            return .ok
        },
        Command(name: "read", usage: ".read FILE", summary: "run a Lua script") { shell, args in
            guard let path = args.first else { reportError("usage: .read FILE"); return .ok }
            _ = BatchRunner(runtime: shell.runtime, showTraceback: false).runScript(path, arguments: Array(args.dropFirst()))
            return .ok
        },
        Command(name: "quit", usage: ".quit", summary: "leave quarry") { _, _ in .quit },
        Command(name: "exit", usage: ".exit", summary: "leave quarry") { _, _ in .quit },
    ]

    func run(_ line: String) -> Outcome {
        let words = line.dropFirst().split(separator: " ").map(String.init)
        guard let name = words.first else { return .ok }
        guard let command = Self.commands.first(where: { $0.name == name }) else {
            let hint = closestMatch(to: name, in: Self.commands.map(\.name)).map { " (did you mean '.\($0)'?)" } ?? ""
            reportError("unknown command '.\(name)'\(hint); .help lists them")
            return .ok
        }
        return command.run(self, Array(words.dropFirst()))
    }
}

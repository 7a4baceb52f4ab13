import Foundation
import QuarryFormat
import QuarryLua
import QuarryModel
import QuarryModelFiles
import QuarryStore
import QuarryStores

/// The dot-commands that set how output looks and where it goes, and what the prompt
/// does around a line (`.timer`, `.explain`, `.destructive`).
extension DotCommands {
    static let outputCommands: [Command] = [
        Command(name: "mode", usage: ".mode MODE", summary: "print results as table, box, markdown, json, csv or line") { shell, args in
            // The sqlite3 shell's names for the same modes.
            let aliases = ["column": "table", "qbox": "box"]
            guard let name = args.first, let mode = OutputMode(rawValue: aliases[name] ?? name) else {
                let names = OutputMode.allCases.map(\.rawValue)
                if let name = args.first {
                    reportError(ShellError.unknownMode(name, suggestion: closestMatch(to: name, in: names), modes: names))
                } else {
                    print("current mode: \(shell.settings.format.mode.rawValue)")
                }
                return .ok
            }
            shell.settings.format.mode = mode
            return .ok
        },
        Command(
            name: "width", usage: ".width N|auto",
            summary: "the most columns a value takes in a table (0: no cap; auto: a cap only when a table would not fit)"
        ) { shell, args in
            guard args.count == 1, let n = args.first.flatMap({ $0 == "auto" ? -1 : Int($0) }), n >= -1 else {
                reportError("usage: .width N (0: no cap) or .width auto")
                return .ok
            }
            shell.settings.format.textWidth = n < 0 ? nil : n
            return .ok
        },
        Command(name: "maxrows", usage: ".maxrows N", summary: "rows a long result shows (first and last halves; 0: every row)") {
            shell, args in
            // 0 is no limit, as in other shells (a watch's pages keep a terminal's worth).
            guard args.count == 1, let text = args.first, let n = Int(text), n >= 0 else {
                reportError("usage: .maxrows N (0: every row; now \(shell.settings.format.maxRows))")
                return .ok
            }
            shell.settings.format.maxRows = n
            shell.settings.format.maxRowsChosen = true
            return .ok
        },
        Command(name: "columns", usage: ".columns [NAME ...]", summary: "show only these columns of tables that have them (none: all)") {
            shell, args in
            // Names may be given with spaces or commas between them, as in a SELECT list.
            shell.settings.format.columns = args.flatMap { $0.split(separator: ",").map(String.init) }.filter { !$0.isEmpty }
            let chosen = shell.settings.format.columns
            print(chosen.isEmpty ? "tables show every column" : "tables show: " + chosen.joined(separator: ", "))
            return .ok
        },
        Command(name: "dates", usage: ".dates utc|local", summary: "show dates in UTC (default) or in local time (TZ)") { shell, args in
            guard args.count == 1, let choice = args.first, choice == "utc" || choice == "local" else {
                reportError("usage: .dates utc|local (now \(shell.settings.format.localTime ? "local" : "utc"))")
                return .ok
            }
            shell.settings.format.localTime = choice == "local"
            return .ok
        },
        Command(name: "show", usage: ".show", summary: "the current settings, as the sqlite3 shell shows them") { shell, _ in
            let format = shell.settings.format
            let settings: [(String, String)] = [
                ("mode", format.mode.rawValue), ("headers", format.headers ? "on" : "off"),
                ("width", format.textWidth.map(String.init) ?? "auto"), ("maxrows", String(format.maxRows)),
                ("columns", format.columns.isEmpty ? "all" : format.columns.joined(separator: ", ")),
                ("dates", format.localTime ? "local" : "utc"), ("pager", shell.session.pager.setting),
                ("timer", shell.session.timer ? "on" : "off"), ("explain", shell.runtime.explainsPrintedResults ? "on" : "off"),
                ("destructive", shell.session.asksBeforeDestroying ? "on" : "off")
            ]
            let width = settings.map(\.0.count).max() ?? 0
            for (name, value) in settings { print(String(repeating: " ", count: width - name.count) + name + ": " + value) }
            return .ok
        },
        Command(name: "headers", usage: ".headers on|off", summary: "show or hide column headers") { shell, args in
            guard let flag = onOff(args, ".headers") else { return .ok }
            shell.settings.format.headers = flag
            return .ok
        },
        Command(name: "once", usage: ".once FILE", summary: "send the next printed result to FILE") { shell, args in
            guard args.count == 1 else {
                reportError("usage: .once FILE")
                return .ok
            }
            if shell.session.isSafe {
                reportError(".once: --safe does not write files (export() and .export do)")
                return .ok
            }
            shell.runtime.sendNextPrintedValue(toFile: args[0])
            return .ok
        },
        Command(
            name: "pager", usage: ".pager auto|on|off|always",
            summary:
                "page output longer than the terminal (auto or on: only what does not fit; less -S, or $PAGER); always: every table, whole, to scroll sideways"
        ) { shell, args in
            // `auto` (pgcli's, DuckDB's word) is `on`: the pager only for what does not fit.
            guard args.count == 1, let choice = args.first, ["auto", "on", "off", "always"].contains(choice) else {
                reportError("usage: .pager auto|on|off|always (now \(shell.session.pager.setting))")
                return .ok
            }
            shell.session.pager.enabled = choice != "off"
            shell.session.pager.always = choice == "always"
            shell.session.pager.saysAuto = choice == "auto"
            return .ok
        },
        Command(
            name: "destructive", usage: ".destructive on|off",
            summary: "ask before updateall or deleteall without a predicate (on by default; --yes starts with off)"
        ) { shell, args in
            guard let flag = onOff(args, ".destructive") else { return .ok }
            shell.session.asksBeforeDestroying = flag
            return .ok
        },
        Command(name: "timer", usage: ".timer [on|off]", summary: "show the time each line takes (alone: turn it over, as psql's \\timing)") {
            shell, args in
            // Alone, as psql's `\timing` alone: turned over, and said which way.
            if args.isEmpty {
                shell.session.timer.toggle()
                print("timer: " + (shell.session.timer ? "on" : "off"))
                return .ok
            }
            guard let flag = onOff(args, ".timer") else { return .ok }
            shell.session.timer = flag
            return .ok
        },
        Command(name: "explain", usage: ".explain on|off", summary: "show the SQL and query plan of results and rows printed") { shell, args in
            guard let flag = onOff(args, ".explain") else { return .ok }
            shell.runtime.explainsPrintedResults = flag
            return .ok
        }
    ]
}

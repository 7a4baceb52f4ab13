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

    enum Outcome { case ok, quit }

    struct Command {
        let name: String
        let usage: String
        let summary: String
        let run: (DotCommands, [String]) -> Outcome
    }

    static let commands: [Command] = [
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
                print(command.usage + "  " + command.summary)
                return .ok
            }
            let width = DotCommands.commands.map(\.usage.count).max()! + 2
            for command in DotCommands.commands {
                print(command.usage + String(repeating: " ", count: width - command.usage.count) + command.summary)
            }
            print("Lua: help() lists Quarry's functions and methods; help(fetch) or .help fetch describes one")
            return .ok
        },
        Command(name: "entities", usage: ".entities", summary: "list the entities") { shell, _ in
            let names = shell.runtime.context.entities.map(\.name).sorted()
            if names.isEmpty { print("no entities yet (entity \"Name\" { ... } or .import FILE NAME makes one)") }
            // Names come from files: shown escaped, as notes are (no escape reaches the terminal).
            for name in names { print(ErrorRendering.escaped(name)) }
            return .ok
        },
        Command(name: "tables", usage: ".tables [PATTERN]", summary: "list the entities and the tables they are read from (PATTERN: as LIKE, moz_%)")
        {
            shell, args in
            let context = shell.runtime.context
            // A pattern as the sqlite3 shell takes one: LIKE's % and _, any case, on either name.
            let matches = args.first.map { pattern in { (name: String) in OtherShellHabits.like(name, pattern) } } ?? { _ in true }
            let entities = context.entities.filter { matches($0.name) || matches(context.mapped($0).nameInSQL) }.sorted { $0.name < $1.name }
            if entities.isEmpty, let pattern = args.first, !context.entities.isEmpty {
                print("no entity or table matches '\(ErrorRendering.escaped(pattern))'")
                return .ok
            }
            if entities.isEmpty {
                print("no entities yet (entity \"Name\" { ... } or .import FILE NAME makes one)")
                return .ok
            }
            // The table as SQL names it in sql() (its schema too, where it has one); a
            // foreign file's view says so, as its rows are read only.
            let rows: [[String?]] = entities.map { entity in
                let storage = context.mapped(entity)
                let table = (storage.schema.map { $0 + "." } ?? "") + storage.nameInSQL
                // A view is read through a TEMP view of Quarry's (`quarry_rows NAME`): named as the file names it.
                let viewName = storage.relation.hasPrefix("quarry_rows ") ? entity.name : table
                return [entity.name, storage.isView ? viewName + " (view)" : table]
            }
            var format = shell.settings.format
            format.columns = []
            print(TextTable(headers: ["entity", "table"], rows: rows).render(format))
            return .ok
        },
        Command(
            name: "schema", usage: ".schema [--swift|--sql] [NAME]",
            summary: "show entity definitions (--swift: as SwiftData classes; --sql: the tables' SQL, as sqlite3 shows it)"
        ) { shell, arguments in
            if arguments.contains("--sql") { return shell.showSQL(of: arguments.filter { $0 != "--sql" }) }
            let args = arguments.filter { $0 != "--swift" }
            if args.count < arguments.count {
                let context = shell.runtime.context
                let unknown = args.filter { name in !context.entities.contains { $0.name == name } }
                if let name = unknown.first {
                    reportError(StoreError.unknownEntity(name: name, suggestion: closestMatch(to: name, in: context.entities.map(\.name))))
                    return .ok
                }
                print(
                    SwiftModelSource(model: CoreDataModel(of: context, entities: args.isEmpty ? nil : args)).source(style: .swiftData), terminator: ""
                )
                return .ok
            }
            // As declared (a sub-entity's own keys, with its parent), so the output runs
            // again: parents before their sub-entities, whatever order they were defined in.
            let entities = parentsFirst(shell.runtime.context.declaredEntities).filter { args.isEmpty || args.contains($0.name) }
            if entities.isEmpty, let name = args.first {
                let names = shell.runtime.context.entities.map(\.name)
                reportError(StoreError.unknownEntity(name: name, suggestion: closestMatch(to: name, in: names)))
            }
            for entity in entities {
                var header: [String] = []
                if let parent = entity.parent { header.append("parent = \(luaQuote(parent))") }
                if entity.isAbstract { header.append("abstract = true") }
                if !entity.uniqueness.isEmpty {
                    header.append(
                        "uniqueness = { " + entity.uniqueness.map { "{ " + $0.map(luaQuote).joined(separator: ", ") + " }" }.joined(separator: ", ")
                            + " }")
                }
                print(
                    header.isEmpty ? "entity \(luaQuote(entity.name)) {" : "entity(\(luaQuote(entity.name)), { \(header.joined(separator: ", ")) }) {"
                )
                // A key only sub-entities have (a parent lists them, for predicates over
                // it) says whose it is, as a comment, so the line still loads.
                func only(_ key: String) -> String {
                    guard entity.subentityKeys.contains(key) else { return "" }
                    let holders = shell.runtime.context.subentitiesHolding(key, below: entity.name)
                    return holders.isEmpty ? "" : "  -- " + holders.joined(separator: ", ") + " only"
                }
                for a in entity.attributes {
                    var options = ""
                    if a.isIndexed { options += ", indexed = true" }
                    if a.isUnique { options += ", unique = true" }
                    if let d = a.defaultValue { options += ", default = \(luaLiteral(d))" }
                    let type = "\"\(a.type.rawValue)\(a.isOptional ? "?" : "")\""
                    // A server's enum orders by its labels: said as a comment, so the line still loads.
                    let labels = a.enumeration.map { "  -- enum \($0.name): " + $0.listed(luaQuote) } ?? ""
                    print("  \(luaKey(a.name)) = " + (options.isEmpty ? type : "{ \(type)\(options) }") + "," + labels + only(a.name))
                }
                // Relationships: declared ones as entity writes them; those through columns
                // (relate(), a foreign key) as the relate() call that makes them.
                var related: [String] = []
                // The names a relationship also answers to (earlier rules' `book_set`), on a
                // comment line of their own after it, so its line still runs as printed.
                func otherNames(_ r: RelationshipDescription) -> String {
                    let names = entity.relationshipAliases.filter { $0.value == r.name }.keys.sorted()
                    return names.isEmpty ? "" : "\n-- \(luaKey(r.name)) is also read as " + names.map(luaKey).joined(separator: ", ")
                }
                for r in entity.relationships {
                    if let key = r.compositeKey {
                        // A key of several columns as the relate() that makes it, its columns
                        // as lists; every name quoted as Lua writes strings, so none ends the
                        // comment's line.
                        func list(_ names: [String]) -> String { "{ " + names.map(luaQuote).joined(separator: ", ") + " }" }
                        related.append(
                            "-- relate(\(luaQuote(entity.name)), \(list(key.columns)), \(luaQuote(r.destination)), \(list(key.targetKeys)), "
                                + "\(luaQuote(r.name)))" + otherNames(r))
                        continue
                    }
                    if let column = r.column {
                        // The destination's key by name, so the line runs as it is printed.
                        let context = shell.runtime.context
                        let key = r.targetKey ?? (try? context.entity(named: r.destination)).map { context.mapped($0).keyColumn } ?? "(key)"
                        related.append(
                            "-- relate(" + [entity.name, column, r.destination, key, r.name].map(luaQuote).joined(separator: ", ") + ")"
                                + otherNames(r))
                        continue
                    }
                    var spec = "\(r.isToMany ? "many" : "one") = \(luaQuote(r.destination))"
                    if let inverse = r.inverse { spec += ", inverse = \(luaQuote(inverse))" }
                    if r.deleteRule != .nullify { spec += ", delete = \"\(r.deleteRule.rawValue)\"" }
                    // An ordered to-many (Core Data's, or a join table's position) said as a
                    // comment, so the line still loads.
                    let context = shell.runtime.context
                    let ordered =
                        !r.isToMany || !context.keepsOrder(r.name, of: entity.name)
                        ? ""
                        : "  -- ordered" + (context.mapped(entity).orderedLinks[r.name].map { " by \($0.join).\($0.position)" } ?? "")
                    print("  \(luaKey(r.name)) = { \(spec) }," + ordered + only(r.name) + otherNames(r).replacingOccurrences(of: "\n", with: "\n  "))
                }
                print("}")
                for line in related { print(line) }
            }
            return .ok
        },
        Command(name: "read", usage: ".read FILE", summary: "run a Lua script") { shell, args in
            guard let path = args.first else {
                reportError("usage: .read FILE")
                return .ok
            }
            _ = BatchRunner(session: shell.session, showTraceback: false).runScript(path, arguments: Array(args.dropFirst()))
            return .ok
        },
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
        Command(name: "maxrows", usage: ".maxrows N", summary: "rows a long result shows (first and last halves)") { shell, args in
            guard let text = args.first, let n = Int(text), n >= 1 else {
                reportError("usage: .maxrows N (a number from 1; now \(shell.settings.format.maxRows))")
                return .ok
            }
            shell.settings.format.maxRows = n
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
            name: "pager", usage: ".pager on|off|always",
            summary: "page output longer than the terminal (less -S, or $PAGER); always: every table, whole, to scroll sideways"
        ) { shell, args in
            guard args.count == 1, let choice = args.first, ["on", "off", "always"].contains(choice) else {
                reportError("usage: .pager on|off|always (now \(shell.session.pager.setting))")
                return .ok
            }
            shell.session.pager.enabled = choice != "off"
            shell.session.pager.always = choice == "always"
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
        Command(name: "timer", usage: ".timer on|off", summary: "show the time each line takes") { shell, args in
            guard let flag = onOff(args, ".timer") else { return .ok }
            shell.session.timer = flag
            return .ok
        },
        Command(name: "explain", usage: ".explain on|off", summary: "show the SQL and query plan of results printed") { shell, args in
            guard let flag = onOff(args, ".explain") else { return .ok }
            shell.runtime.explainsPrintedResults = flag
            return .ok
        },
        Command(name: "import", usage: ".import FILE ENTITY", summary: "import a CSV or JSON file into ENTITY (committed at once, as import() does)")
        { shell, args in
            guard args.count == 2 else {
                reportError("usage: .import FILE ENTITY")
                return .ok
            }
            shell.runLua("print(import(\(luaQuote(args[0])), { entity = \(luaQuote(args[1])) }) .. ' rows imported into ' .. \(luaQuote(args[1])))")
            return .ok
        },
        Command(name: "export", usage: ".export FILE", summary: "write the last results printed (_) to a CSV or JSON file") { shell, args in
            guard args.count == 1 else {
                reportError("usage: .export FILE")
                return .ok
            }
            shell.runLua(
                "local t = quarry.typeof(_) if t ~= 'results' and t ~= 'table' then error('.export: print some results first; _ holds the last ones', 0) end "
                    + "print(export(_, \(luaQuote(args[0]))) .. (t == 'results' and ' objects' or ' rows') .. ' written to ' .. \(luaQuote(args[0])))"
            )
            return .ok
        },
        Command(name: "open", usage: ".open DB", summary: "close this store and open DB (:memory: for a new one)") { shell, args in
            // A libpq connection string may be typed unquoted: `.open host=h dbname=d`.
            guard let location = openLocation(args) else {
                reportError("usage: .open DB")
                return .ok
            }
            let path = location == ":memory:" ? nil : location
            // --safe writes no new files, and --readonly holds for every store of the session.
            if let path, shell.session.isSafe, StoreRegistry.namesFile(path), !FileManager.default.fileExists(atPath: path) {
                reportError(".open: \(path) does not exist, and --safe does not create files")
                return .ok
            }
            do {
                try shell.session.open(path)
            } catch {
                reportError(error)
                return .ok
            }
            // The interactive init file, as after the first store was opened.
            shell.session.rerunInitFile()
            return .ok
        },
        Command(name: "changes", usage: ".changes", summary: "list unsaved inserts, updates and deletes") { shell, _ in
            let pending = shell.runtime.context.pendingChanges
            for (label, objects) in [("inserted", pending.inserted), ("updated", pending.updated), ("deleted", pending.deleted)] {
                print("\(label): " + (objects.isEmpty ? "none" : ErrorRendering.escaped(objects.map(\.objectID).joined(separator: ", "))))
            }
            return .ok
        },
        Command(name: "notes", usage: ".notes", summary: "every note opening the store made (an open prints the first 20)") { shell, _ in
            let notes = shell.runtime.context.openingNotes
            if notes.isEmpty { print("opening the store made no notes") }
            // One line each, escaped and bounded as at the open; here all of them, on stdout.
            for note in notes { print(OpeningNotes.line(note)) }
            return .ok
        },
        Command(name: "history", usage: ".history [N]", summary: "the last N recorded transactions (10)") { shell, args in
            let count = args.first.flatMap(Int.init) ?? 10
            do {
                let all = try shell.runtime.context.history()
                for t in all.suffix(count) {
                    print(
                        "\(t.token)  \(Value.iso8601(t.time))  \(ErrorRendering.escaped(t.author ?? "-"))  +\(t.inserted.count) ~\(t.updated.count) -\(t.deleted.count)"
                    )
                }
                if all.isEmpty {
                    // A file another program made keeps no history of Quarry's: its writers record none.
                    let foreign = shell.runtime.context.entities.contains {
                        [.foreignTable, .foreignView].contains(shell.runtime.context.mapped($0).layout)
                    }
                    print(
                        foreign
                            ? "no history: a file Quarry did not make keeps none (history{} is empty there); other programs' changes are still seen"
                            : "no transactions recorded yet")
                }
            } catch {
                reportError(error)
            }
            return .ok
        },
        Command(name: "quit", usage: ".quit", summary: "leave quarry") { _, _ in .quit },
        Command(name: "exit", usage: ".exit", summary: "leave quarry") { _, _ in .quit }
    ]

    /// `.schema --sql [NAME ...]`: the SQL that made each entity's table, its indexes and
    /// triggers, as sqlite3's `.schema` shows a file (a foreign table's as its program wrote it).
    func showSQL(of names: [String]) -> Outcome {
        let context = runtime.context
        if let unknown = names.first(where: { name in !context.entities.contains { $0.name == name } }) {
            reportError(StoreError.unknownEntity(name: unknown, suggestion: closestMatch(to: unknown, in: context.entities.map(\.name))))
            return .ok
        }
        let entities = context.entities.filter { names.isEmpty || names.contains($0.name) }.sorted { $0.name < $1.name }
        // As the engine holds each table: SQLite's own text, a server's catalogue. A view
        // (or a table without a key) read through a TEMP view Quarry made
        // (`quarry_rows NAME`), or a table read through its numbered rows, is shown as the
        // relation the entity is named for.
        for entity in entities {
            let storage = context.mapped(entity)
            let relation =
                storage.relation.hasPrefix("quarry_rows ") || storage.numberedRows != nil && storage.nameInSQL == storage.relation
                ? entity.name : storage.nameInSQL
            let statements: [String]
            do { statements = try context.connection.engine.definition(of: relation, in: storage.schema) } catch {
                reportError(".schema: \(error)")
                return .ok
            }
            if statements.isEmpty { print("-- \(relation): the database keeps no SQL for it (a view Quarry made for the session)") }
            for statement in statements { print(Self.terminalSafe(statement) + ";") }
        }
        return .ok
    }

    /// A definition's text with its control characters (an ESC, a C1 control) written as
    /// escapes, so none drives the terminal; its lines and tabs kept.
    static func terminalSafe(_ text: String) -> String {
        var out: [UInt8] = []
        var previous: UInt8 = 0
        for byte in text.utf8 {
            defer { previous = byte }
            if byte < 0x20 || byte == 0x7F, byte != 0x0A, byte != 0x09 {
                out += Array(("\\" + String(format: "%03d", byte)).utf8)
            } else if previous == 0xC2, (0x80...0x9F).contains(byte) {
                out.removeLast()
                out += Array(("\\u{" + String(byte, radix: 16) + "}").utf8)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func onOff(_ args: [String], _ name: String) -> Bool? {
        switch args.first {
        case "on": return true
        case "off": return false
        default:
            reportError("usage: \(name) on|off")
            return nil
        }
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

private func onOff(_ args: [String], _ name: String) -> Bool? { DotCommands.onOff(args, name) }

/// The location `.open`'s words name: its one word, or the words of a libpq connection
/// string typed without quotes around it (`.open host=h dbname=d password='a b'`), each
/// `keyword=value`, joined again with every value in single quotes as libpq reads them
/// (the words lost their quotes). Nil for anything else.
func openLocation(_ args: [String]) -> String? {
    if args.count == 1 { return args[0] }
    guard args.count > 1, let first = args.first, !StoreRegistry.namesFile(first) else { return nil }
    var pairs: [String] = []
    for word in args {
        guard let equals = word.firstIndex(of: "=") else { return nil }
        let value = word[word.index(after: equals)...].replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
        pairs.append(word[..<equals] + "='" + value + "'")
    }
    return pairs.joined(separator: " ")
}

/// `entities` in their order, except that an entity whose parent is among them comes
/// after it (a parent must be defined before its sub-entities).
func parentsFirst(_ entities: [EntityDescription]) -> [EntityDescription] {
    let names = Set(entities.map(\.name))
    var placed: Set<String> = []
    var ordered: [EntityDescription] = []
    var waiting = entities
    while !waiting.isEmpty {
        let ready = waiting.filter { entity in entity.parent.map { placed.contains($0) || !names.contains($0) } ?? true }
        // A cycle cannot be stored; should one be found, the rest keep their order.
        guard !ready.isEmpty else {
            ordered += waiting
            break
        }
        for entity in ready { placed.insert(entity.name) }
        ordered += ready
        waiting.removeAll { placed.contains($0.name) }
    }
    return ordered
}

/// A value as Lua source writes it, so that `.schema`'s lines run as printed: text
/// quoted, a date as `date("...")`, numbers and booleans bare.
func luaLiteral(_ value: Value) -> String {
    switch value {
    case .real(let number) where !number.isFinite: return number.isNaN ? "0/0" : number < 0 ? "-1/0" : "1/0"
    case .integer, .real, .decimal: return value.displayString
    case .bool(let flag): return flag ? "true" : "false"
    case .date: return "date(\(luaQuote(value.displayString)))"
    case .text(let text): return luaQuote(text)
    // Bytes as Lua's escapes, so the literal reads back as the same string (`""` for X'').
    case .blob(let bytes), .textBytes(let bytes):
        return "\""
            + bytes.map { byte in
                switch byte {
                case 0x22: return "\\\""
                case 0x5C: return "\\\\"
                case 0x20...0x7E: return String(UnicodeScalar(byte))
                default: return "\\x" + String(format: "%02x", byte)
                }
            }.joined() + "\""
    default: return luaQuote(value.displayString)
    }
}

/// A Lua string literal for any text.
func luaQuote(_ text: String) -> String {
    "\""
        + text.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: return String(format: "\\%03d", scalar.value)
            // C1 controls and the line separators would act on a terminal or end a line.
            case _ where (0x80...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
                return "\\u{" + String(scalar.value, radix: 16) + "}"
            default: return String(scalar)
            }
        }.joined() + "\""
}

/// A table key as Lua source writes it: bare when it is a name Lua takes (`title`), else
/// quoted in brackets (`["my col"]`, `["end"]`), so `.schema`'s output loads again.
func luaKey(_ name: String) -> String {
    let reserved: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"
    ]
    let bytes = Array(name.utf8)
    let isName =
        !bytes.isEmpty && !(bytes[0] >= 48 && bytes[0] <= 57)
        && bytes.allSatisfy { $0 == 95 || ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }
    return isName && !reserved.contains(name) ? name : "[" + luaQuote(name) + "]"
}

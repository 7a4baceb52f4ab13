import Foundation
import QuarryFormat
import QuarryLua
import QuarryModel
import QuarryModelFiles
import QuarryStore
import QuarryStores

/// The dot-commands that show what the store holds: its entities, their tables, their
/// definitions (as Lua, as SwiftData classes, as SQL).
extension DotCommands {
    static let listingCommands: [Command] = [
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
            name: "schema", usage: ".schema [--swift|--sql] [NAME|PATTERN ...]",
            summary: "show entity definitions (--swift: as SwiftData classes; --sql: the tables' SQL, as sqlite3 shows it; PATTERN: as LIKE, film%)"
        ) { shell, arguments in
            if arguments.contains("--sql") { return shell.showSQL(of: arguments.filter { $0 != "--sql" }) }
            let args = arguments.filter { $0 != "--swift" }
            guard let named = shell.schemaEntityNames(args) else { return .ok }
            if args.count < arguments.count {
                let context = shell.runtime.context
                print(
                    SwiftModelSource(model: CoreDataModel(of: context, entities: args.isEmpty ? nil : named)).source(style: .swiftData),
                    terminator: "")
                return .ok
            }
            // As declared (a sub-entity's own keys, with its parent), so the output runs
            // again: parents before their sub-entities, whatever order they were defined in.
            let entities = parentsFirst(shell.runtime.context.declaredEntities).filter { args.isEmpty || named.contains($0.name) }
            // What keeps a relationship through columns, said on its line.
            let keeping = RelationKeeping(shell.runtime.context)
            func keeper(of entity: String, columns: [String]) -> RelationKeeping.Keeper { keeping.keeper(of: entity, columns: columns) }
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
                // The names a relationship also answers to (earlier rules' `book_set`), said
                // once, at the end of its own comment, so its line still runs as printed.
                func otherNames(_ r: RelationshipDescription) -> String {
                    let names = entity.relationshipAliases.filter { $0.value == r.name }.keys.sorted()
                    return names.isEmpty ? "" : "also read as " + names.map(luaKey).joined(separator: ", ")
                }
                // A relationship through columns, said plainly as a comment: what it is, and
                // what keeps it (the file's foreign key, or the relate() call kept in the
                // sidecar beside a file Quarry did not make, or in Quarry's own file), so
                // it reads as neither a step still to take nor a declaration to repeat. The
                // call stays whole on the line.
                func readSo(_ r: RelationshipDescription, by columns: [String], call: String) -> String {
                    let kept = keeper(of: entity.name, columns: columns)
                    let origin =
                        switch kept {
                        case .sidecar(let name): "\(call) made it; kept in \(name) beside the file, which is unchanged"
                        case .quarrysFile: "\(call) made it; kept in the file"
                        case .foreignKey: "the file's foreign key; \(call) declares the same elsewhere"
                        case .database: "kept by the database; \(call) declares the same elsewhere"
                        }
                    let aliases = otherNames(r)
                    return "-- \(luaKey(r.name)): to-one to \(plainOrQuoted(r.destination)) by \(columns.map(plainOrQuoted).joined(separator: ", ")) "
                        + "(\(origin))" + (aliases.isEmpty ? "" : "; " + aliases)
                }
                for r in entity.relationships {
                    if let key = r.compositeKey {
                        // A key of several columns as the relate() that makes it, its columns
                        // as lists; every name quoted as Lua writes strings, so none ends the
                        // comment's line.
                        func list(_ names: [String]) -> String { "{ " + names.map(luaQuote).joined(separator: ", ") + " }" }
                        let call =
                            "relate(\(luaQuote(entity.name)), \(list(key.columns)), \(luaQuote(r.destination)), \(list(key.targetKeys)), "
                            + "\(luaQuote(r.name)))"
                        related.append(readSo(r, by: key.columns, call: call))
                        continue
                    }
                    if let column = r.column {
                        // The destination's key by name, so the line runs as it is printed.
                        let context = shell.runtime.context
                        let key = r.targetKey ?? (try? context.entity(named: r.destination)).map { context.mapped($0).keyColumn } ?? "(key)"
                        let call = "relate(" + [entity.name, column, r.destination, key, r.name].map(luaQuote).joined(separator: ", ") + ")"
                        related.append(readSo(r, by: [column], call: call))
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
                    let aliases = otherNames(r)
                    let comment = ordered + only(r.name)
                    print(
                        "  \(luaKey(r.name)) = { \(spec) }," + comment + (aliases.isEmpty ? "" : (comment.isEmpty ? "  -- " : "; ") + aliases))
                }
                print("}")
                for line in related { print(line) }
            }
            return .ok
        }
    ]

    /// `.schema --sql [NAME ...]`: the SQL that made each entity's table, its indexes and
    /// triggers, as sqlite3's `.schema` shows a file (a foreign table's as its program wrote it).
    func showSQL(of names: [String]) -> Outcome {
        let context = runtime.context
        guard let named = schemaEntityNames(names) else { return .ok }
        let entities = context.entities.filter { names.isEmpty || named.contains($0.name) }.sorted { $0.name < $1.name }
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

    /// The entities `.schema` is asked for, in the order of the store: each argument an
    /// entity's name or, as the sqlite3 shell's `.schema` takes one, a LIKE pattern (`film%`,
    /// `%_log`) on the entity's name or its table's, any case. nil when an argument names
    /// none, said in one line (a name with the closest one, a pattern as `.tables` says it).
    func schemaEntityNames(_ arguments: [String]) -> [String]? {
        let context = runtime.context
        var named: [String] = []
        for argument in arguments {
            let exact = context.entities.filter { $0.name == argument }
            let matching =
                exact.isEmpty
                ? context.entities.filter {
                    OtherShellHabits.like($0.name, argument) || OtherShellHabits.like(context.mapped($0).nameInSQL, argument)
                }
                : exact
            guard !matching.isEmpty else {
                if argument.contains("%") || argument.contains("_") {
                    reportError("no entity or table matches '\(ErrorRendering.escaped(argument))'")
                } else {
                    let suggestion = closestEntityName(to: argument, in: context.entities.map(\.name))
                    reportError(StoreError.unknownEntity(name: argument, suggestion: suggestion))
                }
                return nil
            }
            named += matching.map(\.name).filter { !named.contains($0) }
        }
        return named
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

/// What keeps each relationship read through columns, as `.schema` says it: a `relate()`
/// call kept in the sidecar beside a file Quarry did not make (`music.db.quarry`), one
/// kept in Quarry's own file, the file's foreign key, or (a server) the database.
struct RelationKeeping {
    enum Keeper: Equatable {
        case sidecar(String)
        case quarrysFile
        case foreignKey
        case database
    }

    private let isQuarrysFile: Bool
    private let isFile: Bool
    private let sidecarName: String
    private let relations: [(source: String, columns: [String])]

    init(_ context: ObjectContext) {
        isQuarrysFile = context.store.isQuarrysFile
        let path = context.path ?? ""
        isFile = !path.isEmpty && FileManager.default.fileExists(atPath: path)
        sidecarName = (ForeignSidecar.path(for: path) as NSString).lastPathComponent
        // A sidecar that cannot be read declares nothing here; the open said why.
        let sidecar = isFile && !isQuarrysFile ? try? ForeignSidecar.load(for: path) : nil
        relations = sidecar?.relations.map { ($0.source, $0.allColumns) } ?? []
    }

    func keeper(of entity: String, columns: [String]) -> Keeper {
        if isQuarrysFile { return .quarrysFile }
        if relations.contains(where: { $0.source == entity && $0.columns == columns }) { return .sidecar(sidecarName) }
        return isFile ? .foreignKey : .database
    }
}

import Foundation
import GRDB
import GRDBSQLite

/// Any SQLite file opens: tables Quarry did not create become entities (columns by their
/// declared affinity, `INTEGER PRIMARY KEY` or rowid as identity), and their foreign keys
/// become to-one relationships with an inverse to-many. Nothing is written to the file.
struct ForeignSchemaReader {
    let context: ObjectContext

    func readTables() throws {
        // Tables and views in one read: every read is a transaction of its own.
        let (tables, views) = try context.read { db in
            (try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'quarry\\_%' ESCAPE '\\' ORDER BY name"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view' AND name NOT LIKE 'quarry\\_%' ESCAPE '\\' ORDER BY name"))
        }
        var found: [(entity: EntityDescription, storage: EntityStorage)] = []
        for table in tables where context.managedObjectModel.entitiesByName[table] == nil {
            if let mapped = try foreignEntity(table) { found.append(mapped) }
        }
        // SQLite's order of ON DELETE actions, which a RESTRICT key's check depends on.
        let referencing = (try? context.read { db in try ForeignKeyOrder.referencingKeys(in: db) }) ?? [:]
        for (entity, storage) in found {
            var storage = storage
            storage.referencingKeys = referencing[storage.relation.lowercased()] ?? []
            context.remember(entity, storage: storage)
        }
        for (entity, _) in found { try addForeignKeys(of: entity.name) }
        ForeignFileStore.mapJoinTables(found.map(\.entity.name), in: context)
        for view in views where context.managedObjectModel.entitiesByName[view] == nil {
            if let (entity, storage) = try viewEntity(view) { context.remember(entity, storage: storage) }
        }
    }

    /// A view becomes a read-only entity. Its rows are identified by an integer column
    /// named `id`, `rowid` or `_pk` (else its first column, when an integer) if that
    /// column holds a distinct integer in every row. Otherwise (no such column, or rows
    /// that share an id or have none) every row is an object of its own, numbered by its
    /// place: a TEMP view of the same name shadows the file's and adds the number, so
    /// nothing is written to the file.
    private func viewEntity(_ view: String) throws -> (EntityDescription, EntityStorage)? {
        // A view that no longer compiles (a table it reads was dropped) is left out.
        guard let columns = try? context.read({ db in try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(quoteIdentifier(view)))") }), !columns.isEmpty else { return nil }
        var names: [String] = columns.compactMap { $0["name"] }
        guard names.count == columns.count else { return nil }
        // As for tables: a row has the key besides, within SQLite's 2,000 columns.
        let room = columnLimit() - 1
        if names.count > room {
            context.openingNotes.append(tooWideNote(view, columns: names.count, kept: room))
            names = Array(names.prefix(room))
        }
        var types: [AttributeType] = columns.prefix(names.count).map { Self.attributeType(declared: $0["type"] ?? "") }
        // A computed column declares no type: it has the type of what it holds.
        let untyped = names.indices.filter { ((columns[$0]["type"] as String?) ?? "").trimmingCharacters(in: .whitespaces).isEmpty }
        for (index, type) in zip(untyped, viewColumnTypes(view, untyped.map { names[$0] })) { types[index] = type }
        let attributes = names.indices.map { AttributeDescription(name: names[$0], type: types[$0], isOptional: true) }
        let candidate = names.indices.first { ["id", "rowid", "_pk"].contains(names[$0].lowercased()) && types[$0] == .int64 }
            ?? (types.first == .int64 ? 0 : nil)
        let key: String
        if let candidate, try viewKeyIsDistinct(view, names[candidate]) {
            key = names[candidate]
        } else {
            let lowered = Set(names.map { $0.lowercased() })
            guard let place = ["_row", "_row_", "_view_row"].first(where: { !lowered.contains($0) }) else { return nil }
            let v = quoteIdentifier(view)
            do {
                try context.database.writeWithoutTransaction { db in
                    let kept = names.map(quoteIdentifier).joined(separator: ", ")
                    try db.execute(sql: "CREATE TEMP VIEW IF NOT EXISTS \(v) AS SELECT row_number() OVER () AS \(quoteIdentifier(place)), \(kept) FROM main.\(v)")
                }
            } catch {
                return nil
            }
            key = place
        }
        return (EntityDescription(name: view, attributes: attributes), EntityStorage(layout: .foreignView, relation: view, keyColumn: key))
    }

    /// The types of a view's `columns` that declare none (computed ones: `sum(...) AS
    /// Subtotal`), read off the values of its first rows as SQLite stores them: integers
    /// only are int64, numbers with a real among them double, blobs only binary; text, a
    /// mix with text, or no value at all, string.
    private func viewColumnTypes(_ view: String, _ columns: [String]) -> [AttributeType] {
        guard !columns.isEmpty else { return [] }
        let list = columns.map { "typeof(\(quoteIdentifier($0)))" }.joined(separator: ", ")
        let sql = "SELECT \(list) FROM main.\(quoteIdentifier(view)) LIMIT \(Self.viewTypeSample)"
        var seen = Array(repeating: Set<String>(), count: columns.count)
        _ = try? context.read { db in
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() {
                for i in columns.indices { if let kind: String = row[i], kind != "null" { seen[i].insert(kind) } }
            }
        }
        return seen.map { kinds in
            if kinds.isEmpty || kinds.contains("text") { return .string }
            if kinds == ["integer"] { return .int64 }
            if kinds == ["blob"] { return .binary }
            if !kinds.contains("blob") { return .double }
            return .string
        }
    }

    /// How many rows of a view are read for the types of its computed columns.
    static let viewTypeSample = 1000

    /// Whether `column` holds an integer in every row of the view, no two alike.
    private func viewKeyIsDistinct(_ view: String, _ column: String) throws -> Bool {
        let (v, c) = ("main." + quoteIdentifier(view), quoteIdentifier(column))
        let sql = "SELECT NOT EXISTS (SELECT 1 FROM \(v) WHERE typeof(\(c)) != 'integer') AND NOT EXISTS (SELECT 1 FROM \(v) GROUP BY \(c) HAVING count(*) > 1)"
        return (try? context.read { db in try Bool.fetchOne(db, sql: sql) ?? false }) ?? false
    }

    private func foreignEntity(_ table: String) throws -> (entity: EntityDescription, storage: EntityStorage)? {
        var columns = try context.read { db in try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoteIdentifier(table)))") }
        let keyColumns = columns.filter { ($0["pk"] as Int? ?? 0) > 0 }
        var primaryKey = "rowid"
        var keyMayHoldOthers = false
        if keyColumns.count == 1, let type: String = keyColumns[0]["type"], type.uppercased() == "INTEGER" {
            primaryKey = keyColumns[0]["name"]
            // Without a rowid the column is no alias of one, and takes text as well.
            keyMayHoldOthers = (try? context.read { db in try db.execute(sql: "SELECT rowid FROM \(quoteIdentifier(table)) LIMIT 0") }) == nil
        } else {
            // A column named rowid hides the rowid under that name; SQLite knows two more.
            let names = Set(columns.map { (($0["name"] as String?) ?? "").lowercased() })
            guard let alias = ["rowid", "_rowid_", "oid"].first(where: { !names.contains($0) }) else { return nil }
            primaryKey = alias
            // A WITHOUT ROWID table has no stable integer identity to give its objects.
            let hasRowid = (try? context.read { db in try db.execute(sql: "SELECT \(alias) FROM \(quoteIdentifier(table)) LIMIT 0") }) != nil
            guard hasRowid else { return nil }
        }
        // SQLite returns at most SQLITE_LIMIT_COLUMN columns (2,000) per row; an object's
        // row has the key and each foreign key's column once more: a wider table is read
        // without its last columns.
        let foreignKeys = (try? context.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(quoteIdentifier(table)))") }) ?? []
        let room = columnLimit() - 1 - foreignKeys.count
        if columns.count > room {
            context.openingNotes.append(tooWideNote(table, columns: columns.count, kept: room))
            columns = Array(columns.prefix(room))
        }
        // A primary key's columns, other than a rowid alias: nothing fills them, so a new
        // row must be given them (`keysToGive`). They stay as optional as declared: SQLite
        // takes NULL in them, for old files' sake, and a SET NULL rule writes it.
        var keysToGive: [String] = []
        var clockDefaults: [String: String] = [:]
        let attributes = columns.map { column -> AttributeDescription in
            let name: String = column["name"]
            let declared: String = column["type"] ?? ""
            let notNull = (column["notnull"] as Int? ?? 0) == 1
            let hasDefault = !(column["dflt_value"] as DatabaseValue).isNull
            let inKey = (column["pk"] as Int? ?? 0) > 0 && name != primaryKey
            if inKey, !hasDefault { keysToGive.append(name) }
            let type = Self.attributeType(declared: declared)
            // The key's default is the row's own (a rowid alias takes the next one).
            var defaultValue: Value?
            if hasDefault, name != primaryKey, let text: String = column["dflt_value"] {
                switch ForeignColumnDefault.kind(of: text, as: type) {
                case .constant(let value)?: defaultValue = value
                case .atInsert(let clock)?: clockDefaults[name] = clock
                default: break
                }
            }
            return AttributeDescription(name: name, type: type, isOptional: !notNull || hasDefault || name == primaryKey,
                                        defaultValue: defaultValue)
        }
        var storage = EntityStorage(layout: .foreignTable, relation: table, keyColumn: primaryKey, keyMayHoldOthers: keyMayHoldOthers)
        storage.keysToGive = keysToGive
        storage.clockDefaults = clockDefaults
        storage.numericDates = ForeignFileStore.numericDates(of: table, key: primaryKey, attributes: attributes, in: context)
        return (EntityDescription(name: table, attributes: attributes), storage)
    }

    /// The most columns SQLite returns in one row (SQLITE_LIMIT_COLUMN, 2,000 by default).
    private func columnLimit() -> Int {
        (try? context.read { db in Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_COLUMN, -1)) }) ?? 2000
    }

    /// The note for a table or view wider than an object's row can be.
    func tooWideNote(_ name: String, columns: Int, kept: Int) -> String {
        let left = columns - kept
        return "\(name) has \(columns) columns, more than one row can hold with its key (SQLite returns at most \(columnLimit())): "
            + (left == 1 ? "the last is left out" : "the last \(left) are left out")
    }

    /// SQLite's affinity rules, read as Quarry's types.
    static func attributeType(declared: String) -> AttributeType {
        let type = declared.uppercased()
        if type.contains("INT") { return .int64 }
        if type.contains("BOOL") { return .bool }
        if type.contains("DATE") || type.contains("TIME") { return .date }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return .string }
        if type.contains("BLOB") { return .binary }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") || type.contains("NUM") || type.contains("DEC") { return .double }
        return .string
    }

    private func addForeignKeys(of table: String) throws {
        let keys = try context.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(quoteIdentifier(table)))") }
        let single = Dictionary(grouping: keys, by: { $0["id"] as Int }).values.filter { $0.count == 1 }.map { $0[0] }
        for key in single.sorted(by: { ($0["from"] as String) < ($1["from"] as String) }) {
            try addForeignKey(table, column: key["from"], parent: key["table"], to: key["to"], onDelete: key["on_delete"])
        }
    }

    /// One single-column foreign key of a table Quarry did not create, `table.column`
    /// referencing `parent.to` (its key when nil): a to-one relationship with an inverse
    /// to-many, named by the foreign-file conventions. Nothing when `parent` is no entity.
    func addForeignKey(_ table: String, column: String, parent: String, to: String?, onDelete: String?) throws {
        guard let destination = context.managedObjectModel.entitiesByName[parent] else { return }
        // `REFERENCES parent` with no column names the parent's primary key, which for a
        // TEXT key is not the rowid Quarry knows its rows by.
        let to = try to ?? declaredPrimaryKey(of: parent)
        let targetKey = (to == nil || to == context.mapped(destination).keyColumn) ? nil : to
        // A key matched by a column of another collation than BINARY matches as SQLite does.
        if let targetKey, let collation = collation(of: targetKey, in: context.mapped(destination).relation), collation.uppercased() != "BINARY" {
            var storage = context.mapped(destination)
            storage.collations[targetKey] = collation
            context.remember(destination, storage: storage)
        }
        let source = try context.entity(named: table)
        let names = foreignKeyNames(source, column: column, destination: destination)
        try context.link(table, column: column, to: parent, targetKey: targetKey, name: names.relationship, inverse: names.inverse,
                 persist: false, inverseRule: Self.deleteRule(onDelete: onDelete))
        // The names Quarry gave before its naming conventions stay accepted.
        var from = try context.entity(named: table)
        if names.earlier.relationship != names.relationship { from.relationshipAliases[names.earlier.relationship] = names.relationship }
        context.remember(from)
        var parentEntity = try context.entity(named: parent)
        if names.earlier.inverse != names.inverse { parentEntity.relationshipAliases[names.earlier.inverse] = names.inverse }
        context.remember(parentEntity)
    }

    /// The collation a column of a table of the file declares (`BINARY` when none), as
    /// SQLite reports it.
    private func collation(of column: String, in table: String) -> String? {
        try? context.read { db -> String? in
            var collation: UnsafePointer<CChar>?
            let code = sqlite3_table_column_metadata(db.sqliteConnection, "main", table, column, nil, &collation, nil, nil, nil)
            guard code == SQLITE_OK, let collation else { return nil }
            let name = String(cString: collation)
            // Spliced into SQL as a name: only a plain identifier is.
            return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } ? name : nil
        }
    }

    /// The one column of `table`'s declared primary key (nil: none, or several).
    private func declaredPrimaryKey(of table: String) throws -> String? {
        let keys = try context.read { db in try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(quoteIdentifier(table)))") }.filter { ($0["pk"] as Int? ?? 0) > 0 }
        return keys.count == 1 ? keys[0]["name"] : nil
    }

    /// A foreign key's relationship and inverse names (`ForeignFileStore+Naming`), and the
    /// names Quarry gave it before, each free in its entity.
    private func foreignKeyNames(_ source: EntityDescription, column: String, destination: EntityDescription)
        -> (relationship: String, inverse: String, earlier: (relationship: String, inverse: String)) {
        let selfReference = source.name == destination.name
        func free(_ name: String, in entity: EntityDescription) -> Bool { context.isFreeKey(name, in: entity) }
        let relationship = ForeignFileStore.relationshipName(column: column, destination: destination.name) { free($0, in: source) }
        let inverse = ForeignFileStore.inverseName(source: source.name, relationship: relationship, column: column, selfReference: selfReference) {
            free($0, in: destination) && !(selfReference && $0 == relationship)
        }
        // An earlier name is given only where no key and no other earlier name has it (the
        // new name took its place, so it counts as free).
        func unused(_ candidate: String, in entity: EntityDescription, besides new: String) -> Bool {
            (free(candidate, in: entity) || candidate == new) && entity.relationshipAliases[candidate] == nil
        }
        let earlier = ForeignFileStore.earlierNames(source: source.name, column: column, destination: destination.name, selfReference: selfReference,
                                                    relationshipIsFree: { unused($0, in: source, besides: relationship) },
                                                    inverseIsFree: { unused($0, in: destination, besides: inverse) })
        return (relationship, inverse, earlier)
    }

    /// The delete rule of a foreign key's to-many side (the parent, whose deletion the
    /// action answers), as SQLite carries the action out with `PRAGMA foreign_keys=ON`:
    /// NO ACTION and RESTRICT refuse while children exist, CASCADE deletes them, SET NULL
    /// clears their column and SET DEFAULT gives it the column's declared default.
    static func deleteRule(onDelete action: String?) -> DeleteRule {
        switch (action ?? "NO ACTION").uppercased() {
        case "CASCADE": return .cascade
        case "SET NULL": return .nullify
        case "SET DEFAULT": return .setdefault
        default: return .deny
        }
    }
}

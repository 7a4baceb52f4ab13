import Foundation
import GRDB
import QuarrySQLite
import QuarryStore
import QuarryTestSupport

/// A random SQLite schema as another program makes it, for `ForeignSchemaPropertyTests`:
/// tables keyed by an integer, by text, by UUID text or by their rowid (referred to by a
/// unique `code`); names with spaces and in mixed case; foreign keys of every ON DELETE
/// action, self-references among them; columns named like a foreign key's stem in
/// another case; join tables of every shape; views with computed columns. Rows are
/// filled with valid keys, a self-reference naming an earlier row only (no cycles).
struct RandomForeignSchema {
    enum Key { case integer, text, uuid, rowid }

    struct ForeignKey {
        let column: String
        let parent: Int
        let action: String
        let notNull: Bool
        /// The parent's column it names: its key (`ident`), or its unique `alt`.
        var ref: String
        /// Declared `REFERENCES parent` with no column: the parent's primary key.
        var implicit = false
    }

    enum JoinShape: CaseIterable { case plain, compositeKey, ownKey, position }

    struct Table {
        let name: String
        let key: Key
        /// The column rows are referred to by: the primary key, or `code` of a rowid table.
        let ident: String?
        var foreignKeys: [ForeignKey] = []
        var extraColumns: [String] = []
        var join: JoinShape?
        /// A rowid table's `code` holds integers (else text).
        var integerCode = false
        /// An integer-keyed table has a unique TEXT column `alt` too (`a` and its key).
        var hasAlt = false
    }

    struct View {
        let name: String
        let child: Int
        let foreignKey: Int
    }

    var tables: [Table] = []
    var views: [View] = []
    var g: SplitMix64

    static let names = [
        "Artist", "album", "Order Details", "line items", "Customer", "EMPLOYEE", "Shelf", "book", "Tag Set",
        "Person", "category", "Invoice-Lines", "Territories"
    ]
    static let actions = ["NO ACTION", "RESTRICT", "CASCADE", "SET NULL"]

    init(seed: UInt64) {
        g = SplitMix64(seed: seed)
        var pool = Self.names
        pool.shuffle(using: &g)
        let count = g.int(2...5)
        for i in 0..<count {
            let name = pool[i]
            let key = g.pick([Key.integer, .text, .uuid, .rowid])
            let ident: String =
                switch key {
                case .integer: g.pick(["Id", "id", "\(Self.stem(name))Id", "Key"])
                case .text, .uuid: g.pick(["Code", "\(Self.stem(name))ID", "key"])
                case .rowid: "code"
                }
            var table = Table(name: name, key: key, ident: ident)
            table.integerCode = key == .rowid && g.chance(0.5)
            table.hasAlt = key == .integer && g.chance(0.5)
            // Foreign keys to earlier tables (none, one or two to each) and to itself.
            for parent in 0...i {
                for _ in 0..<(parent == i ? (g.chance(0.4) ? 1 : 0) : g.pick([0, 0, 1, 1, 2])) { addForeignKey(&table, i, to: parent) }
            }
            tables.append(table)
        }
        // Join tables between two entities (or one and itself), at most one per pair.
        var pairs: Set<[Int]> = []
        for _ in 0..<g.int(0...3) {
            let (a, b) = (g.int(0...count - 1), g.int(0...count - 1))
            guard pairs.insert([min(a, b), max(a, b)]).inserted else { continue }
            let shape = g.pick(JoinShape.allCases)
            let name = a == b ? "\(tables[a].name) links" : g.pick(["\(tables[a].name)\(tables[b].name)", "\(tables[a].name)_\(tables[b].name)"])
            let ca = Self.keyColumn(tables[a].name, style: g.int(0...3))
            var cb = a == b ? "Other" + Self.keyColumn(tables[b].name, style: 0) : Self.keyColumn(tables[b].name, style: g.int(0...3))
            if cb.lowercased() == ca.lowercased() { cb += "2" }
            let action = g.pick(Self.actions.filter { $0 != "SET NULL" })
            var join = Table(
                name: name.replacingOccurrences(of: "-", with: ""), key: shape == .ownKey ? .integer : .rowid,
                ident: shape == .ownKey ? "LinkId" : nil)
            join.foreignKeys = [
                ForeignKey(column: ca, parent: a, action: action, notNull: true, ref: tables[a].ident!),
                ForeignKey(column: cb, parent: b, action: action, notNull: true, ref: tables[b].ident!)
            ]
            join.join = shape
            tables.append(join)
        }
        // A view of each of a few foreign keys' children, grouped by parent.
        for (t, table) in tables.enumerated() where table.join == nil {
            for (k, _) in table.foreignKeys.enumerated() where g.chance(0.3) {
                views.append(View(name: "\(table.name) by \(table.foreignKeys[k].column)", child: t, foreignKey: k))
            }
        }
    }

    /// A foreign key of `table` (the `i`th) to `parent`, and sometimes a column named as its
    /// relationship or its inverse would be, in another case (`ARTIST`, `ALBUMS`).
    private mutating func addForeignKey(_ table: inout Table, _ i: Int, to parent: Int) {
        let role =
            table.foreignKeys.contains { $0.parent == parent } ? g.pick(["Editor", "backup owner"]) : parent < i ? tables[parent].name : table.name
        var column = parent == i ? g.pick(["ReportsTo", "parent_id", "ManagerID", "reports_to"]) : Self.keyColumn(role, style: g.int(0...3))
        while table.columnNames.contains(where: { $0.lowercased() == column.lowercased() }) { column += "2" }
        let action = g.pick(Self.actions)
        let target = parent < i ? tables[parent] : table
        var key = ForeignKey(
            column: column, parent: parent, action: action, notNull: parent != i && action != "SET NULL" && g.chance(0.4),
            ref: target.hasAlt && g.chance(0.5) ? "alt" : target.ident!)
        key.implicit = key.ref == target.ident && target.key != .rowid && g.chance(0.3)
        table.foreignKeys.append(key)
        let twin = Self.stem(role).uppercased()
        if g.chance(0.3), !table.columnNames.contains(where: { $0.lowercased() == twin.lowercased() }) { table.extraColumns.append(twin) }
        let plural = Self.stem(table.name).uppercased() + "S"
        if parent < i, g.chance(0.2), !tables[parent].columnNames.contains(where: { $0.lowercased() == plural.lowercased() }) {
            tables[parent].extraColumns.append(plural)
        }
    }

    /// `Order Details` -> `OrderDetails`, `line items` -> `lineitems`.
    static func stem(_ name: String) -> String { name.filter { $0.isLetter || $0.isNumber } }

    /// A key column named after `role` in one of the usual styles.
    static func keyColumn(_ role: String, style: Int) -> String {
        let s = stem(role)
        switch style {
        case 0: return s.prefix(1).uppercased() + s.dropFirst() + "Id"
        case 1: return s.lowercased() + "_id"
        case 2: return role + " ID"
        default: return s.prefix(1).lowercased() + s.dropFirst() + "ID"
        }
    }

    /// The SQL declaring and filling the file.
    mutating func sql() -> String {
        var statements: [String] = []
        let q = quoteIdentifier
        for table in tables {
            var parts: [String] = []
            switch (table.key, table.join) {
            case (.integer, _): parts.append("\(q(table.ident!)) INTEGER PRIMARY KEY")
            case (.text, _): parts.append("\(q(table.ident!)) TEXT PRIMARY KEY")
            case (.uuid, _): parts.append("\(q(table.ident!)) \(g.pick(["TEXT", "UUID", "VARCHAR(36)"])) PRIMARY KEY")
            case (.rowid, nil): parts.append("code \(table.integerCode ? "INTEGER" : "TEXT") NOT NULL UNIQUE")
            case (.rowid, _): break
            }
            if table.hasAlt { parts.append("alt TEXT UNIQUE") }
            if table.join == nil { parts += ["score INTEGER", "label TEXT"] + table.extraColumns.map { "\(q($0)) TEXT" } }
            for key in table.foreignKeys {
                let parent = tables[key.parent]
                let type = parent.key == .integer && key.ref != "alt" || parent.integerCode ? "INTEGER" : "TEXT"
                let references = "REFERENCES \(q(parent.name))" + (key.implicit ? "" : " (\(q(key.ref)))")
                parts.append("\(q(key.column)) \(type)\(key.notNull ? " NOT NULL" : "") \(references) ON DELETE \(key.action)")
            }
            if table.join == .position { parts.append("position INTEGER") }
            if table.join == .compositeKey { parts.append("PRIMARY KEY (\(q(table.foreignKeys[0].column)), \(q(table.foreignKeys[1].column)))") }
            statements.append("CREATE TABLE \(q(table.name)) (\(parts.joined(separator: ", ")))")
        }
        for view in views {
            let key = q(tables[view.child].foreignKeys[view.foreignKey].column)
            statements.append(
                "CREATE VIEW \(q(view.name)) AS SELECT \(key) AS ref, count(*) AS n, sum(score) AS total, avg(score) AS mean, max(label) AS top FROM \(q(tables[view.child].name)) GROUP BY \(key)"
            )
        }
        return statements.joined(separator: ";\n") + ";\n" + rowsSQL()
    }

    static func literal(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .int64(let i): return "\(i)"
        case .string(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        default: return "NULL"
        }
    }

    /// Rows for every table, parents first, each key naming an existing row.
    private mutating func rowsSQL() -> String {
        var idents: [[DatabaseValue]] = Array(repeating: [], count: tables.count)
        var statements: [String] = []
        let q = quoteIdentifier
        for (t, table) in tables.enumerated() {
            var pairs: Set<[String]> = []
            for _ in 0..<g.int(0...(table.join == nil ? 8 : 10)) {
                var columns: [String] = []
                var values: [String] = []
                if let ident = table.ident, table.join == nil {
                    let value = Self.newIdent(table, existing: idents[t], &g)
                    idents[t].append(value)
                    columns.append(q(ident))
                    values.append(Self.literal(value))
                    columns += ["score", "label"]
                    values += ["\(g.int(0...9))", "'\(g.pick(["a", "b", "c"]))'"]
                    if table.hasAlt {
                        columns.append("alt")
                        values.append(Self.literal(Self.alt(value)))
                    }
                }
                var pair: [String] = []
                var missing = false
                for key in table.foreignKeys {
                    let choices = key.parent == t ? Array(idents[t].dropLast(table.join == nil ? 1 : 0)) : idents[key.parent]
                    var value: DatabaseValue = choices.isEmpty || (!key.notNull && g.chance(0.2)) ? .null : g.pick(choices)
                    if key.ref == "alt", !value.isNull { value = Self.alt(value) }
                    columns.append(q(key.column))
                    values.append(Self.literal(value))
                    pair.append(value.description)
                    missing = missing || (value.isNull && key.notNull)
                }
                if table.join != nil {
                    guard !pair.contains("NULL"), pairs.insert(pair).inserted else { continue }
                    if table.join == .position {
                        columns.append("position")
                        values.append(g.chance(0.2) ? "NULL" : "\(g.int(0...20))")
                    }
                }
                if missing, table.join == nil {
                    idents[t].removeLast()
                    continue
                }
                statements.append("INSERT INTO \(q(table.name)) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))")
            }
        }
        return statements.map { $0 + ";\n" }.joined()
    }

    /// The `alt` of the row keyed `key`.
    static func alt(_ key: DatabaseValue) -> DatabaseValue { "a\(Int64.fromDatabaseValue(key) ?? 0)".databaseValue }

    /// A key no row of the table has yet.
    static func newIdent(_ table: Table, existing: [DatabaseValue], _ g: inout SplitMix64) -> DatabaseValue {
        while true {
            let value: DatabaseValue
            switch table.key {
            case .integer: value = g.int(1...60).databaseValue
            case .text: value = (g.pick(["k", "K", "K ", "x-"]) + String(g.int(1...99))).databaseValue
            case .uuid:
                value =
                    UUID(uuid: (0..<16).map { _ in UInt8(truncatingIfNeeded: g.next()) }.withUnsafeBytes { $0.load(as: uuid_t.self) }).uuidString
                    .lowercased().databaseValue
            case .rowid: value = table.integerCode ? g.int(100...999).databaseValue : "c\(g.int(100...999))".databaseValue
            }
            if !existing.contains(value) { return value }
        }
    }

    var description: String {
        tables.map { t in
            "\(t.name) [\(t.key)\(t.join.map { " join \($0)" } ?? "")] "
                + t.foreignKeys.map {
                    "\($0.column)->\(tables[$0.parent].name).\($0.implicit ? "(key)" : $0.ref) \($0.action)\($0.notNull ? " NOT NULL" : "")"
                }.joined(separator: ", ")
        }.joined(separator: "; ")
    }
}

extension RandomForeignSchema.Table {
    var columnNames: [String] { [ident ?? "code", "score", "label", "alt"] + extraColumns + foreignKeys.map(\.column) }
}

import Foundation
import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Any SQLite file opens: tables Quarry did not create become entities (columns by their
/// declared affinity, `INTEGER PRIMARY KEY` or rowid as identity, or without a rowid a
/// number made from the key: `+KeyedTables`), and their foreign keys
/// become to-one relationships with an inverse to-many. Nothing is written to the file.
/// The file's catalog is read into the engine-neutral `ForeignSchema` (`catalog`), from
/// which the relationships and join tables are decided as for any engine's schema.
struct ForeignSchemaReader {
    let session: StoreSession
    /// What an open asks once and uses many times (`Asked`): each read is a transaction
    /// of its own.
    private let asked = Asked()
    /// The most columns SQLite returns in one row (SQLITE_LIMIT_COLUMN, 2,000 by
    /// default), read when a table or view is first mapped: a file of Quarry's own
    /// entities needs none.
    private var columnLimit: Int {
        if let known = asked.columnLimit { return known }
        let read = (try? session.connection.read { db in Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_COLUMN, -1)) }) ?? 2000
        asked.columnLimit = read
        return read
    }

    init(session: StoreSession) { self.session = session }

    private final class Asked {
        var columnLimit: Int?
        var schemaText: SQLiteSchemaText?
    }

    /// The file's views' and tables' SQL (`SQLiteSchemaText`), read once, inside a read.
    func schemaText(_ db: Database) throws -> SQLiteSchemaText {
        if let known = asked.schemaText { return known }
        let read = try SQLiteSchemaText(db)
        asked.schemaText = read
        return read
    }

    func readTables() throws {
        // Tables and views in one read, from one statement: every read is a transaction of
        // its own, and preparing a statement cost as much as the rows it read (four were
        // 0.6M instructions of opening a Quarry file). Names are matched as the LIKE
        // patterns before them did, ASCII letters without case; in the order of their names.
        let (tables, views, rowNames, shadows) = try session.connection.read { db in
            var (tables, views, rowNames, hasVirtual) = ([String](), [String](), [String](), false)
            let rows = try Row.fetchCursor(
                db, sql: "SELECT type, name, type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' FROM main.sqlite_master ORDER BY name")
            while let row = try rows.next() {
                guard let type: String = row[0], let name: String = row[1] else { continue }
                let words = CaselessASCII(name)
                if words.hasPrefix("QUARRY_ROWS ") { rowNames.append(name) }
                if type == "table", !words.hasPrefix("SQLITE_"), !words.hasPrefix("QUARRY_") { tables.append(name) }
                if type == "view", !words.hasPrefix("QUARRY_") { views.append(name) }
                if let virtual: Bool = row[2], virtual { hasVirtual = true }
            }
            return (tables, views, rowNames, ShadowTables.names(in: db, hasVirtual: hasVirtual))
        }
        // The file's own `quarry_rows x`, which a view's temporary view must not shadow.
        let taken = Set(rowNames.map(DeferredViews.folded))
        let unknown = tables.filter { session.managedObjectModel.entitiesByName[$0] == nil && !shadows.contains($0) }
        let schema = try catalog(of: unknown, views: views.filter { session.managedObjectModel.entitiesByName[$0] == nil })
        noteMissingParents(of: schema)
        noteUnknownCollations(of: schema)
        var found: [(entity: EntityDescription, storage: EntityStorage)] = []
        let relations = unknown.compactMap { schema.relations[$0] }
        // Every table's rowid asked in one read (each read is a transaction of its own),
        // and only of a table whose SQL may lack one: an ordinary table has a rowid unless
        // its SQL says WITHOUT (ROWID); a virtual table's module decides.
        let (probes, keysNoAlias): ([String: Bool], Set<String>) =
            try relations.isEmpty
            ? ([:], [])
            : session.connection.read { db in
                let schema = try schemaText(db)
                let keysNoAlias = integerKeysNoAlias(relations, schema: schema, db)
                func plain(_ table: String) -> Bool {
                    guard let sql = schema.table(named: table) else { return false }
                    let words = CaselessASCII(sql)
                    return words.hasPrefix("CREATE TABLE") && !words.contains("WITHOUT")
                }
                let probes = Dictionary(
                    relations.compactMap { relation in
                        rowidProbe(relation, keysNoAlias: keysNoAlias).map { probe in
                            (probe.sql, plain(relation.name) || (try? db.execute(sql: probe.sql)) != nil)
                        }
                    },
                    uniquingKeysWith: { first, _ in first })
                return (probes, keysNoAlias)
            }
        // Tables another table's foreign key names: their rows are read with that row's
        // column beside them when a link is followed.
        let referenced = Set(schema.relations.values.flatMap { $0.foreignKeys.map { $0.parent.lowercased() } })
        for relation in relations {
            let linked = !relation.foreignKeys.isEmpty || referenced.contains(relation.name.lowercased())
            if let mapped = try foreignEntity(relation, taken: taken, probes: probes, keysNoAlias: keysNoAlias, linked: linked) {
                found.append(mapped)
            }
        }
        // SQLite's order of ON DELETE actions, which a RESTRICT key's check depends on.
        // By table: a table without a rowid is read through a view of another name.
        let referencing = schema.referencingKeys(of: found.map(\.entity.name), order: ForeignKeyOrder.rule)
        for (entity, storage) in found {
            var storage = storage
            storage.referencingKeys = referencing[entity.name] ?? []
            session.remember(entity, storage: storage)
        }
        try schema.addForeignKeys(of: found.map(\.entity.name), in: session)
        ForeignFileStore.mapJoinTables(found.map(\.entity.name), schema: schema, in: session)
        let joined = Set(
            found.map(\.entity.name).filter { name in
                session.managedObjectModel.entitiesByName[name].map { session.mapped($0).pairLink != nil } == true
            })
        schema.addSeveralColumnKeys(of: found.map(\.entity.name), joined: joined, in: session)
        for view in schema.views where session.managedObjectModel.entitiesByName[view.name] == nil {
            if let (entity, storage) = try viewEntity(view, taken: taken) { session.remember(entity, storage: storage) }
        }
    }

    /// The rows of `PRAGMA main.<pragma>(relation)`, or nil with an opening note when
    /// SQLite cannot read the relation: it is left out as sqlite3 says it, and the rest of
    /// the file opens.
    private func columnRows(of relation: String, pragma: String, isView: Bool = false, _ db: Database) -> [Row]? {
        do {
            return try Row.fetchAll(db, sql: "PRAGMA main.\(pragma)(\(quoteIdentifier(relation)))")
        } catch {
            let note = "\(relation) is left out: \(Self.reason(error)) (sqlite3 cannot read it either)"
            if isView { session.leaveOutView(relation, because: note) } else { session.leaveOut(relation, because: note) }
            return nil
        }
    }

    /// The file's `tables` and `views` as `PRAGMA table_info` and `foreign_key_list`
    /// describe them: a foreign key's columns in order (`seq`), whether it is DEFERRABLE
    /// INITIALLY DEFERRED (read off the table's SQL, `ForeignKeyOrder`), its place as
    /// declared (tables in `sqlite_master` order, `made`), and the collation
    /// of each column a foreign key names where it is not BINARY. A view that no longer
    /// compiles (a table it reads was dropped), or a table SQLite cannot read (a virtual
    /// table of a module or tokenizer it lacks), is left out with a note saying why.
    func catalog(of tables: [String], views: [String] = []) throws -> ForeignSchema {
        var schema = ForeignSchema()
        // A file of Quarry's own entities has none to read: its open asks nothing here.
        if tables.isEmpty && views.isEmpty { return schema }
        try session.connection.read { db in
            let text = try schemaText(db)
            for view in views {
                // A view whose table was dropped, or that calls a function SQLite lacks.
                guard let info = columnRows(of: view, pragma: "table_info", isView: true, db) else { continue }
                guard !info.isEmpty else { continue }
                let columns = info.compactMap { row in
                    (row[TableInfo.name] as String?).map {
                        ForeignSchema.Column(name: $0, declaredType: row[TableInfo.type] ?? "", notNull: false, hasDefault: false)
                    }
                }
                guard columns.count == info.count else { continue }
                schema.relations[view] = ForeignSchema.Relation(name: view, isView: true, columns: columns, primaryKey: [], foreignKeys: [])
            }
            for table in tables {
                let q = quoteIdentifier(table)
                // `table_xinfo` lists generated columns too (hidden 2, VIRTUAL, and 3,
                // STORED), which `table_info` leaves out; SQLite fills them, as a default.
                // Nil for a virtual table whose module or tokenizer is another program's
                // (an iOS AddressBook's FTS table).
                guard let listed = columnRows(of: table, pragma: "table_xinfo", db) else { continue }
                let info = listed.filter { [0, 2, 3].contains($0[TableInfo.hidden] as Int? ?? 0) }
                let columns = info.map { row in
                    let generated = (row[TableInfo.hidden] as Int? ?? 0) != 0
                    let defaultValue: DatabaseValue = row[TableInfo.defaultValue]
                    return ForeignSchema.Column(
                        name: row[TableInfo.name] ?? "", declaredType: row[TableInfo.type] ?? "",
                        notNull: (row[TableInfo.notNull] as Int? ?? 0) == 1, hasDefault: generated || !defaultValue.isNull,
                        defaultText: String.fromDatabaseValue(defaultValue), generated: generated)
                }
                let keyRows = info.filter { ($0[TableInfo.primaryKey] as Int? ?? 0) > 0 }
                let primaryKey = keyRows.sorted { ($0[TableInfo.primaryKey] as Int? ?? 0) < ($1[TableInfo.primaryKey] as Int? ?? 0) }
                    .compactMap { $0[TableInfo.name] as String? }
                let rows = (try? Row.fetchAll(db, sql: "PRAGMA main.foreign_key_list(\(q))")) ?? []
                let byID = Dictionary(grouping: rows, by: { ($0[ForeignKeyList.id] as Int?) ?? 0 })
                // Only a table with keys, whose SQL says DEFERRED somewhere, has a clause to read.
                let sql = text.table(named: table) ?? ""
                let deferred = !byID.isEmpty && CaselessASCII(sql).contains("DEFERRED") ? ForeignKeyOrder.deferredClauses(of: sql) : []
                // Ids count down from the last declared key.
                let keys = byID.keys.sorted(by: >).enumerated().compactMap { index, id -> ForeignSchema.ForeignKey? in
                    guard let key = byID[id]?.sorted(by: { ($0[ForeignKeyList.seq] as Int? ?? 0) < ($1[ForeignKeyList.seq] as Int? ?? 0) }),
                        let parent: String = key.first?[ForeignKeyList.table]
                    else { return nil }
                    let from = key.compactMap { $0[ForeignKeyList.from] as String? }
                    let to = key.compactMap { $0[ForeignKeyList.to] as String? }
                    guard from.count == key.count else { return nil }
                    return ForeignSchema.ForeignKey(
                        columns: from, parent: parent, parentColumns: to.count == key.count ? to : [],
                        onDelete: ((key[0][ForeignKeyList.onDelete] as String?) ?? "NO ACTION").uppercased(),
                        deferred: deferred.count == byID.count && deferred[index])
                }
                schema.relations[table] = ForeignSchema.Relation(
                    name: table, isView: false, columns: columns, primaryKey: primaryKey, foreignKeys: keys)
            }
            // SQLite finds a key's parent and its columns by name in any case (`REFERENCES
            // artist (artistid)` names `Artist.ArtistId`): each is read as the name it has.
            let named = Dictionary(
                try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE type IN ('table', 'view')").map { ($0.lowercased(), $0) },
                uniquingKeysWith: { first, _ in first })
            for (table, relation) in schema.relations {
                var relation = relation
                for i in relation.foreignKeys.indices {
                    let key = relation.foreignKeys[i]
                    let parent = schema.relations[key.parent] == nil ? named[key.parent.lowercased()] ?? key.parent : key.parent
                    let columns = schema.relations[parent]?.columns.map(\.name) ?? []
                    let parentColumns = key.parentColumns.map { c in
                        columns.contains(c) ? c : columns.first { $0.lowercased() == c.lowercased() } ?? c
                    }
                    guard parent != key.parent || parentColumns != key.parentColumns else { continue }
                    // Before the keys are counted (`made`, below).
                    relation.foreignKeys[i] = ForeignSchema.ForeignKey(
                        columns: key.columns, parent: parent, parentColumns: parentColumns,
                        onDelete: key.onDelete, deferred: key.deferred)
                }
                schema.relations[table] = relation
            }
            // Keys counted as SQLite reads the schema: tables in the order they were made,
            // each one's keys as declared.
            var made = 0
            for table in try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'table' ORDER BY rowid") {
                guard var relation = schema.relations[table], !relation.isView else { continue }
                for i in relation.foreignKeys.indices {
                    relation.foreignKeys[i].made = made
                    made += 1
                }
                schema.relations[table] = relation
            }
            // In the same read (each is a transaction of its own): what each parent holds
            // unique, its unique indexes' columns (a primary key's autoindex among them);
            // and what a table of two keys or more does, whose position a unique key may
            // hold with one of them (`ForeignSchema+JoinTables`).
            let joining = schema.relations.values.filter { $0.foreignKeys.count >= 2 }.map(\.name)
            for parent in Set(schema.relations.values.flatMap { $0.foreignKeys.map(\.parent) } + joining) {
                guard var relation = schema.relations[parent], !relation.isView else { continue }
                var unique: [[String]] = []
                for index in (try? Row.fetchAll(db, sql: "PRAGMA main.index_list(\(quoteIdentifier(parent)))")) ?? []
                where (index[IndexList.unique] as Int? ?? 0) == 1 {
                    guard let name: String = index[IndexList.name] else { continue }
                    let columns = ((try? Row.fetchAll(db, sql: "PRAGMA main.index_info(\(quoteIdentifier(name)))")) ?? []).compactMap {
                        $0[IndexInfo.name] as String?
                    }
                    if !columns.isEmpty { unique.append(columns) }
                }
                relation.uniqueKeys = unique
                schema.relations[parent] = relation
            }
            // The collations of the columns foreign keys name.
            for relation in Array(schema.relations.values) {
                for key in relation.foreignKeys {
                    guard var parent = schema.relations[key.parent], let named = schema.referencedColumns(of: key) else { continue }
                    for i in parent.columns.indices where named.contains(parent.columns[i].name) && parent.columns[i].collation == nil {
                        guard let collation = Self.collation(of: parent.columns[i].name, in: parent.name, db) else { continue }
                        // A parent's BINARY is said too where a child's column naming it
                        // declares another collation (a NOCASE column naming a BINARY key):
                        // SQLite matches with the parent's, and a child's column compared
                        // unqualified would not.
                        let differs = zip(key.columns, named).contains { child, parentColumn in
                            parentColumn == parent.columns[i].name
                                && (Self.collation(of: child, in: relation.name, db)?.uppercased() ?? "BINARY") != collation.uppercased()
                        }
                        guard collation.uppercased() != "BINARY" || differs else { continue }
                        parent.columns[i].collation = collation
                    }
                    schema.relations[key.parent] = parent
                }
            }
            // Every other column's collation, in the tables whose SQL says COLLATE: SQL
            // compares with it, and so must predicates in memory (`columnCollations`).
            for table in try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'table' AND sql LIKE '%COLLATE%'") {
                guard var relation = schema.relations[table], !relation.isView else { continue }
                for i in relation.columns.indices where relation.columns[i].collation == nil {
                    guard let collation = Self.collation(of: relation.columns[i].name, in: table, db), collation.uppercased() != "BINARY" else {
                        continue
                    }
                    relation.columns[i].collation = collation
                }
                schema.relations[table] = relation
            }
        }
        return schema
    }

    /// A view becomes a read-only entity. Its rows are identified by an integer column
    /// named `id`, `rowid` or `_pk` (else its first column, when an integer) if the view's
    /// definition shows that column as a table's rowid. Otherwise every row is an object
    /// of its own, numbered by its place. Either way the entity reads a TEMP view
    /// (`quarry_rows <view>`, so nothing is written to the file, and SQL that names the
    /// view still reads the file's) whose first column is the row's key: the id, or the
    /// place. The TEMP view is made when SQL first reads it (`DeferredViews`), and a view
    /// never used costs nothing at open.
    func viewEntity(_ relation: ForeignSchema.Relation, taken: Set<String>) throws -> (EntityDescription, EntityStorage)? {
        var columns = relation.columns
        // As for tables: a row has the key besides, within SQLite's 2,000 columns.
        let room = columnLimit - 1
        if columns.count > room {
            session.openingNotes.append(tooWideNote(relation.name, columns: columns.count, kept: room))
            columns = Array(columns.prefix(room))
        }
        return ForeignSchema.viewEntity(relation, columns: columns, taken: taken, engine: self, in: session)
    }

    /// The types of a view's `columns` that declare none (computed ones: `sum(...) AS
    /// Subtotal`), read off the values of its first rows as SQLite stores them: integers
    /// only are int64, numbers with a real among them double, blobs only binary; text, a
    /// mix with text, or no value at all, string.
    package func computedColumnTypes(_ view: String, _ columns: [String]) -> [AttributeType] {
        guard !columns.isEmpty else { return [] }
        let list = columns.map { "typeof(\(quoteIdentifier($0)))" }.joined(separator: ", ")
        let sql = "SELECT \(list) FROM main.\(quoteIdentifier(view)) LIMIT \(Self.viewTypeSample)"
        var seen = Array(repeating: Set<String>(), count: columns.count)
        _ = try? session.connection.read { db in
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

    /// The statement whose compiling says whether `relation` has a rowid: under the name
    /// `rowid` for a table keyed by an integer column (without one, the column is no
    /// alias of it); else under the first of SQLite's three names no column takes (a
    /// column named rowid hides it under that name). Nil when the columns take all three.
    private func rowidProbe(_ relation: ForeignSchema.Relation, keysNoAlias: Set<String>) -> (name: String, sql: String)? {
        let names = Set(relation.columns.map { $0.name.lowercased() })
        let name =
            if case .integerKey = sqliteRowKey(of: relation, keysNoAlias: keysNoAlias) { "rowid" } else {
                ["rowid", "_rowid_", "oid"].first(where: { !names.contains($0) })
            }
        return name.map { ($0, "SELECT \($0) FROM \(quoteIdentifier(relation.name)) LIMIT 0") }
    }

    /// `probes`: whether each `rowidProbe` compiled, asked of every table at once;
    /// `keysNoAlias`: the tables whose INTEGER key is no rowid alias (`+RowidAlias`);
    /// `linked`: whether a relationship's read brings the table's rows.
    private func foreignEntity(
        _ relation: ForeignSchema.Relation, taken: Set<String>, probes: [String: Bool], keysNoAlias: Set<String>, linked: Bool
    ) throws -> (
        entity: EntityDescription, storage: EntityStorage
    )? {
        let table = relation.name
        var columns = relation.columns
        let rowKey = sqliteRowKey(of: relation, keysNoAlias: keysNoAlias)
        let probe = rowidProbe(relation, keysNoAlias: keysNoAlias)
        let compiles = probe.map { probes[$0.sql] ?? false } ?? false
        // Nil: the rows are known by a number made from their key (`+KeyedTables`).
        var rowid: String?
        var keyMayHoldOthers = false
        if case .integerKey(let keyColumn) = rowKey {
            rowid = keyColumn
            // Without a rowid the column is no alias of one, and takes text as well.
            keyMayHoldOthers = !compiles
            if keyMayHoldOthers { noteRowsKeyedByOthers(table, key: keyColumn) }
        } else if compiles {
            rowid = probe?.name
        } else {
            // A WITHOUT ROWID table has none (nor has a table whose columns take all three
            // names): keyed, it is known by its key's number; unkeyed, it is no entity.
            guard case .numbered = rowKey else {
                let names = Set(relation.columns.map { $0.name.lowercased() })
                let why =
                    ["rowid", "oid", "_rowid_"].allSatisfy(names.contains)
                    ? "its columns take all three of SQLite's names for the rowid (rowid, oid, _rowid_) and it declares no primary key"
                    : "it has no rowid and declares no primary key"
                session.leaveOut(table, because: "\(table) is left out: \(why), so its rows have nothing to be known by; sql() reads it")
                return nil
            }
        }
        // SQLite returns at most SQLITE_LIMIT_COLUMN columns (2,000) per row; an object's
        // row has the key and each foreign key's column once more, and when a link is
        // followed, the other end's column that names it (its owner's, a to-one's value):
        // a wider table is read without its last columns.
        let room = columnLimit - 1 - relation.foreignKeys.reduce(0) { $0 + $1.columns.count } - (linked ? 1 : 0)
        if columns.count > room {
            session.openingNotes.append(tooWideNote(table, columns: columns.count, kept: room, linked: linked))
            columns = Array(columns.prefix(room))
        }
        guard let primaryKey = rowid else { return try keyedTableEntity(relation, columns: columns, taken: taken) }
        // A primary key's columns, other than a rowid alias: nothing fills them, so a new
        // row must be given them (`keysToGive`). They stay as optional as declared: SQLite
        // takes NULL in them, for old files' sake, and a SET NULL rule writes it.
        let identity = ForeignSchema.RowIdentity(
            storage: EntityStorage(
                layout: .foreignTable, relation: table, keyColumn: primaryKey, keyMayHoldOthers: keyMayHoldOthers, dialect: SQLiteDialect()),
            keys: [primaryKey], toGive: relation.primaryKey.filter { $0 != primaryKey })
        return ForeignSchema.tableEntity(relation, columns: columns, knownBy: identity, engine: self)
    }

    /// The note for a table or view wider than an object's row can be.
    func tooWideNote(_ name: String, columns: Int, kept: Int, linked: Bool = false) -> String {
        let left = columns - kept
        let holds = linked ? "its key and links" : "its key"
        return "\(name) has \(columns) columns, more than one row can hold with \(holds) (SQLite returns at most \(columnLimit)): "
            + (left == 1 ? "the last is left out" : "the last \(left) are left out")
    }

    /// SQLite's affinity rules, read as Quarry's types.
    package static func attributeType(declared: String) -> AttributeType {
        let has = words(of: declared)
        if has("INT") { return .int64 }
        if has("BOOL") { return .bool }
        // `TIME` alone (SQLAlchemy's Time, SQL's time of day: '14:26:00.000000') holds a
        // time with no day: text, compared and sorted as it is, as SQLite keeps it.
        if has("TIME"), !has("DATE"), !has("STAMP") { return .string }
        if has("DATE") || has("TIME") { return .date }
        if has("CHAR") || has("CLOB") || has("TEXT") { return .string }
        if has("BLOB") { return .binary }
        // `NUM` for NUMERIC and NUMBER; MySQL's `ENUM` holds labels, read as any type
        // Quarry does not know (`hasNumericAffinityText`).
        if has("REAL") || has("FLOA") || has("DOUB") || (has("NUM") && !has("ENUM")) || has("DEC") { return .double }
        return .string
    }

    /// A string attribute whose column SQLite gives NUMERIC affinity: a type name Quarry
    /// does not know (`YEAR`, `ENUM`, `MONEY`), which keeps `'2006'` as the integer 2006
    /// and compares a text argument as the number it spells. Such a column is read as
    /// stored and compared as SQLite compares it (`EntityStorage.untyped` and `takesText`).
    static func hasNumericAffinityText(declared: String) -> Bool {
        guard !declared.trimmingSpaces.isEmpty, attributeType(declared: declared) == .string else { return false }
        let has = words(of: declared)
        return !(has("CHAR") || has("CLOB") || has("TEXT") || has("BLOB"))
    }

    /// Whether a declared type holds a word (upper-case ASCII): by bytes for an ASCII
    /// type (`CaselessASCII`), as nearly every one is; a type with other letters keeps
    /// Unicode's upper-casing, as Quarry has always read it (`ınt`, with a dotless ı,
    /// reads as INT).
    static func words(of declared: String) -> (StaticString) -> Bool {
        if declared.utf8.allSatisfy({ $0 < 0x80 }) { return CaselessASCII(declared).contains }
        let upper = declared.uppercased()
        return { upper.contains($0.description) }
    }

    /// The collation a column of a table of the file declares (`BINARY` when none), as
    /// SQLite reports it.
    private static func collation(of column: String, in table: String, _ db: Database) -> String? {
        guard let name = declaredCollation(of: column, in: table, db) else { return nil }
        // Spliced into SQL as a name: only a plain identifier is.
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } ? name : nil
    }

    /// The collation SQLite reports for a column of a table of the file, as written there.
    static func declaredCollation(of column: String, in table: String, _ db: Database) -> String? {
        var collation: UnsafePointer<CChar>?
        let code = sqlite3_table_column_metadata(db.sqliteConnection, "main", table, column, nil, &collation, nil, nil, nil)
        guard code == SQLITE_OK, let collation else { return nil }
        return String(cString: collation)
    }
}

import QuarryModel
import QuarryStore

/// A table of another program's schema keyed other than by one integer column (a
/// `text`, `varchar`, `char(n)` or `uuid` key, or a key of several columns) is an entity
/// too, as the same table in a SQLite file is through its rowid. Quarry knows each object
/// by an integer, so the row's number is made from its key: a 63-bit hash of the key's
/// text (`hashtextextended`), the same in every session and after a reconnect, unchanged
/// by writes to the row's other columns. A temporary view of the same name, made for
/// this session (and again with a new connection), adds the number as a column and
/// shadows the schema's table for the session's unqualified names, so nothing is written
/// to the schema. The view is one the server updates itself (one table, no aggregate):
/// saves, `updateall` and `deleteall` write through it to the table's rows, a new row
/// takes the table's defaults, and `RETURNING` gives the new row's number. Fetches,
/// predicates, sorts and counts run on the server as on any table; a row is found by its
/// number through the session's table of numbers and keys (`rowsByKey`).
///
/// Two keys whose numbers are alike (a chance of about n²/2⁶⁴ for n rows) cannot both be
/// objects: such a table is checked at open and left out with a note. A row's key is what
/// it is known by, so changing the key of a saved object is refused (`refuseUnfaithfulWrite`).
extension PostgresStore {
    /// The table's rows' number, in SQL, from its key `columns` (unquoted), optionally
    /// qualified: the text of the key alone, or of the row of its columns, hashed, without
    /// its sign bit (a positive number, as a rowid is).
    static func rowNumber(of columns: [String], qualifier: String? = nil) -> String {
        let prefix = qualifier.map { $0 + "." } ?? ""
        let quoted = columns.map { prefix + quoteIdentifier($0) }
        let text = quoted.count == 1 ? "(\(quoted[0]))::text" : "(ROW(\(quoted.joined(separator: ", "))))::text"
        return "(hashtextextended(\(text) COLLATE \"C\", 0) & 9223372036854775807)"
    }

    /// The entity of `relation`, a table keyed by its primary key (one non-integer column
    /// or several), read through a temporary view that adds each row's number; nil, with
    /// the reason, when it cannot be one. `taken`: the schema's relations, which the
    /// session's table of numbers must not shadow for SQL a person writes.
    func mapKeyedTable(_ relation: ForeignSchema.Relation, taken: Set<String> = [], session: StoreSession) throws -> String? {
        let (table, keys) = (relation.name, relation.primaryKey)
        let names = relation.columns.map(\.name)
        let lowered = Set(names.map { $0.lowercased() })
        guard let place = ["_row", "_row_", "_key_row"].first(where: { !lowered.contains($0) }) else {
            return "its columns take every name Quarry would give its rows' numbers"
        }
        let real = qualified(table)
        let number = Self.rowNumber(of: keys)
        // Every row's number is its own; checked once, as a view's key is (`mapViews`).
        let clashes = try session.connection.scalar("SELECT count(*) - count(DISTINCT \(number)) FROM \(real)")
        guard clashes?.storedInteger == 0 else {
            return "two of its keys give the same number, which Quarry's objects are known by"
        }
        let kept = names.map(quoteIdentifier).joined(separator: ", ")
        // Numbers and their keys, filled as rows are read by number (`rowsByKey`).
        let numbers = "pg_temp." + quoteIdentifier(Self.identifier(ForeignSchema.unshadowed("quarry_rows " + table) { taken.contains($0) }))
        // In pg_temp, which is searched before the schema for the unqualified name.
        try server(session).executeForSession(inTransaction: [
            "CREATE OR REPLACE TEMP VIEW \(quoteIdentifier(table)) AS SELECT \(number) AS \(quoteIdentifier(place)), \(kept) FROM \(real)",
            "DROP TABLE IF EXISTS \(numbers)",
            "CREATE TEMP TABLE \(numbers) AS SELECT \(number) AS \(quoteIdentifier(place)), \(keys.map(quoteIdentifier).joined(separator: ", ")) FROM \(real) WITH NO DATA",
            "ALTER TABLE \(numbers) ADD PRIMARY KEY (\(quoteIdentifier(place)))"
        ])
        var storage = EntityStorage(layout: .foreignTable, relation: table, keyColumn: place, dialect: PostgreSQLDialect())
        // No schema: the session's view is the relation read and written.
        storage.schema = nil
        storage.numberedRows = EntityStorage.NumberedRows(table: real, number: number, keys: keys, numbers: numbers)
        session.remember(Self.tableEntity(relation, keys: keys, storage: &storage), storage: storage)
        keyedTables[table] = keys
        return nil
    }

    /// The entity of a table of the schema keyed by `keys`, made as for any engine
    /// (`ForeignSchema+Entities`: every key column optional, as the server or the store
    /// gives it) typed by the server's types; `storage` learns which columns are cast,
    /// generated, days, and which keys a new row must be given (no default, serial or
    /// identity).
    package static func tableEntity(_ relation: ForeignSchema.Relation, keys: [String], storage: inout EntityStorage) -> EntityDescription {
        // A table's entity asks nothing of the schema's name, which only a view's SQL names.
        let made = ForeignSchema.tableEntity(
            relation, knownBy: ForeignSchema.RowIdentity(storage: storage, keys: keys, toGive: keys),
            engine: PostgresForeignSchema(schema: storage.schema ?? ""))
        storage = made.storage
        return made.entity
    }

    /// What a column's server type asks of its storage: a type read as a string that
    /// does not compare as text is cast to text (an enum's is cast back to its type where
    /// it is ordered: `SQLDialect.ordered`); a `date` is a column of days; `money` is
    /// read and compared as `numeric`, an `interval` as its seconds (a double written
    /// back as its text, which the server reads as seconds).
    package static func noteType(of column: ForeignSchema.Column, in storage: inout EntityStorage) {
        if attributeType(column.declaredType) == .string, !plainText.contains(column.declaredType) { storage.textCasts.insert(column.name) }
        if column.declaredType == "date" { storage.dayColumns.insert(column.name) }
        if let length = column.padding { storage.paddedLengths[column.name] = length }
        if column.declaredType == "money" { storage.numericCasts.insert(column.name) }
        if column.declaredType == "interval" { storage.intervalColumns.insert(column.name) }
        // Another program may store NaN, which Quarry reads as nil, and so SQL must.
        if ["float4", "float8", "numeric"].contains(column.declaredType) { storage.nanColumns.insert(column.name) }
    }

    /// The table a storage's rows are written to by what cannot write through a view
    /// (COPY, triggers): the schema's table for a keyed table's session view.
    func writtenTable(_ storage: EntityStorage) -> String {
        keyedTables[storage.relation] != nil && storage.schema == nil ? qualified(storage.relation) : storage.table
    }

    /// The row of `object` found by its key as well as its number, so a save's update or
    /// delete goes through the key's index rather than reading every row's number; empty
    /// when the table is no keyed table or the object's key is not known yet (a new row
    /// whose key the server's default fills).
    func keyCondition(of object: ManagedObject, _ storage: EntityStorage) -> (sql: String, values: [Value]) {
        // Saved keys do not change (`refuseUnfaithfulWrite`): the value in use is the row's.
        guard storage.schema == nil, let keys = storage.numberedRows?.keys, let values = storage.savedKey(of: object) else { return ("", []) }
        return (keys.map { " AND \(quoteIdentifier($0)) = ?" }.joined(), values)
    }
}

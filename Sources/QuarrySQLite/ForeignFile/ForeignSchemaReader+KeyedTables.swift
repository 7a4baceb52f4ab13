import GRDB
import QuarryEngine
import QuarryModel
import QuarryStore

/// A table without a rowid (`WITHOUT ROWID`) keyed by text or by several columns is an
/// entity too, as the same table of a PostgreSQL schema is (`PostgresStore+KeyedTables`):
/// Quarry knows each object by an integer, so the row's number is made from its key
/// (`KeyNumber`), the same in every session and unchanged by writes to its other columns.
/// A TEMP view (`quarry_rows <table>`, so nothing is written to the file, and SQL that
/// names the table still reads the file's) adds the number as its first column; it is
/// made when SQL first reads it (`DeferredViews`). Fetches, predicates, sorts and counts
/// run in SQL through it as on any table; writes go to the file's table
/// (`EntityStorage+WrittenRows`), a new row's number coming back with it (`RETURNING`).
///
/// Two keys whose numbers are alike (a chance of about n²/2⁶⁴ for n rows) cannot both be
/// objects: the statement that meets both fails, naming them (`KeyNumbers`); the open
/// reads no row of the table. A row's key is what it is known by, so changing the key of a saved object is
/// refused (`StoreMapping.refuseKeyChanges`), as on PostgreSQL.
extension ForeignSchemaReader {
    /// The entity of `relation`, keyed by its primary key, of its `columns`; nil, with a
    /// note saying why, when it cannot be one. `taken`: the file's own `quarry_rows x`
    /// names, folded, which the TEMP view must not shadow.
    func keyedTableEntity(_ relation: ForeignSchema.Relation, columns: [ForeignSchema.Column], taken: Set<String>) throws -> (
        entity: EntityDescription, storage: EntityStorage
    )? {
        let (table, keys) = (relation.name, relation.primaryKey)
        let lowered = Set(relation.columns.map { $0.name.lowercased() })
        guard let place = ["_row", "_row_", "_key_row"].first(where: { !lowered.contains($0) }) else {
            session.leaveOut(table, because: "\(table) is left out: its columns take every name Quarry would give its rows' numbers")
            return nil
        }
        let real = "main." + quoteIdentifier(table)
        // No row is read here: a clash of two keys' numbers is found when both are met
        // (`KeyNumbers`), not by reading every key at each open.
        let number = KeyNumber.sql(of: keys, in: table)
        // Made with the table's own name, which its columns' formats and dates are read
        // from; then read through the view. Its key columns are ordinary ones, each with
        // its default, and a new row is given those that have none (`keysToGive`).
        let identity = ForeignSchema.RowIdentity(
            storage: EntityStorage(layout: .foreignTable, relation: table, keyColumn: place, dialect: SQLiteDialect()), keys: [], toGive: keys)
        var (entity, storage) = ForeignSchema.tableEntity(relation, columns: columns, knownBy: identity, engine: self)
        let view = ForeignSchema.unshadowed("quarry_rows " + table) { taken.contains(DeferredViews.folded($0)) }
        let kept = columns.map { quoteIdentifier($0.name) }.joined(separator: ", ")
        session.connection.deferView(
            view, ["CREATE TEMP VIEW IF NOT EXISTS \(quoteIdentifier(view)) AS SELECT \(number) AS \(quoteIdentifier(place)), \(kept) FROM \(real)"])
        storage.relation = view
        storage.numberedRows = EntityStorage.NumberedRows(table: real, number: number, keys: keys, numbers: quoteIdentifier(view), owner: table)
        return (entity, storage)
    }
}

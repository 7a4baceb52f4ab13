import GRDB
import QuarryStore

/// Rows a Core Data table holds that cannot be objects: a Z_PK that is not an integer,
/// which Core Data never writes but a table made or filled by hand (a CSV import into a
/// column with no type) may hold. They are left out of every fetch and count, so that
/// they agree; without a word, a store whose every row is such would read as empty.
extension CoreDataStore {
    /// A note naming how many of `table`'s rows are left out and why, or nil if none is.
    /// Counted only where Z_PK is not the rowid (never in a table Core Data made, which
    /// declares it `INTEGER PRIMARY KEY`), so opening a real store reads no table for it.
    static func unkeyedRowsNote(_ db: Database, table: String, entity: String) throws -> String? {
        let key = quoteIdentifier("Z_PK")
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT count(*), sum(typeof(\(key)) <> 'integer'), "
                    + "(SELECT typeof(\(key)) FROM main.\(quoteIdentifier(table)) WHERE typeof(\(key)) <> 'integer' LIMIT 1) "
                    + "FROM main.\(quoteIdentifier(table))"),
            let total = row[0] as Int64?, let left = row[1] as Int64?, left > 0
        else { return nil }
        let kind = (row[2] as String?) ?? "not an integer"
        return "\(table): \(left) of its \(total) rows are not read as \(entity): "
            + "their Z_PK is \(kind), not an integer as Core Data writes it (sql() reads them)"
    }
}

import QuarryEngine
import QuarryStore

/// Rows read by their numbers. A keyed table's number is a hash of its key
/// (`PostgresStore+KeyedTables`), which no index of the table holds: `number IN (...)`
/// computes it for every row, so a loop reading a table 500 rows at a time read the
/// whole table each time (200,000 rows of a text-keyed table took 13 s, against 0.2 s
/// for an integer key). The session's table of numbers (`NumberedRows`)
/// turns numbers into keys, which the table's primary key index finds. It fills itself,
/// in the same statement, from what it lacks:
/// - the numbers asked that it holds give their keys (`known`);
/// - when some are missing, the table is read once (`filled`): the first few times for
///   the rows asked only, as a read by number did before; after 8 such reads, for every
///   row, so later reads find all but rows added since. A missing row that is gone costs
///   a read each time it is asked for, as before.
/// Reads are counted by rows of negative numbers, which no row has. The numbers' table
/// is the session's own (`pg_temp`), writable in a read-only transaction; rolled back
/// with a transaction, it fills again later.
extension PostgreSQLDialect {
    /// The reads of a table for missing rows after which every row is numbered.
    static let readsBeforeNumberingAll = 8

    public func rowsByKey(_ columns: String, of rows: KeyedRows, count: Int) -> String {
        guard let numbered = rows.numbered else { return rows.byKeyIndex(columns, count: count) }
        let number = rows.key
        let keys = numbered.keys.map(quoteIdentifier).joined(separator: ", ")
        let asked = "(?::bigint)" + String(repeating: ", (?)", count: max(0, count - 1))
        return "WITH asked (n) AS (VALUES \(asked)), "
            + "known AS (SELECT \(number), \(keys) FROM \(numbered.numbers) WHERE \(number) IN (SELECT n FROM asked)), "
            + "reads AS (SELECT count(*) AS n FROM \(numbered.numbers) WHERE \(number) < 0), "
            + "missing AS (SELECT (SELECT count(DISTINCT n) FROM asked) > (SELECT count(*) FROM known) AS yes), "
            + "counted AS (INSERT INTO \(numbered.numbers) (\(number)) SELECT -1 - n FROM reads WHERE (SELECT yes FROM missing)), "
            + "filled AS (INSERT INTO \(numbered.numbers) (\(number), \(keys)) SELECT \(numbered.number), \(keys) FROM \(numbered.table) "
            + "WHERE (SELECT yes FROM missing) AND ((SELECT n FROM reads) >= \(Self.readsBeforeNumberingAll) OR \(numbered.number) IN (SELECT n FROM asked)) "
            + "ON CONFLICT DO NOTHING RETURNING \(number), \(keys)) "
            + "SELECT \(columns) FROM \(rows.table) WHERE (\(keys)) IN "
            + "(SELECT \(keys) FROM known UNION ALL SELECT \(keys) FROM filled WHERE \(number) IN (SELECT n FROM asked))"
    }
}

import QuarryModel
import QuarryStore

/// The keys of the numbers one connection computed (`KeyNumber`), so the rows of given
/// numbers are found by their key, which the table's primary key finds, rather than by
/// computing every row's number: reading a 100,000-row table's objects 200 at a time
/// computed all its numbers for each 200 (76 s for 20,000 objects). A fetch computes the
/// numbers of the rows it reads, so the objects it gives are found by key when read.
/// A number never learned (one from another session, given to `get`) is found by its
/// number, as before. The number of a key never changes, so nothing learned goes stale:
/// a row deleted since is simply not found. Kept to `limit` numbers, then begun again.
final class KeyNumbers {
    private var keys: [Int64: [Value]] = [:]
    static let limit = 200_000

    func remember(_ number: Int64, _ key: [Value]) {
        if keys.count >= Self.limit, keys[number] == nil { keys.removeAll(keepingCapacity: true) }
        keys[number] = key
    }

    func part(_ index: Int64, of number: Int64) -> Value {
        guard let key = keys[number], index >= 0, index < Int64(key.count) else { return .null }
        return key[Int(index)]
    }
}

extension KeyNumber {
    /// `SELECT columns` of the rows of `storage` (a table without a rowid, through its
    /// view) whose numbers are `count` placeholders: by their key where the connection
    /// knows it, else by their number, which reads every row's, only when some number is
    /// not known (the condition on `asked` alone is checked once, before any row).
    static func rowsByNumber(_ columns: String, of storage: EntityStorage, keys: [String], count: Int) -> String {
        guard count > 0 else { return storage.rowsByKeyIndex(columns, count: 0) }
        let asked = "WITH asked (n) AS (VALUES " + Array(repeating: "(?)", count: count).joined(separator: ", ") + ") "
        let parts = keys.indices.map { "\(partName)(n, \($0))" }.joined(separator: ", ")
        let key = keys.count == 1 ? quoteIdentifier(keys[0]) : "(" + keys.map(quoteIdentifier).joined(separator: ", ") + ")"
        // Placeholders past the numbers asked are bound to NULL (`RowBatch`), no number.
        let unknown = "SELECT n FROM asked WHERE n IS NOT NULL AND \(partName)(n, 0) IS NULL"
        return asked + "SELECT \(columns) FROM \(storage.table) WHERE \(key) IN (SELECT \(parts) FROM asked) "
            + "UNION ALL SELECT \(columns) FROM \(storage.table) WHERE EXISTS (\(unknown)) AND \(storage.key) IN (\(unknown))"
    }
}

import QuarryEngine
import QuarryModel
import QuarryStore

/// The keys of the numbers one connection computed (`KeyNumber`), by table, so the rows
/// of given numbers are found by their key, which the table's primary key finds, rather
/// than by computing every row's number: reading a 100,000-row table's objects 200 at a
/// time computed all its numbers for each 200 (76 s for 20,000 objects). A fetch computes
/// the numbers of the rows it reads, so the objects it gives are found by key when read.
/// A number never learned (one from another session, given to `get`) is found by its
/// number, which computes every row's. The number of a key never changes, so nothing
/// learned goes stale: a row deleted since is simply not found. Kept to `limit` numbers,
/// then begun again.
///
/// Two keys of one table with one number (about n²/2⁶⁴ for n rows) would be one object:
/// nothing checks for it at open, which read every key of every such table (1.7 s per
/// 100,000 rows at each open, whatever the run used). A clash is found where it can
/// matter: when the connection meets the second key, which any read of both rows (and a
/// search by number, which computes all) does; the statement then fails, naming both.
final class KeyNumbers {
    private var keys: [String: [Int64: [Value]]] = [:]
    private var count = 0
    static let limit = 200_000
    /// False while a statement a person wrote runs (`sql()`, `export{ sql = }`): it may
    /// call `quarry_key_number` with any key, and a key it made up, kept, clashed with a
    /// real row's later and failed every fetch of the table (issue 81). What such a
    /// statement computes is checked against what is known, never kept.
    var learns = true

    /// Two keys of `table` that give one number.
    struct Clash: Error {
        let table: String
        let number: Int64
        let keys: ([Value], [Value])

        var message: String {
            let value = { (v: Value) -> String in
                if case .text(let text) = v { return "'" + ErrorRendering.part(text, limit: 40) + "'" }
                return ErrorRendering.part(v.displayString, limit: 40)
            }
            let shown = { (key: [Value]) in "(" + key.map(value).joined(separator: ", ") + ")" }
            return "\(table): the keys \(shown(keys.0)) and \(shown(keys.1)) give one number (\(number)), which Quarry knows "
                + "each object of \(table) by, so neither can be told apart; read them with sql()"
        }
    }

    /// Learns `key`'s number; a clash when another key of `table` has it.
    func remember(_ table: String, _ number: Int64, _ key: [Value]) -> Result<Void, Clash> {
        if let known = keys[table]?[number] {
            return known == key ? .success(()) : .failure(Clash(table: table, number: number, keys: (known, key)))
        }
        guard learns else { return .success(()) }
        if count >= Self.limit {
            keys.removeAll(keepingCapacity: true)
            count = 0
        }
        keys[table, default: [:]][number] = key
        count += 1
        return .success(())
    }

    func part(_ index: Int64, of number: Int64, in table: String) -> Value {
        guard let key = keys[table]?[number], index >= 0, index < Int64(key.count) else { return .null }
        return key[Int(index)]
    }
}

extension KeyNumber {
    /// `SELECT columns` of `rows` (a table without a rowid, through its view) whose
    /// numbers are `count` placeholders: by their key where the connection knows it, else
    /// by their number, which reads every row's, only when some number is not known (the
    /// condition on `asked` alone is checked once, before any row).
    static func rowsByNumber(_ columns: String, of rows: KeyedRows, keys: [String], count: Int) -> String {
        guard count > 0, let numbered = rows.numbered else { return rows.byKeyIndex(columns, count: 0) }
        let asked = "WITH asked (n) AS (VALUES " + Array(repeating: "(?)", count: count).joined(separator: ", ") + ") "
        let table = quoteLiteral(numbered.owner)
        let parts = keys.indices.map { "\(partName)(\(table), n, \($0))" }.joined(separator: ", ")
        let key = keys.count == 1 ? quoteIdentifier(keys[0]) : "(" + keys.map(quoteIdentifier).joined(separator: ", ") + ")"
        // Placeholders past the numbers asked are bound to NULL (`RowBatch`), no number.
        let unknown = "SELECT n FROM asked WHERE n IS NOT NULL AND \(partName)(\(table), n, 0) IS NULL"
        return asked + "SELECT \(columns) FROM \(rows.table) WHERE \(key) IN (SELECT \(parts) FROM asked) "
            + "UNION ALL SELECT \(columns) FROM \(rows.table) WHERE EXISTS (\(unknown)) AND \(rows.key) IN (\(unknown))"
    }
}

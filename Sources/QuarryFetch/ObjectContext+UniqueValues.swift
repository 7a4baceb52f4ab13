import GRDB
import QuarryStore

extension ObjectContext {
    /// The tables whose rows are counted for `holdsEachValueOnce` at most; past it the
    /// check would cost more than the join it saves, so the join keeps its guard.
    static let uniqueCheckLimit: Int64 = 100_000

    /// True when no value appears twice in `column` of `entity`'s table, as it stands:
    /// then a join on that column (a `relate`d link matched by value) finds at most one
    /// row and needs no guard against several. One grouped scan, served by the index that
    /// `relate()` makes; only for tables of up to `uniqueCheckLimit` rows. Reads only.
    func holdsEachValueOnce(_ entity: EntityDescription, _ column: String) -> Bool {
        let storage = mapped(entity)
        guard !storage.isView else { return false }
        let table = storage.table, quoted = storage.column(column)
        return (try? read { db -> Bool in
            guard let size = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM \(table)") else { return true }
            guard size <= Self.uniqueCheckLimit else { return false }
            let repeated = try Int.fetchOne(db, sql: "SELECT 1 FROM \(table) WHERE \(quoted) IS NOT NULL GROUP BY \(quoted) HAVING count(*) > 1 LIMIT 1")
            return repeated == nil
        }) ?? false
    }
}

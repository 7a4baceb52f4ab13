import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// Core Data's persistent history (`NSPersistentHistoryTrackingKey`, always on in SwiftData)
/// as a SQLite store holds it, read and checked before Quarry writes any of it. What is
/// known of the format, from public sources (no Apple documentation describes it):
/// - Core Data's history model (`_PFPersistentHistoryModel`, as decompiled in public
///   repositories) has three entities, numbered from an "ancillary" offset of 16000 and,
///   as Core Data numbers entities, in name order: `CHANGE` 16001, `TRANSACTION` 16002,
///   `TRANSACTIONSTRING` 16003. Their rows in `Z_PRIMARYKEY` carry those names and each
///   its `Z_MAX` (dissect.target's tests of a real Notes store; fatbobman, "How Core Data
///   saves data in SQLite"). Their tables take an `A` before the entity name.
/// - `ATRANSACTION`: `ZAUTHORTS`, `ZBUNDLEIDTS`, `ZCONTEXTNAMETS`, `ZPROCESSIDTS` (to-one
///   keys into `ATRANSACTIONSTRING`), `ZTIMESTAMP` (a double: seconds since 2001),
///   `ZAUTHOR`, `ZBUNDLEID`, `ZCONTEXTNAME`, `ZPROCESSID` (text, left NULL: the strings
///   are interned) and `ZQUERYGEN` (a query generation token, a blob).
/// - `ACHANGE`: `ZCHANGETYPE` (0 insert, 1 update, 2 delete, `NSPersistentHistoryChangeType`),
///   `ZENTITY` (the row's `Z_ENT`), `ZENTITYPK` (its `Z_PK`), `ZTRANSACTIONID`, `ZCOLUMNS`
///   (which properties an update wrote, see `PersistentHistoryColumns`) and `ZTOMBSTONE0`
///   ... one column per preserved attribute of the entity that preserves the most
///   (attributes marked "Preserve After Deletion"; none when no entity has any).
/// - `ATRANSACTIONSTRING`: `ZNAME`, unique (the history model's uniqueness constraint).
/// - Every history row has `Z_OPT` NULL (a real Notes store, in dissect.target's tests).
/// The tables must hold exactly these columns: a store whose history tables differ (an
/// older or newer Core Data, or a table of the same name that is not Core Data's) is one
/// whose history Quarry cannot write as Core Data does, and its saves are refused.
public struct PersistentHistoryLayout: Equatable, Sendable {
    public static let changeTable = "ACHANGE"
    public static let transactionTable = "ATRANSACTION"
    public static let stringTable = "ATRANSACTIONSTRING"
    /// Column order as Core Data creates the tables (integers, then doubles, text, blobs).
    public static let changeColumns = ["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"]
    public static let transactionColumns = [
        "Z_PK", "Z_ENT", "Z_OPT", "ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS",
        "ZTIMESTAMP", "ZAUTHOR", "ZBUNDLEID", "ZCONTEXTNAME", "ZPROCESSID", "ZQUERYGEN"
    ]
    public static let stringColumns = ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME"]
    /// The history entities' names in `Z_PRIMARYKEY`, and the offset their numbers start after.
    public static let changeEntityName = "CHANGE", transactionEntityName = "TRANSACTION", stringEntityName = "TRANSACTIONSTRING"
    static let entityOffset: Int64 = 16000

    /// `NSPersistentHistoryChangeType`, as `ACHANGE.ZCHANGETYPE` stores it.
    public enum ChangeType: Int64, Sendable {
        case insert = 0, update = 1, delete = 2
    }

    /// The history entities' numbers, from `Z_PRIMARYKEY`.
    public var changeEntity: Int64
    public var transactionEntity: Int64
    public var stringEntity: Int64
    /// How many `ZTOMBSTONE<n>` columns `ACHANGE` has.
    public var tombstoneColumns: Int

    /// Whether `db` has any of the history tables (then saves must write history or be refused).
    public static func isPresent(_ db: Database) throws -> Bool {
        for table in [changeTable, transactionTable, stringTable] where try db.hasTable(table) { return true }
        return false
    }

    /// The layout of `db`'s history, or what keeps Quarry from writing it (a phrase that
    /// follows "persistent history", naming the table, column or row).
    public static func read(_ db: Database) throws -> Result<PersistentHistoryLayout, Problem> {
        for (table, known) in [(transactionTable, transactionColumns), (changeTable, changeColumns), (stringTable, stringColumns)] {
            guard try db.hasTable(table) else { return .failure(Problem("has no \(table) table")) }
            let columns = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(quoteIdentifier(table)))").compactMap { row in
                String.fromDatabaseValue(row["name"] as DatabaseValue)
            }
            var extra = columns.filter { !known.contains($0) }
            if table == changeTable {
                // ZTOMBSTONE0, ZTOMBSTONE1, ... numbered from 0 without a gap.
                var n = 0
                while extra.contains("ZTOMBSTONE\(n)") {
                    extra.removeAll { $0 == "ZTOMBSTONE\(n)" }
                    n += 1
                }
            }
            if let unknown = extra.first { return .failure(Problem("table \(table) has a column \(unknown) Core Data does not make")) }
            if let missing = known.first(where: { !columns.contains($0) }) {
                return .failure(Problem("table \(table) lacks Core Data's column \(missing)"))
            }
        }
        var numbers: [String: Int64] = [:]
        for name in [changeEntityName, transactionEntityName, stringEntityName] {
            let row = try Row.fetchOne(
                db, sql: "SELECT Z_ENT FROM main.Z_PRIMARYKEY WHERE Z_NAME = ? AND Z_ENT > ? ORDER BY Z_ENT LIMIT 1",
                arguments: [name, entityOffset])
            guard let number = row.flatMap({ Int64.fromDatabaseValue($0[0] as DatabaseValue) }) else {
                return .failure(Problem("has no \(name) row in Z_PRIMARYKEY"))
            }
            numbers[name] = number
        }
        let changeInfo = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(changeTable))")
        let tombstones = changeInfo.filter { (String.fromDatabaseValue($0["name"] as DatabaseValue) ?? "").hasPrefix("ZTOMBSTONE") }.count
        return .success(
            PersistentHistoryLayout(
                changeEntity: numbers[changeEntityName] ?? 0, transactionEntity: numbers[transactionEntityName] ?? 0,
                stringEntity: numbers[stringEntityName] ?? 0, tombstoneColumns: tombstones))
    }

    /// Why a store's history cannot be written as Core Data writes it.
    public struct Problem: Error, Equatable, Sendable {
        public var text: String
        init(_ text: String) { self.text = text }
    }
}

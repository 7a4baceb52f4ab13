import GRDB
import QuarryTestSupport

/// Copies of the real Core Data stores with Core Data's history tables added (none of
/// them was written with history on), for the tests of what a save records there.
enum CoreDataHistoryStores {
    /// A copy of `relative` with history tables (one tombstone column for cars, whose
    /// model preserves Person.id after deletion; none for the others), then `sql` run on it.
    static func copy(_ relative: String, then sql: String? = nil) throws -> String {
        let path = try CoreDataFixtures.copyOfStore(relative)
        let queue = try DatabaseQueue(path: path)
        let tombstones = relative.hasPrefix("cars/") ? 1 : 0
        try queue.write { db in
            try db.execute(sql: CoreDataFixtures.persistentHistorySQL(tombstones: tombstones))
            if let sql { try db.execute(sql: sql) }
        }
        try queue.close()
        return path
    }

    /// The rows `sql` reads from the file at `path`, as values.
    static func rows(_ path: String, _ sql: String) throws -> [[DatabaseValue]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Row.fetchAll(db, sql: sql).map { Array($0.databaseValues) } }
    }
}

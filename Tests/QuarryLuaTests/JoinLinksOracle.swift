import Foundation
import GRDB
import QuarryStore

/// Plain SQL's answer to a delete under Quarry's rule for join tables (issue 60): a
/// many-to-many's links go with either end, whatever the join table's keys say, as Core
/// Data's do. On the copy SQLite checks, each table Quarry reads as a join table (one
/// that gives a pair) has its keys made ON DELETE CASCADE, which is that rule in SQL's
/// terms; every other key keeps its action, and SQLite stays the judge of them.
enum JoinLinksOracle {
    static func linksGoWithEitherEnd(_ copy: String, as context: ObjectContext) throws {
        let joins = context.managedObjectModel.entities.map { context.mapped($0) }.filter { $0.pairLink != nil }.map(\.relation)
        guard !joins.isEmpty else { return }
        let queue = try DatabaseQueue(path: copy)
        defer { try? queue.close() }
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            for table in joins {
                let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table])
                guard let sql else { continue }
                let cascading = sql.replacingOccurrences(
                    of: "ON DELETE (NO ACTION|RESTRICT|SET NULL|SET DEFAULT)", with: "ON DELETE CASCADE", options: .regularExpression)
                try db.execute(sql: "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?", arguments: [cascading, table])
            }
            let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
            try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
    }
}

import CQuarrySQLite
import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// The version of the SQLite library in use.
public var sqliteVersion: String {
    (try? DatabaseQueue(configuration: .hardened()).read { try String.fetchOne($0, sql: "SELECT sqlite_version()") } ?? nil) ?? "unknown"
}

extension Database {
    /// Whether the file's main schema has table `name` (compared as SQLite compares
    /// names: ASCII letters case-blind). One query: GRDB's `tableExists` first reads and
    /// caches the whole schema, which costs every open 0.25 ms.
    package func hasTable(_ name: String) throws -> Bool {
        // SQLite's own look-up, constant in the number of tables; `sqlite_*` names (its
        // own tables, which sqlite_master does not list) and NULs are asked below.
        if !name.utf8.contains(0), !name.lowercased().hasPrefix("sqlite_") {
            switch quarry_sqlite_has_table(sqliteConnection, name) {
            case 1: return true
            case 0: return false
            default: break
            }
        }
        return try withStatement("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE") { statement in
            statement.bind([name.databaseValue])
            return try statement.step()
        }
    }
}

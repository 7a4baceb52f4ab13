import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

extension Database {
    /// Runs `sql` (statements that return no rows) through SQLite directly, without GRDB's
    /// statement authorizer, which GRDB calls back for every column a statement names:
    /// making the views of Photos.app's store (85 views, thousands of columns) took twice
    /// as long through it. GRDB notices schema changes in that authorizer, so its schema
    /// cache is cleared here instead.
    package func executeDirectly(_ statements: [String]) throws {
        defer { clearSchemaCache() }
        for sql in statements {
            var message: UnsafeMutablePointer<CChar>?
            let code = sqlite3_exec(sqliteConnection, sql, nil, nil, &message)
            guard code != SQLITE_OK else { continue }
            let text = message.map { String(cString: $0) }
            sqlite3_free(message)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: text, sql: sql)
        }
    }
}

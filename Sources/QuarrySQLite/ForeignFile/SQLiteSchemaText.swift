import GRDB
import QuarryEngine

/// The SQL of a file's views and tables, read in one statement when a foreign file opens
/// (asked table by table and view by view, each question a statement compiled again, it
/// was a tenth of opening a file of 60 tables). Read as stored: a schema written by hand
/// may hold something other than text, and SQL kept as a blob reads as its bytes' text,
/// as `sqlite3_column_text` gives it.
struct SQLiteSchemaText {
    /// By name.
    private(set) var views: [String: String] = [:]
    /// By name folded as SQLite compares names (`DeferredViews.folded`).
    private(set) var tables: [String: String] = [:]

    init(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT type, name, sql FROM main.sqlite_master WHERE type IN ('view', 'table')") {
            guard case .string(let type) = (row[0] as DatabaseValue).storage, case .string(let name) = (row[1] as DatabaseValue).storage
            else { continue }
            let sql: String
            switch (row[2] as DatabaseValue).storage {
            case .string(let text): sql = text
            case .blob(let bytes): sql = String(decoding: bytes, as: UTF8.self)
            default: continue
            }
            if type == "view" {
                views[name] = views[name] ?? sql
            } else {
                tables[DeferredViews.folded(name)] = tables[DeferredViews.folded(name)] ?? sql
            }
        }
    }

    /// The SQL of the table SQLite finds by `name`.
    func table(named name: String) -> String? { tables[DeferredViews.folded(name)] }
}

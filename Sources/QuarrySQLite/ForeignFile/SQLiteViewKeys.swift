import GRDB
import QuarryStore

/// Whether a file's view shows a table's own key, from the view's definition and the
/// table's declaration alone (`ViewDefinition`): read without running either, so keying
/// a view costs nothing however many rows it has, or if it never ends.
enum SQLiteViewKeys {
    /// Whether the column at `index` (named `name`) of `view` shows the rowid, or its
    /// alias (`INTEGER PRIMARY KEY`), of a rowid table the view reads some rows of, each
    /// once: then it is a distinct integer in every row, as SQLite keeps it.
    /// `schema`: the file's views and tables read once for every view (asked view by
    /// view, two statements compiled for each), else read here.
    static func showsTableKey(_ view: String, column index: Int, named name: String, _ db: Database, schema: SQLiteSchemaText? = nil) -> Bool {
        guard let schema = schema ?? (try? SQLiteSchemaText(db)), let sql = schema.views[view],
            let definition = ViewDefinition(sql), definition.schema.map({ $0.lowercased() == "main" }) ?? true, !definition.only,
            let column = definition.column(at: index, named: name)
        else { return false }
        let table = quoteIdentifier(definition.table)
        // A table of the file's own: not a view (its key is its own question) nor a
        // virtual table (whose module says what its rowids are).
        guard let declared = schema.table(named: definition.table), !declared.uppercased().hasPrefix("CREATE VIRTUAL"),
            let info = try? Row.fetchAll(db, sql: "PRAGMA main.table_info(\(table))")
        else { return false }
        if let own = info.first(where: { ($0["name"] as String?)?.lowercased() == column.lowercased() }) {
            // The rowid's alias: the one key column, declared INTEGER, with no index of its
            // own (a WITHOUT ROWID table's key has one, as has INTEGER PRIMARY KEY DESC).
            let keys = info.filter { ($0["pk"] as Int? ?? 0) > 0 }
            let indexed = (try? Row.fetchAll(db, sql: "PRAGMA main.index_list(\(table))"))?.contains { ($0["origin"] as String?) == "pk" }
            return keys.count == 1 && (own["pk"] as Int? ?? 0) == 1 && CaselessASCII(own["type"] as String? ?? "").equals("INTEGER")
                && indexed == false
        }
        // The rowid under one of its names, which a WITHOUT ROWID table lacks.
        guard let rowid = ["rowid", "oid", "_rowid_"].first(where: { $0 == column.lowercased() }) else { return false }
        return (try? db.makeStatement(sql: "SELECT \(rowid) FROM main.\(table) LIMIT 0")) != nil
    }
}

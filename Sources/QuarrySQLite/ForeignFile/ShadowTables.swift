import Foundation
import GRDB

/// The tables a virtual table keeps its data in (FTS5's `ft_data`, `ft_idx`,
/// `ft_content`, `ft_docsize`, `ft_config`; FTS3/4's `_segments`, `_segdir`, `_content`,
/// `_docsize`, `_stat`; R*Tree's `_node`, `_parent`, `_rowid`) are the engine's own, as
/// `sqlite_sequence` is: no entities, and no notes (an FTS5 table gave two "left out"
/// notes, for its WITHOUT ROWID `_idx` and `_config`). Writing them would corrupt the
/// virtual table, which is read and written itself.
enum ShadowTables {
    /// The shadow tables of the file's main schema. SQLite 3.37 and later say which they
    /// are (`PRAGMA table_list`, type 'shadow', asking each module); before, they are the
    /// names the built-in modules give them, beside each virtual table of theirs.
    /// `hasVirtual`: whether a table's SQL starts `CREATE VIRTUAL TABLE`, which the
    /// caller read with the rest of the catalog.
    static func names(in db: Database, hasVirtual: Bool) -> Set<String> {
        // Only a virtual table has shadow tables (SQLite marks a table as one when the
        // module of the virtual table its name starts with claims it). Without one, the
        // pragma is not asked: it works out every view's columns, which took time in the
        // square of the views (1,000 views: 5.9 s of a debug build's open).
        guard hasVirtual else { return [] }
        if let rows = try? Row.fetchAll(db, sql: "PRAGMA main.table_list") {
            return Set(rows.filter { ($0["type"] as String?) == "shadow" }.compactMap { $0["name"] as String? })
        }
        let virtual =
            (try? Row.fetchAll(db, sql: "SELECT name, sql FROM main.sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")) ?? []
        var names = Set<String>()
        for row in virtual {
            guard let name: String = row["name"], let sql: String = row["sql"], let module = module(of: sql) else { continue }
            names.formUnion((suffixes[module] ?? []).map { name + "_" + $0 })
        }
        return names
    }

    /// The suffixes of each built-in module's shadow tables.
    private static let suffixes: [String: [String]] = [
        "fts5": ["data", "idx", "content", "docsize", "config"],
        "fts4": ["segments", "segdir", "content", "docsize", "stat"],
        "fts3": ["segments", "segdir", "content", "docsize", "stat"],
        "rtree": ["node", "parent", "rowid"],
        "rtree_i32": ["node", "parent", "rowid"],
        "geopoly": ["node", "parent", "rowid"]
    ]

    /// The module a `CREATE VIRTUAL TABLE ... USING module(...)` names, lowercased.
    private static func module(of sql: String) -> String? {
        guard let using = sql.range(of: " USING ", options: .caseInsensitive) else { return nil }
        let word = sql[using.upperBound...].trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return word.isEmpty ? nil : word.lowercased()
    }
}

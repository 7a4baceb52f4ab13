import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// SQLite's constraint refusals as parts (`ConstraintViolation`): read from its extended
/// code and its message where `StoreError(DatabaseError)` is made, and for a foreign key
/// a save leaves broken (which SQLite reports at the commit naming nothing), from
/// `PRAGMA foreign_key_check` before the commit.
extension ConstraintViolation {
    /// SQLite's refusal as parts: the kind from its extended code, the table and columns
    /// from the one message shape SQLite gives for uniqueness and NOT NULL
    /// (`UNIQUE constraint failed: T.a, T.b`, `NOT NULL constraint failed: T.c`); the
    /// name from a CHECK's (`CHECK constraint failed: name`) or an expression index's
    /// (`UNIQUE constraint failed: index 'name'`). Nil for a code that is no constraint
    /// of these kinds (a trigger's RAISE, a view's).
    init?(sqlite code: ResultCode, message: String, sql: String?) {
        let kind: Kind
        switch code {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY: kind = .unique
        case .SQLITE_CONSTRAINT_NOTNULL: kind = .notNull
        case .SQLITE_CONSTRAINT_FOREIGNKEY: kind = .foreignKey
        case .SQLITE_CONSTRAINT_CHECK: kind = .check
        default: return nil
        }
        self.init(kind, table: nil, columns: [], code: .sqlite(SQLiteResultCode(code)), sql: sql, said: message)
        guard let colon = message.range(of: "constraint failed: ") else { return }
        let named = String(message[colon.upperBound...])
        switch kind {
        case .unique, .notNull:
            if named.hasPrefix("index '"), named.hasSuffix("'") {
                constraint = String(named.dropFirst(7).dropLast())
                return
            }
            // `T.a, T.b`: every column of one table. A name holding a dot is taken as the
            // table's up to its first dot, as SQLite writes `table.column`.
            let parts = named.components(separatedBy: ", ").map { part -> (String, String)? in
                guard let dot = part.firstIndex(of: ".") else { return nil }
                return (String(part[..<dot]), String(part[part.index(after: dot)...]))
            }
            guard let first = parts.first ?? nil, parts.allSatisfy({ $0?.0 == first.0 }) else { return }
            table = first.0
            columns = parts.compactMap { $0?.1 }
        case .check:
            constraint = named
        case .foreignKey:
            break
        }
    }

    /// `written`, then the tables whose foreign keys name one of them.
    private static func writtenAndNaming(_ written: [String], in db: Database) throws -> [String] {
        let placeholders = Array(repeating: "?", count: written.count).joined(separator: ", ")
        let naming = try String.fetchAll(
            db,
            sql: "SELECT DISTINCT m.name FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS f "
                + "WHERE m.type = 'table' AND f.\"table\" IN (\(placeholders)) COLLATE NOCASE",
            arguments: StatementArguments(written))
        return written + naming.filter { !written.contains($0) }
    }

    /// How many rows break a foreign key in each of `written` and the tables naming
    /// them, before a write with keys unchecked (`brokenForeignKey(before:)`); a table
    /// whose keys SQLite cannot check ("foreign key mismatch") is left out.
    static func foreignKeyBreaks(in db: Database, written: [String]) throws -> [String: Int] {
        guard !written.isEmpty else { return [:] }
        return foreignKeyBreaks(in: db, tables: try writtenAndNaming(written, in: db))
    }

    private static func foreignKeyBreaks(in db: Database, tables: [String]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in tables {
            if let count = try? Int.fetchOne(db, sql: "SELECT count(*) FROM pragma_foreign_key_check(?)", arguments: [table]) {
                counts[table] = count
            }
        }
        return counts
    }

    /// The first foreign key the open transaction leaves broken, when it leaves one:
    /// SQLite counts them (deferred foreign keys are checked only at the commit, which
    /// would then fail saying "FOREIGN KEY constraint failed" and no more), and
    /// `foreign_key_check` names the referencing table, the key's columns and the broken
    /// row. Asked only when SQLite says one is broken, so a save that breaks none scans
    /// nothing.
    ///
    /// `written`: the tables the save wrote rows of. A file may hold broken keys the save
    /// did not make (trial 31: 2,502 people naming no income row), which a check of the
    /// whole file named first, blaming them; so the written tables are checked first, then
    /// those that name one (a changed key leaves their rows naming nothing), then the rest.
    /// (A table that held broken rows before the save may still have one named first.)
    /// `before`: where keys were unchecked, the counts `foreignKeyBreaks` took before the
    /// write; only tables whose broken rows grew are looked in.
    static func brokenForeignKey(in db: Database, written: [String] = [], before: [String: Int]? = nil) throws -> ConstraintViolation? {
        guard let connection = db.sqliteConnection else { return nil }
        var broken: Int32 = 0
        var highest: Int32 = 0
        var written = written
        if let before {
            // Keys unchecked (`writeUncheckingKeysSQLiteCannotCheck`): SQLite counted
            // nothing, so the tables whose broken rows grew are the ones the save broke.
            let after = foreignKeyBreaks(in: db, tables: Array(before.keys))
            written = before.keys.sorted().filter { (after[$0] ?? 0) > (before[$0] ?? 0) }
            guard !written.isEmpty else { return nil }
        } else {
            guard sqlite3_db_status(connection, SQLITE_DBSTATUS_DEFERRED_FKS, &broken, &highest, 0) == SQLITE_OK, broken > 0 else { return nil }
        }
        let said = "FOREIGN KEY constraint failed"
        var row: Row?
        if !written.isEmpty {
            // The written tables first (a new row naming nothing is the likeliest break),
            // then those that name them (a changed or deleted key).
            // (With `before`, the tables whose broken rows grew are all there is to look in.)
            for table in try before == nil ? writtenAndNaming(written, in: db) : written where row == nil {
                // (A view or a table gone from the schema has no check: passed over.)
                row = (try? Row.fetchOne(db, sql: "SELECT * FROM pragma_foreign_key_check(?)", arguments: [table])) ?? nil
            }
        }
        if row == nil, before == nil { row = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") }
        guard let row, let table: String = row[0] else {
            return ConstraintViolation(.foreignKey, table: nil, columns: [], code: .sqlite(.SQLITE_CONSTRAINT_FOREIGNKEY), sql: nil, said: said)
        }
        let key: Int64? = row[3]
        let columns = try Row.fetchAll(db, sql: "SELECT \"from\" FROM pragma_foreign_key_list(?) WHERE id = ? ORDER BY seq", arguments: [table, key])
            .compactMap { $0[0] as String? }
        var violation = ConstraintViolation(
            .foreignKey, table: table, columns: columns, code: .sqlite(.SQLITE_CONSTRAINT_FOREIGNKEY), sql: nil, said: said)
        // The row's values in the key's columns, by its rowid (none in a WITHOUT ROWID
        // table): what a person looks for, where the rowid means nothing to them.
        if let rowid: Int64 = row[1], let parent: String = row[2], !columns.isEmpty {
            let selected = columns.map(quoteIdentifier).joined(separator: ", ")
            let sql = "SELECT \(selected) FROM main.\(quoteIdentifier(table)) WHERE rowid = ?"
            if let held = try Row.fetchOne(db, sql: sql, arguments: [rowid]) {
                violation.values = (0..<held.count).map { Value(held[$0] as DatabaseValue) }
                violation.referenced = parent
                // SQLite's status says only whether some key is broken, not how many: the
                // table's broken rows are counted (a scan of the one table, on a failed save).
                let all = try Int.fetchOne(db, sql: "SELECT count(*) FROM pragma_foreign_key_check(?)", arguments: [table]) ?? 1
                violation.otherRows = max(all - 1, 0)
            }
        }
        return violation
    }
}

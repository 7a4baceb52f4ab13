import GRDB
import GRDBSQLite
import QuarryStore

extension ForeignFileStore {
    /// Another program's file is read as sqlite3 reads it, and sqlite3 takes a
    /// double-quoted word that names no column as a string (`group_concat(x, "|")`): its
    /// views, triggers and CHECKs may be written so, and with GRDB's default (refused) its
    /// views were missing and a trigger writing `"z"` failed the save. Quarry's own SQL
    /// quotes names with double quotes and literals with single quotes, so what it writes
    /// means the same either way; Quarry's own files and Core Data stores keep the refusal.
    static func acceptDoubleQuotedStrings(_ connection: StoreConnection) throws {
        try connection.read { db in _enableDoubleQuotedStringLiterals(db.sqliteConnection) }
    }
}

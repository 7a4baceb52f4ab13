import GRDB
import QuarryEngine
import QuarryModel
import QuarryStore

/// The file's triggers as a failed write names them.
enum TriggerFunctions {
    /// A write's statements call no function SQLite lacks: one a save, `updateall` or
    /// `deleteall` met was called by the file's triggers (Calibre's `title_sort`, registered by Calibre on its own
    /// connection; sqlite3 fails the same). Said so, with the triggers that name it.
    static func named(_ error: StoreError, session: StoreSession) -> StoreError {
        let prefix = "no such function: "
        guard case .engine(let failure as SQLiteFailure) = error, failure.said.hasPrefix(prefix) else { return error }
        let function = String(failure.said.dropFirst(prefix.count))
        let triggers =
            (try? session.connection.read { db in
                try String.fetchAll(
                    db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'trigger' AND instr(lower(sql), lower(?) || '(') > 0 ORDER BY name",
                    arguments: [function])
            }) ?? []
        let callers =
            triggers.isEmpty
            ? "the file's triggers call it" : "trigger \(triggers.prefix(3).joined(separator: ", ")) \(triggers.count == 1 ? "calls" : "call") it"
        let said =
            failure.said + " (\(callers): a function the application that wrote the file registers on its own connection, "
            + "which SQLite does not know, nor sqlite3; nothing was written)"
        return .engine(SQLiteFailure(code: failure.resultCode, sql: failure.sql, said: said))
    }
}

import QuarryEngine
import QuarryModel
import QuarryStore

/// PostgreSQL as a store's engine (`StoreEngine`): reads go to the server through the
/// session's connection, which owns its `PGconn`; bulk export goes through COPY
/// (`PostgresCopyExport`), and other sessions' commits are heard on its socket.
package final class PostgresEngine: StoreEngine {
    package let server: PostgresConnection
    /// The URL the store was opened with, its password left out.
    package let url: String
    /// The schema's views, made when SQL first reads each (`PostgresStore+Views`).
    package var deferredViews: DeferredViews?

    package init(server: PostgresConnection, url: String) {
        self.server = server
        self.url = url
    }

    package var description: String { "PostgreSQL at \(url)" }

    /// The server's rows: all at once, or a row at a time when `streamed`. No statement is
    /// cached here: the server plans each, and libpq keeps nothing prepared between them.
    package func withRows(_ sql: String, cached: Bool, streamed: Bool, _ body: (any RowCursor) throws -> Void) throws {
        try makeViews(readBy: sql)
        if streamed { try server.withStreamedRows(sql, body) } else { try server.withRows(sql, body) }
    }

    /// Described by the server (its columns and parameters) inside a `READ ONLY`
    /// transaction, which it runs in too and which is rolled back after.
    ///
    /// A statement a person wrote (`sql()`, `export{ sql = }`) runs in the time zone the
    /// server gives the role (the database's, the role's or the URL's `options`), as psql's
    /// do: `date_trunc('day', t)` counts the days the person lives in. The session itself
    /// stays in UTC, which every statement of Quarry's own is written for (its reads of
    /// timestamps, a date's parts, writes to `timestamp` columns); the role's zone is taken
    /// with `SET LOCAL`, which the server undoes when this transaction ends however it ends
    /// (a refusal, Ctrl-C, a lost connection), so no statement of Quarry's can run in it.
    /// Setting the zone around each of Quarry's own statements instead would leave a
    /// statement forgotten (or a reconnection) in the person's zone.
    package func prepareReadOnly<T>(_ sql: String, _ body: ((any PreparedQuery)?) throws -> T) throws -> T {
        try makeViews(readBy: sql)
        return try server.inReadOnlyTransaction {
            // The role's zone, and its JIT setting, which Quarry's own session turns off.
            try server.execute("SELECT set_config(name, reset_val, true) FROM pg_catalog.pg_settings WHERE name IN ('TimeZone', 'jit')")
            guard let description = try server.describe(sql) else { return try body(nil) }
            return try body(PostgresPreparedQuery(connection: server, description: description))
        }
    }

    /// Through COPY when every column's type can be read from it as the rows would read.
    package func exportRows(
        _ sql: String, arguments: [Value], types: [AttributeType], firstColumn: Int,
        writer: inout TableWriter, file: OutputFile
    ) throws -> Int? {
        try makeViews(readBy: sql)
        return try server.copyExport(sql, arguments: arguments, types: types, firstColumn: firstColumn, writer: &writer, file: file)
    }

    /// Makes the views not yet made that `sql` may read, each in a transaction of its own
    /// kept in the session's setup, so a new connection makes it again. Inside another
    /// transaction (which may be read-only, and would be committed by this one's) none is
    /// made: every read of a view begins outside one.
    private func makeViews(readBy sql: String) throws {
        guard let views = deferredViews, !views.isEmpty, server.transactionDepth == 0 else { return }
        // Those not made when one fails (Ctrl-C, a lost connection) are pending again.
        do {
            for making in views.take(readBy: sql) { try server.executeForSession(inTransaction: making) }
        } catch {
            views.restoreTaken()
            throw error
        }
    }

    /// Readable when a NOTIFY arrives (`PostgresConnection+Notifications`).
    package var changeDescriptor: Int32? { server.socket }

    /// The connection made again if it was lost, then one round trip: a commit that
    /// returned to its program before this signalled our backend already, which sends its
    /// notification before it answers (another program's commit just before `refresh()`
    /// is heard by it, not by the next one).
    package func catchUp() throws {
        try server.reestablishIfLost()
        _ = try server.execute("SELECT 1")
    }

    /// The server closed the connection (a restart, `pg_terminate_backend`), as reading
    /// its announcements found (`takeNotifications`); a connection closed by `.open` is
    /// not lost but ended.
    package var sessionIsLost: Bool { !server.isClosed && server.isLost }

    package var sayLoss: ((String) -> Void)? {
        get { server.sayLoss }
        set { server.sayLoss = newValue }
    }

    /// The server's session ends now (`PostgresConnection.close`): `.open` of another store
    /// leaves no idle backend behind; the store's connection refuses reads from now.
    package func close() { server.close() }
}

import CQuarryPQ
import QuarryModel
import QuarryStore

/// The rows of one query as the server sends them, a row at a time (libpq's single-row
/// mode), for a read that must not hold every row at once (`export`). While it is open
/// the connection runs nothing else; when it is left before its last row, the server is
/// asked to cancel the query and what remains is read and dropped.
final class PostgresRowStream {
    private let server: PostgresConnection
    private let sql: String
    private var finished = false
    /// The row read ahead to learn the columns before the first step.
    private var ahead: [Value]?
    private(set) var columns: [String] = []
    /// Each column's type (its OID), by place, once a result has come.
    private(set) var types: [UInt32] = []

    /// Sends `sql` (numbered `$1`...) with `arguments` and reads its first row.
    package init(_ server: PostgresConnection, sql: String, arguments: [Value]) throws {
        self.server = server
        self.sql = sql
        try server.send(sql, arguments)
        guard server.pq.pointee.setSingleRowMode?(server.handle) == 1 else {
            finish()
            throw StoreError.postgres(sqlState: nil, sql: sql, message: "cannot read the rows one at a time")
        }
        ahead = try read()
    }

    deinit { finish() }

    /// The next row; nil after the last.
    package func next() throws -> [Value]? {
        if let row = ahead {
            ahead = nil
            return row
        }
        return try read()
    }

    private func read() throws -> [Value]? {
        guard !finished else { return nil }
        let table = server.pq.pointee
        guard let getResult = table.getResult, let clear = table.clear, let status = table.resultStatus else { return nil }
        server.waitWhileBusy()
        guard let result = getResult(server.handle) else {
            finished = true
            return nil
        }
        defer { clear(result) }
        switch status(result) {
        case PGRES_SINGLE_TUPLE:
            let read = try server.read(result, sql: sql, columns: columns.isEmpty ? nil : columns)
            columns = read.columns
            types = read.types
            return read.rows.first
        case PGRES_TUPLES_OK:
            let read = try server.read(result, sql: sql)
            (columns, types) = (read.columns, read.types)
            finish(cancelling: false)
            return nil
        default:
            let cancelled = server.cancelled
            defer { finish(cancelling: false) }
            if cancelled { throw StoreError.interrupted(.now(stopping: .serverStatement)) }
            try server.check(result, sql: sql)
            return nil
        }
    }

    /// Cancels what is left of the query (unless its last row was read) and reads it to
    /// its end, so the connection can run the next statement. A cancel request opens a
    /// connection of its own, so none is sent for a query that already ended.
    private func finish(cancelling: Bool = true) {
        guard !finished else { return }
        finished = true
        let table = server.pq.pointee
        if cancelling { _ = server.requestCancel() }
        while let result = table.getResult?(server.handle) { table.clear?(result) }
    }
}

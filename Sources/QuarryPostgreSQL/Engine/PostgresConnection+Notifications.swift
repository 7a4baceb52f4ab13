import CQuarryPQ
import QuarryModel
import QuarryStore

/// LISTEN/NOTIFY: how a PostgreSQL store hears other sessions' commits. Every write of
/// Quarry's announces itself on `channel` at commit (its payload the schema written), and
/// triggers a user asked for (`?notify=triggers`) announce any other program's; each
/// quarry listens on the channel and reads what arrived without waiting, between
/// statements and while the REPL waits at its prompt (on `socket`).
extension PostgresConnection {
    /// The channel Quarry's announcements go out on.
    static let channel = "quarry_changes"

    /// The descriptor of the connection's socket: readable when the server sent something,
    /// a notification included, for the REPL to wait on beside the terminal.
    public var socket: Int32? {
        guard let socket = pq.pointee.socket?(handle), socket >= 0 else { return nil }
        return socket
    }

    /// Announces a write to `schema` on `channel`: sent inside the write's transaction, it
    /// reaches the listeners when the transaction commits, and never if it rolls back.
    func announce(_ schema: String) throws {
        try execute("SELECT pg_notify($1, $2)", [.text(Self.channel), .text(schema)])
    }

    /// The notifications that arrived from other sessions since the last call (this
    /// session's own are left out), read without waiting: their payloads. A connection
    /// that is gone is an error (`refresh()` says so rather than that nothing changed).
    func takeNotifications() throws -> [String] {
        let table = pq.pointee
        guard let consume = table.consumeInput, let notifies = table.notifies, let free = table.freemem else { return [] }
        guard consume(handle) == 1 else {
            throw StoreError.postgres(sqlState: nil, sql: nil, message: failure(or: "the connection to the server is lost"))
        }
        let own = table.backendPID?(handle) ?? 0
        var payloads: [String] = []
        while let notification = notifies(handle) {
            let note = notification.pointee
            if note.be_pid != own, let channel = note.relname, String(cString: channel) == Self.channel {
                payloads.append(note.extra.map { String(cString: $0) } ?? "")
            }
            free(notification)
        }
        return payloads
    }
}

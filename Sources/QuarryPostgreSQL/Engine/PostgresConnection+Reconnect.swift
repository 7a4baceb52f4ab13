import CQuarryPQ
import Foundation
import QuarryModel
import QuarryStore

/// A session that survives its server: a connection the server closed (a restart, a
/// terminated backend) is made again, with the same connection string, at the next
/// statement outside a transaction, and what the session had set up on the old one
/// (settings, LISTEN, temporary views of join tables) is set up again on the new one.
/// The context's objects and pending changes are Quarry's own, in memory: they survive.
/// A write transaction that meets the loss rolls back on the server by itself; whether
/// it may run again is `lostBeforeCommit`'s to say.
extension PostgresConnection {
    /// Statements that set up the session, run again on a new connection: one at a time,
    /// or together in one `READ WRITE` transaction (temporary objects, in a session whose
    /// transactions are read-only by default).
    struct SessionStep {
        package let statements: [(sql: String, arguments: [Value])]
        let inTransaction: Bool
    }

    /// Said after a failure that lost the connection.
    static let lostNote = "the connection to the server was lost; the next statement connects again"
    /// Said (`sayLoss`) when the loss is found and the connection is made again.
    static let reconnectingNote = "connection lost, reconnecting"

    /// Whether the connection is known to be gone.
    var isLost: Bool { pq.pointee.status?(handle) == CONNECTION_BAD }

    /// Runs `sql` and keeps it as part of the session's setup.
    package func executeForSession(_ sql: String, _ arguments: [Value] = []) throws {
        try execute(sql, arguments)
        sessionSetup.append(SessionStep(statements: [(sql, arguments)], inTransaction: false))
    }

    /// Runs `statements` in one `READ WRITE` transaction, committed, and keeps them as
    /// part of the session's setup; rolled back, and not kept, when one fails.
    package func executeForSession(inTransaction statements: [String]) throws {
        let step = SessionStep(statements: statements.map { ($0, []) }, inTransaction: true)
        try run(step)
        sessionSetup.append(step)
    }

    /// Runs `statements` in one `READ WRITE` transaction, committed, as `executeForSession`
    /// does, without keeping them: undoing part of the setup (a temporary view dropped).
    func executeOnce(inTransaction statements: [String]) throws {
        try run(SessionStep(statements: statements.map { ($0, []) }, inTransaction: true))
    }

    /// Forgets the setup steps whose statements `matches`: a new connection no longer runs them.
    func forgetSessionSteps(where matches: ([String]) -> Bool) {
        sessionSetup.removeAll { matches($0.statements.map(\.sql)) }
    }

    private func run(_ step: SessionStep) throws {
        guard step.inTransaction else {
            for (sql, arguments) in step.statements { try execute(sql, arguments) }
            return
        }
        try execute("BEGIN TRANSACTION READ WRITE")
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            for (sql, arguments) in step.statements { try execute(sql, arguments) }
            try execute("COMMIT")
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// Before a statement outside any transaction: when the server closed the connection
    /// (what it sent is read first, without waiting, so a close while the session was
    /// idle is seen now rather than as this statement's failure), connects again and sets
    /// the session up again. Throws when the server cannot be reached: nothing was sent,
    /// and the statement after tries again. Every reconnection passes here, whatever
    /// found the loss (a statement, `refresh()`, the REPL's wait), so here alone it is said
    /// (`sayLoss`), once for each loss.
    package func reestablishIfLost() throws {
        statementsStarted &+= 1
        // A connection closed on purpose (`close`) is not made again.
        if isClosed { throw StoreError.closed }
        guard transactionDepth == 0, !reestablishing, let reset = pq.pointee.reset else { return }
        if !isLost { readWhatArrived() }
        guard isLost else { return }
        if !lossSaid {
            lossSaid = true
            sayLoss?(Self.reconnectingNote)
        }
        reestablishing = true
        defer { reestablishing = false }
        reset(handle)
        guard !isLost else {
            let reason = Self.text(pq.pointee.errorMessage?(handle)) ?? "the server does not answer"
            throw StoreError.postgres(
                sqlState: nil, sql: nil,
                message: "the connection to the server was lost and cannot be made again now (\(reason)); the next statement tries again")
        }
        lossSaid = false
        reconnections += 1
        quarry_pq_quiet(pq, handle)
        do {
            for step in sessionSetup { try run(step) }
        } catch StoreError.engine(let failure as PostgresFailure) {
            let (state, sql, message) = (failure.sqlState, failure.sql, failure.said)
            throw StoreError.postgres(
                sqlState: state, sql: sql, message: "connected again, but the session could not be set up as before: \(message)")
        }
    }

    /// Reads, without waiting, whatever the server sent while the session was idle: its
    /// notifications (kept for `takeNotifications`), or its close, after which `isLost`.
    private func readWhatArrived() {
        let table = pq.pointee
        guard let socket = table.socket, let consume = table.consumeInput else { return }
        // A close comes as the server's last message, then the end of the stream: one
        // read each. Bounded, as a stream of notifications could keep it readable.
        for _ in 0..<64 {
            let descriptor = socket(handle)
            guard descriptor >= 0 else { return }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0, consume(handle) == 1 else { return }
        }
    }
}

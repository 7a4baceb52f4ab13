import CQuarryPQ
import QuarryModel
import QuarryStore

/// Statements sent together and answered together (libpq's pipeline mode): a save of
/// 27,004 changed rows waited for the server once a row, 4.1 s of a 4.6 s run, where the
/// server's own work took a tenth of that. Inside a transaction only, whose end settles
/// what the statements did: the server skips the statements after one that fails, and
/// the transaction is rolled back. With a libpq older than 14, which has no pipeline,
/// each statement is sent and answered on its own.
extension PostgresConnection {
    /// A statement of a pipeline that failed: which one, and the server's error (or the
    /// interruption), as `execute` would have thrown it.
    struct PipelineFailure: Error {
        package let index: Int
        package let error: Error
    }

    /// Runs `statements` (each `$n` numbered, as `execute` takes them) in one pipeline and
    /// returns their results in order; the first that fails is thrown as a
    /// `PipelineFailure`, after every result has been read.
    func pipelined(_ statements: [(sql: String, arguments: [Value])]) throws -> [PostgresResult] {
        guard statements.count > 1 else {
            return try statements.map { statement in
                do { return try execute(statement.sql, statement.arguments) } catch { throw PipelineFailure(index: 0, error: error) }
            }
        }
        var next = statements.makeIterator()
        return try pipelined { next.next() }
    }

    /// Runs the statements `next` makes, until it returns nil, in one pipeline, each sent
    /// before the next is made. `flushingEach`: each is also flushed to the server at once,
    /// so the server works on one while Quarry makes the next (a save of 20,000 new objects
    /// made its 20 statements first, and the server, idle till then, took a fifth of the
    /// save's time after them); statements made already are better left to libpq's
    /// buffer, which writes many small ones at a time.
    func pipelined(flushingEach: Bool = false, _ next: () -> (sql: String, arguments: [Value])?) throws -> [PostgresResult] {
        let table = pq.pointee
        guard transactionDepth > 0, let enter = table.enterPipelineMode, let exit = table.exitPipelineMode,
            let sync = table.pipelineSync, let getResult = table.getResult, let clear = table.clear, enter(handle) == 1
        else {
            var results: [PostgresResult] = []
            while let statement = next() {
                do { results.append(try execute(statement.sql, statement.arguments)) } catch {
                    throw PipelineFailure(index: results.count, error: error)
                }
            }
            return results
        }
        defer { _ = exit(handle) }
        var results: [PostgresResult] = []
        var failed: PipelineFailure?
        // The statements sent, for their errors.
        var statements: [String] = []
        do {
            while let statement = next() {
                try send(statement.sql, statement.arguments)
                statements.append(statement.sql)
                if flushingEach { _ = table.flush(handle) }
            }
        } catch {
            failed = PipelineFailure(index: statements.count, error: error)
        }
        let sent = statements.count
        guard sync(handle) == 1 else {
            throw failed
                ?? PipelineFailure(
                    index: 0, error: StoreError.postgres(sqlState: nil, sql: statements.first ?? "", message: failure(or: "cannot end the pipeline")))
        }
        // Each statement's result, then a null; the pipeline's end last.
        for index in 0..<sent {
            waitWhileBusy()
            guard let result = getResult(handle) else {
                failed =
                    failed
                    ?? PipelineFailure(
                        index: index, error: StoreError.postgres(sqlState: nil, sql: statements[index], message: failure(or: "no result")))
                break
            }
            defer { clear(result) }
            while let extra = getResult(handle) { clear(extra) }
            guard failed == nil else { continue }
            do {
                if cancelled, table.resultStatus?(result) == PGRES_FATAL_ERROR { throw StoreError.interrupted(.now(stopping: .serverStatement)) }
                try check(result, sql: statements[index])
                results.append(try read(result, sql: statements[index]))
            } catch StoreError.engine(let failure as PostgresFailure) where isLost {
                let (state, sql, message) = (failure.sqlState, failure.sql, failure.said)
                failed = PipelineFailure(
                    index: index, error: StoreError.postgres(sqlState: state, sql: sql, message: message + " (" + Self.lostNote + ")"))
            } catch {
                failed = PipelineFailure(index: index, error: error)
            }
        }
        while !isLost {
            waitWhileBusy()
            guard let result = getResult(handle) else { break }
            let status = table.resultStatus?(result)
            clear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        if let failed { throw failed }
        return results
    }
}

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
        let table = pq.pointee
        guard statements.count > 1, transactionDepth > 0, let enter = table.enterPipelineMode, let exit = table.exitPipelineMode,
            let sync = table.pipelineSync, let getResult = table.getResult, let clear = table.clear, enter(handle) == 1
        else {
            return try statements.enumerated().map { index, statement in
                do { return try execute(statement.sql, statement.arguments) } catch { throw PipelineFailure(index: index, error: error) }
            }
        }
        defer { _ = exit(handle) }
        var results: [PostgresResult] = []
        var failed: PipelineFailure?
        var sent = 0
        do {
            for statement in statements {
                try send(statement.sql, statement.arguments)
                sent += 1
            }
        } catch {
            failed = PipelineFailure(index: sent, error: error)
        }
        guard sync(handle) == 1 else {
            throw failed
                ?? PipelineFailure(
                    index: 0, error: StoreError.postgres(sqlState: nil, sql: statements[0].sql, message: failure(or: "cannot end the pipeline")))
        }
        // Each statement's result, then a null; the pipeline's end last.
        for index in 0..<sent {
            waitWhileBusy()
            guard let result = getResult(handle) else {
                failed =
                    failed
                    ?? PipelineFailure(
                        index: index, error: StoreError.postgres(sqlState: nil, sql: statements[index].sql, message: failure(or: "no result")))
                break
            }
            defer { clear(result) }
            while let extra = getResult(handle) { clear(extra) }
            guard failed == nil else { continue }
            do {
                if cancelled, table.resultStatus?(result) == PGRES_FATAL_ERROR { throw StoreError.interrupted(.now(stopping: .serverStatement)) }
                try check(result, sql: statements[index].sql)
                results.append(try read(result, sql: statements[index].sql))
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

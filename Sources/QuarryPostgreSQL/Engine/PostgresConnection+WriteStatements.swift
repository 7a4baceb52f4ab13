import QuarryEngine
import QuarryModel
import QuarryStore

/// Statements inside the session's `READ WRITE` transaction (`WriteStatements`), their
/// `?` numbered as the server's `$n`.
extension PostgresConnection: WriteStatements {
    package func rows(_ sql: String, _ arguments: [Value]) throws -> [[Value]] {
        try execute(PostgreSQLDialect.numbered(sql), arguments).rows
    }
}

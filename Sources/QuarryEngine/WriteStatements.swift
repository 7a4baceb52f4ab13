import QuarryModel

/// Statements run inside one of the engine's write transactions, written with `?` for
/// each argument and given Quarry's values: what the layouts written once for every engine
/// (`HierarchyReshape`, batch changes) run, where the transaction itself is the engine's
/// (GRDB's `Database.write`, a server's `READ WRITE` transaction).
package protocol WriteStatements {
    /// The rows `sql` returns, each a value per column.
    func rows(_ sql: String, _ arguments: [Value]) throws -> [[Value]]
    /// Runs `sql`, which returns no rows.
    func run(_ sql: String, _ arguments: [Value]) throws
}

extension WriteStatements {
    /// Its rows read and left: for an engine that runs every statement alike.
    package func run(_ sql: String, _ arguments: [Value]) throws { _ = try rows(sql, arguments) }

    /// The integer in the first column of `sql`'s first row (0 when there is none).
    package func count(_ sql: String, _ arguments: [Value] = []) throws -> Int {
        Int(try rows(sql, arguments).first?.first?.storedInteger ?? 0)
    }
}

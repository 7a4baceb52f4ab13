import CQuarrySignals
import QuarryModel

/// The first statement of SQL a person wrote (`sql()`), prepared and not yet run, with
/// what a caller checks before running it: whether the engine says it only reads, its
/// columns, the functions it calls, whether the arguments fit its parameters. Lent to
/// the body of `StoreConnection.prepareReadOnly` and valid only there. Each engine
/// prepares its own (`SQLitePreparedQuery`, `PostgresPreparedQuery`).
public protocol PreparedQuery {
    /// Whether the text holds another statement after this one.
    var isFollowedByAnother: Bool { get }
    /// Whether the statement writes nothing.
    var isReadOnly: Bool { get }
    /// The names of its result columns (none for a statement that returns no rows).
    var columnNames: [String] { get }
    /// The functions the statement calls that Quarry installed, by name (lower case), each
    /// once; none where the engine's read-only transaction refuses what they would write.
    func functionsCalled() throws -> [String]
    /// Whether `arguments` fit the statement's parameters (as many as it has `?`s).
    func accepts(_ arguments: [Value]) -> Bool
    /// Runs the statement with `arguments` bound, lending each row to `body` (as
    /// `StoreConnection.forEachRow` does).
    func forEachRow(arguments: [Value], _ body: (StoreRow) throws -> Void) throws
    /// Runs the statement with `arguments` bound and writes its rows into `file` through
    /// `writer` as they come, each as `export(sql(...))` writes it (`QueryColumns`), by the
    /// engine's fastest way that holds no more than a chunk; returns how many rows.
    func exportRows(arguments: [Value], columns: QueryColumns, writer: inout TableWriter, file: OutputFile) throws -> Int
}

extension PreparedQuery {
    /// None: the engine's read-only transaction refuses what Quarry's functions would write.
    public func functionsCalled() throws -> [String] { [] }
}

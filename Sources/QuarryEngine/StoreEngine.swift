import QuarryModel

/// One database engine a store's rows live in: SQLite through GRDB (`SQLiteEngine`) or
/// PostgreSQL through libpq (`PostgresEngine`), each in its own folder with its own
/// `SQLDialect`. `StoreConnection` holds one and asks it for rows, prepared statements, a
/// bulk export and change notification; nothing above it asks which engine it has, and
/// no type of one engine appears in the other. A default is what an engine without the
/// feature answers (no bulk export, no one-scan summary, nothing to say after a save);
/// none is another engine's behaviour.
///
/// A third engine is one more conformance in a folder of its own, and one more entry in
/// `StoreRegistry` (see docs/design.md).
package protocol StoreEngine: OutsideCommits {
    /// The engine as a person reads it ("SQLite", "PostgreSQL at postgres://…"), passwords
    /// left out.
    var description: String { get }

    /// `body` with `sql`'s rows, reset and with nothing bound. `cached`: the statement is
    /// kept prepared for the next call with the same text. `streamed`: rows come a row at a
    /// time however many there are (an export), where the engine would otherwise take the
    /// whole result at once; the connection runs nothing else until the last.
    func withRows(_ sql: String, cached: Bool, streamed: Bool, _ body: (any RowCursor) throws -> Void) throws

    /// Prepares the first statement of `sql` and hands it to `body` (nil when the text holds
    /// none), inside an access in which even a statement that passed every check writes
    /// nothing; none of the text runs before `body` asks.
    func prepareReadOnly<T>(_ sql: String, _ body: ((any PreparedQuery)?) throws -> T) throws -> T

    /// Writes `sql`'s rows (columns from `firstColumn` on, read as `types`) into `file` by
    /// the engine's own bulk path, as the rows would be written one at a time; returns how
    /// many, or nil when it has none for this query (before anything is written).
    func exportRows(
        _ sql: String, arguments: [Value], types: [AttributeType], firstColumn: Int,
        writer: inout TableWriter, file: OutputFile
    ) throws -> Int?

    /// The statements that make `relation` (in `schema`, where the engine has schemas) as
    /// the engine holds it, each without its `;`: its table (columns, types, keys,
    /// constraints) or view, then its indexes (`.schema --sql`). None when the engine
    /// keeps no text for it (a TEMP view Quarry made for the session).
    func definition(of relation: String, in schema: String?) throws -> [String]

    /// After the store's own save committed (SQLite: closing may then checkpoint the WAL
    /// into the file, which a read-only look never does).
    func didSave()

    /// Why `sql`, which a person wrote for `sql()`, is refused before it is compiled (SQLite
    /// carries out a pragma while compiling it); nil when it may be compiled.
    func refusalBeforeCompiling(_ sql: String) -> String?
    /// Whether `sql()` may call `function` (lower case): the engine's ordinary functions and
    /// those it installs for its layouts.
    func allowsCall(to function: String) -> Bool

    /// Every column of `scan` summarised in one scan of its rows, reporting the rows read
    /// to `progress` now and then; nil when the engine has no one-scan aggregate, or none
    /// that agrees with this schema (the caller then takes the exact way).
    func summarize(_ scan: SummaryScan, progress: ((Int) -> Void)?) throws -> SummaryScanResult?

    /// A column default read off the engine's clock (`CURRENT_TIMESTAMP`) now, as the
    /// engine would write it at an insert, for a new object; nil when it cannot say.
    func clockValue(_ clock: String, as type: AttributeType) -> Value?

    /// Views the store described and SQL has not yet read, made before the first
    /// statement that reads each (`DeferredViews`).
    var deferredViews: DeferredViews? { get set }

    /// Ends the session: every later read fails.
    func close()
}

extension StoreEngine {
    /// None: an engine that keeps no text for its relations (`.schema --sql` then prints
    /// the entity's own definition only).
    package func definition(of relation: String, in schema: String?) throws -> [String] { [] }
    /// None: the rows are streamed one at a time (`StoreConnection+RowStream`).
    package func exportRows(
        _ sql: String, arguments: [Value], types: [AttributeType], firstColumn: Int,
        writer: inout TableWriter, file: OutputFile
    ) throws -> Int? { nil }
    /// Nothing waits for a save (an engine that keeps its own log).
    package func didSave() {}
    /// Nothing is carried out while compiling: every statement may be compiled.
    package func refusalBeforeCompiling(_ sql: String) -> String? { nil }
    /// The engine names the functions it refuses in a read-only transaction itself.
    package func allowsCall(to function: String) -> Bool { true }
    /// No one-scan aggregate: the exact way's statements.
    package func summarize(_ scan: SummaryScan, progress: ((Int) -> Void)?) throws -> SummaryScanResult? { nil }
    /// Not asked of the engine: a new object's clock default starts as nil.
    package func clockValue(_ clock: String, as type: AttributeType) -> Value? { nil }
}

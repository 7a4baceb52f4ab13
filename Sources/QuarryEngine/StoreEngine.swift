import QuarryModel

/// One database engine a store's rows live in: SQLite through GRDB (`SQLiteEngine`) or
/// PostgreSQL through libpq (`PostgresEngine`), each in its own folder with its own
/// `SQLDialect`. `StoreConnection` holds one and asks it for rows, prepared statements, a
/// bulk export and change notification; nothing above it asks which engine it has, and
/// no type of one engine appears in the other. Every member is required: no engine
/// inherits another's behaviour by default.
///
/// A third engine is one more conformance in a folder of its own, and one more entry in
/// `StoreRegistry` (see docs/design.md).
package protocol StoreEngine: AnyObject {
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

    /// What the open had to say (a private copy was read), for stderr.
    var openingNotes: [String] { get }

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

    /// A descriptor that turns readable when another session commits (to wait on beside
    /// the terminal); nil when commits are found by asking (SQLite's `data_version`).
    var changeDescriptor: Int32? { get }
    /// Before reading what others committed: the session, made anew if it was lost (a
    /// server restarted); nothing where a session cannot be lost.
    func reestablishIfLost() throws
    /// Before reading what others committed when a person asks (`refresh()`): whatever
    /// they committed before now has reached this session (a server's announcements
    /// travel on their own); nothing where the change counter is read in step.
    func synchronize() throws

    /// Ends the session: every later read fails.
    func close()
}

extension StoreEngine {
    /// None: an engine that keeps no text for its relations (`.schema --sql` then prints
    /// the entity's own definition only).
    package func definition(of relation: String, in schema: String?) throws -> [String] { [] }
}

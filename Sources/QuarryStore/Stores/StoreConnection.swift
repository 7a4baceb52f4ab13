import Foundation
import QuarryModel
import QuarryEngine

/// A store's session with its engine (`StoreEngine`: SQLite or PostgreSQL), the one
/// owner of it: the reads every layer above makes go through here to the engine, which
/// alone knows its library. What belongs to a file's SQLite database only (its GRDB
/// handle, the views made when first read, the checkpoint policy) is reached through
/// `sqlite`, by the stores that exist only on SQLite (`SQLiteStore`: Quarry's files,
/// another program's, Core Data's) and the reads not yet written against the engine; a
/// connection to another engine has none, and such a read is refused (`needsEngine`).
public final class StoreConnection {
    package let engine: any StoreEngine
    /// The SQLite engine, the same as `engine`; nil on another engine (`database` and
    /// `read`, in `StoreConnection+SQLite`, refuse).
    let sqlite: SQLiteEngine?
    public let isReadOnly: Bool
    /// Where the store lives; nil for an in-memory store or a server's.
    public let path: String?
    /// Where summarize()'s aggregate reports the rows it has read.
    public let summaryProgress: SummaryProgress
    /// What a Core Data store's triggers said about the values they wrote.
    public let triggerNotices: TriggerNoticeLog
    /// A Core Data store's binary values kept in files beside it (`ExternalBinaryData`).
    public let externalData: ExternalBinaryData
    private(set) var isClosed = false

    /// Opens (or creates) the SQLite database at `path`; nil or ":memory:" is an in-memory
    /// one. `functions` are SQL functions installed on the connection (the predicate
    /// layer's).
    init(path: String?, readOnly: Bool, functions: [SQLFunction]) throws {
        let summaryProgress = SummaryProgress()
        self.summaryProgress = summaryProgress
        let notices = TriggerNoticeLog()
        triggerNotices = notices
        let external = ExternalBinaryData(storePath: path)
        externalData = external
        let sqlite = try SQLiteEngine.opening(path: path, readOnly: readOnly, functions: functions, summaryProgress: summaryProgress,
                                              notices: notices, externalData: external)
        self.sqlite = sqlite
        engine = sqlite
        isReadOnly = readOnly
        self.path = sqlite.path
    }

    /// A connection over an engine that is not SQLite (a server's), opened already.
    package init(engine: any StoreEngine, readOnly: Bool) {
        sqlite = nil
        self.engine = engine
        isReadOnly = readOnly
        path = nil
        summaryProgress = SummaryProgress()
        triggerNotices = TriggerNoticeLog()
        externalData = ExternalBinaryData(storePath: nil)
    }

    /// The error for what only one engine does yet, asked of a store on another.
    package static func needsEngine(_ engine: String, for what: String = "this") -> StoreError {
        .database(message: "\(what) is not supported yet on this store: it needs \(engine) (see docs/postgresql.md)")
    }


    /// The engine as a person reads it.
    public var engineDescription: String { engine.description }

    /// Whether the file did not exist before this open (so Quarry made it).
    var createdByOpen: Bool { sqlite?.createdByOpen ?? false }
    /// What the open had to say (a private copy was read): for stderr.
    var notes: [String] { sqlite?.notes ?? [] }
    /// Views the store described and SQL has not yet read (a Core Data store's, another
    /// program's views).
    package var deferredViews: DeferredViews? {
        get { engine.deferredViews }
        set { engine.deferredViews = newValue }
    }

    /// Defers a view: made by `making` before the first statement that reads `name`.
    func deferView(_ name: String, _ making: DeferredViews.Making) {
        let views = deferredViews ?? DeferredViews([])
        views.add(name, making)
        deferredViews = views
    }

    /// Closes the session (every later read fails), and removes what a read-only open made
    /// beside the file.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        engine.close()
    }

    deinit { close() }

    /// Makes the views not yet made that `sql` may read (`DeferredViews`).
    func makeViews(readBy sql: String) throws { try sqlite?.makeViews(readBy: sql) }

    /// Makes every view not yet made: before a write, whose triggers read them.
    func makeAllViews() throws { try sqlite?.makeAllViews() }

    /// Lets closing checkpoint the WAL into the file.
    func allowCheckpointOnClose() { sqlite?.allowCheckpointOnClose() }

    /// Quarry's own files use WAL (`SQLiteEngine.useWriteAheadLog`).
    func useWriteAheadLog() throws { try sqlite?.useWriteAheadLog() }
}

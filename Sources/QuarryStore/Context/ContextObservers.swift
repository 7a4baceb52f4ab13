/// Whoever watches a context, and the counters they compare: callbacks told when its
/// objects may have changed or another connection committed, listeners of each save's
/// changes, the row hashes of the entities observers watch, and two generations that
/// results read to know they must run again.
struct ContextObservers {
    /// Increases on every save and rollback.
    var generation = 0
    /// Increases on every unsaved change.
    var pendingGeneration = 0
    var stateWatchers = Listeners<() -> Void>()
    var outsideChangeWatchers = Listeners<() -> Void>()
    var changeListeners = Listeners<(ChangeSet) -> Void>()
    /// Row hashes of the entities observers watch (see `watchRows`).
    var watchedRows: [String: RowHashes] = [:]
    /// The last id handed out; each callback of every channel has its own.
    private var lastID = 0

    mutating func nextID() -> Int {
        lastID += 1
        return lastID
    }
}

/// What the context knows of other connections' commits: the `data_version` it last saw,
/// the last history transaction it read, and the transactions it recorded itself (which
/// are no outside change when it next looks).
struct OutsideChanges {
    var lastDataVersion: Int?
    var lastHistoryToken: Int64?
    var ownHistoryTokens: Set<Int64> = []
}

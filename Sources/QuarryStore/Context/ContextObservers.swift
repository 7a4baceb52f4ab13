/// Whoever watches a context, and the counters they compare: callbacks told when its
/// objects may have changed or another connection committed, listeners of each save's
/// changes, the row hashes of the entities observers watch, and two generations that
/// results read to know they must run again.
struct ContextObservers {
    /// Increases on every save and rollback.
    var generation = 0
    /// Increases on every unsaved change.
    var pendingGeneration = 0
    var stateWatchers = Listeners<(ManagedObject?) -> Void>()
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
package struct OutsideChanges {
    var lastDataVersion: Int?
    var lastHistoryToken: Int64?
    package var ownHistoryTokens: Set<Int64> = []
    /// Whether `takeUnheardCommitsNote` gave its note.
    var saidUnheard = false
    /// When a lost session was last tried again while waiting (`reconnectWhileWaiting`);
    /// nil while none is lost. The loss is said once, and a server that does not answer
    /// is tried about once a second, not at every turn of the wait.
    var lastReconnectTry: ContinuousClock.Instant?
}

/// Callbacks a context keeps for whoever watches it, in the order they were added (each
/// id larger than the last). An array rather than a dictionary: a dictionary keyed by
/// id would be the first of its type in a batch run, and making one costs the Swift
/// runtime a search of every conformance in the binary (0.1 ms each) at every start.
struct Listeners<Call> {
    private var entries: [(id: Int, call: Call)] = []

    mutating func add(_ id: Int, _ call: Call) { entries.append((id, call)) }

    mutating func remove(_ id: Int) {
        if let i = index(of: id) { entries.remove(at: i) }
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The callback `id` names, when it is still there.
    subscript(id: Int) -> Call? { index(of: id).map { entries[$0].call } }

    /// The ids now present, in order: calling each by id lets a callback remove another.
    var ids: [Int] { entries.map(\.id) }

    /// Calls `body` with each callback, in order (on the list as it was when called).
    func forEach(_ body: (Call) -> Void) { for entry in entries { body(entry.call) } }

    private func index(of id: Int) -> Int? {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].id < id { low = mid + 1 } else { high = mid }
        }
        return low < entries.count && entries[low].id == id ? low : nil
    }
}

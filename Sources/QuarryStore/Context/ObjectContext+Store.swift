import QuarryModel
import QuarryModelFiles

/// The context's side of its store: which store is behind it, and what the layers above
/// may ask of it.
extension ObjectContext {
    /// Puts `newStore` behind the context, its model and mapping as it holds them.
    func adopt(_ newStore: any PersistentStore) {
        store = newStore
    }

    /// The SQL the store speaks, for the predicate and fetch layers' SQL.
    public var sqlDialect: any SQLDialect { store.dialect }

    /// What the store behind the context can do, for layers that must not ask its kind.
    public var capabilities: StoreCapabilities {
        guard store.modelAsRead != nil else { return [] }
        // SwiftData names its stores `default.store`; Core Data's templates `.sqlite`.
        return (path ?? "").hasSuffix(".store") ? [.appModel, .swiftData] : [.appModel]
    }

    /// The model an app compiled and wrote the store with (its class names), when the
    /// store has one (`StoreCapabilities.appModel`).
    public var appModel: CoreDataModel? { store.modelAsRead }

    /// For each entity `sql` reads whose rows the store lays out in tables of its own (a
    /// Core Data store's Z-tables), the SQL that reads them: what `explain` adds.
    public func tablesRead(by sql: String) -> [(entity: String, sql: String)] {
        store.tableSQL(readBy: sql)
    }

    /// The engine behind the context as the REPL's banner names it, without secrets.
    public var engineDescription: String {
        connection.engineDescription
    }

    // `history{}`: the transactions recorded in the store, as its kind of store keeps them
    // (Quarry's own `quarry_history`, or a Core Data store's persistent history).

    /// The token of the latest recorded transaction (0 when there is none).
    public func historyToken() throws -> Int64 {
        try store.historyToken(context: self)
    }

    /// Transactions after `since` (all when nil), optionally by one author, oldest first.
    public func history(since: Int64? = nil, author: String? = nil) throws -> [HistoryTransaction] {
        try store.history(since: since, author: author, context: self)
    }

    /// Forgets transactions up to and including `token`; returns how many.
    @discardableResult
    public func pruneHistory(through token: Int64) throws -> Int {
        if isReadOnly { throw StoreError.readOnly(operation: "history.prune") }
        return try store.pruneHistory(through: token, context: self)
    }
}

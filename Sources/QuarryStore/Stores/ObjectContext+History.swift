import Foundation
import GRDB

/// One recorded transaction: a save or a batch change.
public struct HistoryTransaction {
    public var token: Int64
    public var time: Double
    public var author: String?
    public var inserted: [String]
    public var updated: [String]
    public var deleted: [String]
}

/// `history{}`: the transactions recorded in the store, as its kind of store keeps them
/// (Quarry's own `quarry_history`, or a Core Data store's persistent history).
extension ObjectContext {
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
        do {
            return try database.write { db in try QuarryHistory.prune(through: token, in: db) }
        } catch let error as DatabaseError { throw StoreError(error) }
    }
}

import QuarryModel

/// The transactions a store records (`history{}`): Quarry's own `quarry_history`, a Core
/// Data store's persistent history, or none.
package protocol StoreHistory: AnyObject {
    /// The token of the latest transaction of the store's history (0 when there is none).
    func historyToken(session: StoreSession) throws -> Int64
    /// The store's history after `since` (all when nil), optionally by one author, oldest first.
    func history(since: Int64?, author: String?, session: StoreSession) throws -> [HistoryTransaction]
    /// Forgets the store's history up to and including `token`; returns how many transactions.
    func pruneHistory(through token: Int64, session: StoreSession) throws -> Int
}

/// A store that records no history (a server's schema): no transaction, nothing to prune.
extension StoreHistory {
    package func historyToken(session: StoreSession) throws -> Int64 { 0 }
    package func history(since: Int64?, author: String?, session: StoreSession) throws -> [HistoryTransaction] { [] }
    package func pruneHistory(through token: Int64, session: StoreSession) throws -> Int { 0 }
}

/// An engine whose statements can reach another file of its own kind, attached read-only:
/// `diff` of two such files lets SQL find the rows they differ in. An engine apart from
/// `StoreEngine`'s requirements, which every engine answers: one that cannot attach
/// (a server) does not conform, and `diff` reads each store through its own connection.
package protocol AttachingEngine: StoreEngine {
    /// `body` run with the database `other` reads reachable from this engine's statements
    /// as schema `schema`, read-only (nothing written to either), and detached after; nil,
    /// `body` not run, when this engine cannot reach it (another engine, a database in
    /// memory).
    func withAttached<T>(_ other: any StoreEngine, as schema: String, _ body: () throws -> T) throws -> T?

    /// Whether `oldRelation` is a table of this engine's own database and `newRelation`
    /// one of the database attached as `schema`, neither hidden by a temporary relation of
    /// the session's (which a name would find first).
    func holdsTables(_ oldRelation: String, _ newRelation: String, attachedAs schema: String) throws -> Bool
}

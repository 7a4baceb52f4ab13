import QuarryEngine

extension StoreConnection {
    /// `body` run with `other`'s database reachable from this connection's statements as
    /// schema `schema`, read-only (`StoreEngine.withAttached`); nil, `body` not run, when
    /// this engine cannot reach it (two engines, a store in memory).
    package func withAttached<T>(_ other: StoreConnection, as schema: String, _ body: () throws -> T) throws -> T? {
        guard !isClosed, !other.isClosed, let engine = engine as? any AttachingEngine else { return nil }
        return try engine.withAttached(other.engine, as: schema, body)
    }

    /// Whether `oldRelation` is a table of this store's database and `newRelation` one of
    /// the database attached as `schema` (`AttachingEngine.holdsTables`); false for an
    /// engine that attaches none.
    package func holdsTables(_ oldRelation: String, _ newRelation: String, attachedAs schema: String) throws -> Bool {
        guard let engine = engine as? any AttachingEngine else { return false }
        return try engine.holdsTables(oldRelation, newRelation, attachedAs: schema)
    }
}

import QuarryEngine

extension StoreConnection {
    /// `body` run with `other`'s database reachable from this connection's statements as
    /// schema `schema`, read-only (`StoreEngine.withAttached`); nil, `body` not run, when
    /// this engine cannot reach it (two engines, a store in memory).
    package func withAttached<T>(_ other: StoreConnection, as schema: String, _ body: () throws -> T) throws -> T? {
        guard !isClosed, !other.isClosed else { return nil }
        return try engine.withAttached(other.engine, as: schema, body)
    }
}

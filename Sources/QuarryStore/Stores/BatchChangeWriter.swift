import QuarryEngine
import QuarryModel

/// What a batch change (`updateall`, `deleteall`) asks of the engine it runs on, inside
/// one of its write transactions: how the matched rows are changed, and what follows. A
/// SQLite file's (`SQLiteBatchWriter`: values in their columns' formats, 500 keys at a
/// time, the delete rules followed by Quarry, the store's history) or a PostgreSQL
/// schema's (`PostgresBatchChanges`: one statement each with `RETURNING`, the foreign
/// keys' actions run by the server, the rows in use read back as it keeps them).
package protocol BatchChangeStatements {
    associatedtype Statements: WriteStatements
    /// `body` in one write transaction, its errors said as `operation`'s (`updateall`, `deleteall`).
    func transaction<T>(_ operation: String, _ body: (Statements) throws -> T) throws -> T
    /// What follows the query of the rows a `deleteall` matches, to keep them what they
    /// are until it commits (` FOR UPDATE`; nothing where the transaction locks the file).
    var lockingClause: String { get }
    /// Sets `assignments` on the rows of `entity` that `filter` matches. Returns their keys
    /// and the values as the rows keep them.
    func update(
        _ entity: EntityDescription, where filter: BatchFilter?, set assignments: [(String, Value)],
        in statements: Statements
    ) throws -> (keys: [Int64], assignments: [(String, Value)])
    /// After an update that changed some rows (`written.byEntity` named): the store's
    /// history, the values objects in use take.
    func didUpdate(_ written: inout BatchUpdateWritten, of entity: EntityDescription, in statements: Statements) throws
    /// Deletes the rows `keys` of `entity` (those `filter` matched) and what their delete
    /// rules reach, and records it where the store keeps a history. Returns the rows
    /// deleted, by their own entity.
    func delete(_ entity: EntityDescription, keys: [Int64], where filter: BatchFilter?, in statements: Statements) throws -> [String: [Int64]]
}

/// An engine whose write transaction locks what it reads (a file's).
extension BatchChangeStatements {
    package var lockingClause: String { "" }
}

/// `updateall` and `deleteall` on any engine, each in one transaction: the rows matched,
/// changed by the engine, named by their own entity (a SportCar updated as a Car is heard
/// as a SportCar). The context tells its objects once it returns.
package struct BatchChangeWriter<Engine: BatchChangeStatements> {
    let context: ObjectContext
    let engine: Engine

    package func writeUpdate(_ entity: EntityDescription, where filter: BatchFilter?, set given: [(String, Value)]) throws -> BatchUpdateWritten {
        try engine.transaction("updateall") { statements in
            var written = BatchUpdateWritten(keys: [], byEntity: [:], assignments: given)
            (written.keys, written.assignments) = try engine.update(entity, where: filter, set: given, in: statements)
            guard !written.keys.isEmpty else { return written }
            written.byEntity = try context.keysByOwnEntity([entity.name: Set(written.keys)], in: statements)
            try engine.didUpdate(&written, of: entity, in: statements)
            return written
        }
    }

    package func writeDelete(_ entity: EntityDescription, where filter: BatchFilter?) throws -> [String: [Int64]] {
        try engine.transaction("deleteall") { statements in
            let keys = try statements.keys(of: context.mapped(entity), where: filter, then: engine.lockingClause)
            let deleted = try engine.delete(entity, keys: keys, where: filter, in: statements)
            var linksWithoutInverse = LinksWithoutInverse(context: context)
            for (own, ownKeys) in deleted.sorted(by: { $0.key < $1.key }) {
                try linksWithoutInverse.remove(ownKeys, of: own, in: statements)
            }
            return deleted
        }
    }

    package init(session: StoreSession, engine: Engine) {
        self.context = session.context
        self.engine = engine
    }
}

extension WriteStatements {
    /// The keys of the rows of `storage` that `filter` matches (all without one), `clause`
    /// after the query.
    package func keys(of storage: EntityStorage, where filter: BatchFilter?, then clause: String = "") throws -> [Int64] {
        let condition = filter.map { " WHERE " + $0.sql } ?? ""
        return try rows("SELECT \(storage.key) FROM \(storage.table)\(condition)\(clause)", filter?.arguments ?? []).compactMap {
            $0.first?.storedInteger
        }
    }
}

import QuarryModel

/// What a store writes outside a save: `updateall`, `deleteall` and an import's rows,
/// each in one transaction.
package protocol StoreBatchWriting: AnyObject {
    /// How `updateall` and `deleteall` change the rows on this store's engine, for
    /// `session` (`BatchChangeWriter` writes the rest once for every engine).
    func batchChanges(session: StoreSession) throws -> any BatchChangeStatements
    /// Loads an import's rows in one transaction (making `entity`'s table first when
    /// `creating`) and returns how many: by the engine's own path, a server's COPY
    /// (`PostgresImport`) or a SQLite file's inserts bound in C (`ImportRequest+SQLite`).
    func load(
        _ request: ImportRequest, _ table: ImportTable, check: [ColumnType]?, attributes: [AttributeDescription],
        defaults: [AttributeDescription], entity: EntityDescription, creating: Bool, session: StoreSession,
        progress: ((Int, Int) -> Void)?
    ) throws -> Int
}

/// `updateall` and `deleteall` as every engine writes them (`BatchChangeWriter`), with
/// the engine's statements (`batchChanges`).
extension StoreBatchWriting {
    /// Writes `updateall` (after the context checked the values) in one transaction.
    package func writeBatchUpdate(
        _ entity: EntityDescription, where filter: BatchFilter?, set assignments: [(String, Value)],
        session: StoreSession
    ) throws -> BatchUpdateWritten {
        func update(_ engine: some BatchChangeStatements) throws -> BatchUpdateWritten {
            try BatchChangeWriter(session: session, engine: engine).writeUpdate(entity, where: filter, set: assignments)
        }
        return try update(try batchChanges(session: session))
    }

    /// Writes `deleteall` with the delete rules in one transaction; returns the rows
    /// deleted by their own entity.
    package func writeBatchDelete(_ entity: EntityDescription, where filter: BatchFilter?, session: StoreSession) throws -> [String: [Int64]] {
        func delete(_ engine: some BatchChangeStatements) throws -> [String: [Int64]] {
            try BatchChangeWriter(session: session, engine: engine).writeDelete(entity, where: filter)
        }
        return try delete(try batchChanges(session: session))
    }
}

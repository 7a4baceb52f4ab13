import QuarryModel

/// What a store writes outside a save: `updateall`, `deleteall` and an import's rows,
/// each in one transaction.
package protocol StoreBatchWriting: AnyObject {
    /// Writes `updateall` (after the context checked the values) in one transaction.
    func writeBatchUpdate(
        _ entity: EntityDescription, where filter: BatchFilter?, set assignments: [(String, Value)],
        session: StoreSession
    ) throws -> BatchUpdateWritten
    /// Writes `deleteall` with the delete rules in one transaction; returns the rows
    /// deleted by their own entity.
    func writeBatchDelete(_ entity: EntityDescription, where filter: BatchFilter?, session: StoreSession) throws -> [String: [Int64]]
    /// Loads an import's rows in one transaction (making `entity`'s table first when
    /// `creating`) and returns how many: by the engine's own path, a server's COPY
    /// (`PostgresImport`) or a SQLite file's inserts bound in C (`ImportRequest+SQLite`).
    func load(
        _ request: ImportRequest, _ table: ImportTable, check: [ColumnType]?, attributes: [AttributeDescription],
        defaults: [AttributeDescription], entity: EntityDescription, creating: Bool, session: StoreSession,
        progress: ((Int, Int) -> Void)?
    ) throws -> Int
}

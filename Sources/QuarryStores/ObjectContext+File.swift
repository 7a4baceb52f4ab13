import QuarryCoreData
import QuarryEngine
import QuarrySQLite
import QuarryStore

extension ObjectContext {
    /// Opens (or creates) the SQLite file at `path`; nil or ":memory:" is an in-memory
    /// store. `functions` are SQL functions installed on the connection (the predicate
    /// layer's). The file's kind is the first of `storeKinds` that recognises it.
    public convenience init(path: String?, readOnly: Bool = false, functions: [SQLFunction] = [], model: String? = nil) throws {
        StoreRegistry.prepare()
        let (connection, store) = try Self.openingFile(path, readOnly: readOnly, functions: functions, model: model, kinds: Self.storeKinds)
        try self.init(connection: connection, store: store)
        try finishOpeningFile()
    }

    /// The kinds of store a file may be, in the order they are asked to recognise it:
    /// Quarry's own (its model, or nothing yet), Core Data's, then any other program's.
    package static let storeKinds: [any OpenableStore.Type] = [QuarryFileStore.self, CoreDataStore.self, ForeignFileStore.self]
}

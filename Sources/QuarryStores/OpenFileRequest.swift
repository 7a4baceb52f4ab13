import QuarryCoreData
import QuarryEngine
import QuarrySQLite
import QuarryStore

/// Opening (or creating) a SQLite file as a context: the file's kind is the first of
/// `storeKinds` that recognises it. `path` nil or ":memory:" is an in-memory store;
/// `functions` are SQL functions installed on the connection (the predicate layer's);
/// `model` the model file for a Core Data store that carries none.
public struct OpenFileRequest {
    public var path: String?
    public var readOnly = false
    public var functions: [SQLFunction] = []
    public var model: String?

    public init(path: String?, readOnly: Bool = false, functions: [SQLFunction] = [], model: String? = nil) {
        self.path = path
        self.readOnly = readOnly
        self.functions = functions
        self.model = model
    }

    /// The kinds of store a file may be, in the order they are asked to recognise it:
    /// Quarry's own (its model, or nothing yet), Core Data's, then any other program's.
    /// Computed, as `StoreRegistry.servers` is.
    package static var storeKinds: [any OpenableStore.Type] { [QuarryFileStore.self, CoreDataStore.self, ForeignFileStore.self] }

    public func execute() throws -> ObjectContext {
        let (connection, store) = try SQLiteFileOpening.open(
            path, readOnly: readOnly, functions: functions, model: model, kinds: Self.storeKinds,
            extensions: StoreRegistry.connectionExtensions)
        let context = try ObjectContext(connection: connection, store: store, environment: StoreRegistry.environment)
        try SQLiteFileOpening.finish(connection, store)
        return context
    }

    /// `OpenFileRequest(path: …).execute()`.
    public static func open(path: String?, readOnly: Bool = false, functions: [SQLFunction] = [], model: String? = nil) throws
        -> ObjectContext
    {
        try OpenFileRequest(path: path, readOnly: readOnly, functions: functions, model: model).execute()
    }
}

extension CoreDataStore {
    /// The Core Data store behind `context`, when it is one: for tests of the Core Data
    /// layer. Here, not in `QuarryCoreData`, which never sees a context; layers above ask
    /// `capabilities`.
    public static func behind(_ context: ObjectContext) -> CoreDataStore? { context.store as? CoreDataStore }
}

import QuarryModelFiles
import QuarryStore
import QuarryPostgreSQL

/// Opens every store, from a file's path or a server's URL: the one place that knows the
/// kinds of location there are. Layers above ask the store it opens for what it can do
/// (`ObjectContext.capabilities`), never for its kind. A file is then recognised by its
/// contents (`ObjectContext.storeKinds`: Quarry's own, Core Data's, another program's).
public enum StoreRegistry {
    /// The servers Quarry speaks to, asked in order before a location is taken as a file.
    /// A new engine is one more entry here.
    static let servers: [any ServerStoreKind.Type] = [PostgresServerKind.self]

    /// Gives the layers below what only the layouts can do: reading the model a Core Data
    /// store carries where a model file is asked for (`CoreDataModel.readingStore`). Done
    /// once, before any model is read; opening a SQLite file does it too.
    public static func prepare() { _ = prepared }
    private static let prepared: Void = CoreDataStore.readModelsOfStores()

    /// A context over the store `location` names: a server's, or else a SQLite file's
    /// (nil: a store in memory). `functions`: SQL functions a file's connection needs (the
    /// predicate layer's; a server defines its own). `model`: the model file for a Core
    /// Data store that carries none.
    public static func open(_ location: String?, readOnly: Bool = false,
                            functions: [SQLFunction] = [], model: String? = nil) throws -> ObjectContext {
        if let location, let server = server(claiming: location) { return try server.open(location, readOnly: readOnly) }
        return try ObjectContext(path: location, readOnly: readOnly, functions: functions, model: model)
    }

    /// Whether `location` names a file (or memory), not a server.
    public static func namesFile(_ location: String) -> Bool { server(claiming: location) == nil }

    /// `text` with the secrets of every server address in it left out, for history files.
    public static func withoutSecrets(in text: String) -> String {
        servers.reduce(text) { $1.withoutSecrets(in: $0) }
    }

    static func server(claiming location: String) -> (any ServerStoreKind.Type)? {
        servers.first { $0.claims(location) }
    }
}

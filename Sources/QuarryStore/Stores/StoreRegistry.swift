/// A kind of database server a location names (`postgres://…`), as opposed to a file:
/// what the registry needs to know of it to open it, and to keep its secrets out of
/// messages and history.
public protocol ServerStoreKind {
    /// Whether `location` is written as this server's address (and so is not a file's path).
    static func claims(_ location: String) -> Bool
    /// A context over the store at `location`.
    static func open(_ location: String, readOnly: Bool) throws -> ObjectContext
    /// `text` (a line a person typed) with every secret of an address of this kind left out.
    static func withoutSecrets(in text: String) -> String
}

/// Opens every store, from a file's path or a server's URL: the one place that knows the
/// kinds of location there are. Layers above ask the store it opens for what it can do
/// (`ObjectContext.capabilities`), never for its kind. A file is then recognised by its
/// contents (`ObjectContext.storeKinds`: Quarry's own, Core Data's, another program's).
public enum StoreRegistry {
    /// The servers Quarry speaks to, asked in order before a location is taken as a file.
    /// A new engine is one more entry here.
    static let servers: [any ServerStoreKind.Type] = [PostgresServer.self]

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

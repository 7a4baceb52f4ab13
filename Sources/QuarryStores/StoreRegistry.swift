import QuarryCoreData
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryPostgreSQL
import QuarrySQLite
import QuarryStore

/// Opens every store, from a file's path or a server's URL: the one place that knows the
/// kinds of location there are. Layers above ask the store it opens for what it can do
/// (`ObjectContext.capabilities`), never for its kind. A file is then recognised by its
/// contents (`OpenFileRequest.storeKinds`: Quarry's own, Core Data's, another program's).
public enum StoreRegistry {
    /// The servers Quarry speaks to, asked in order before a location is taken as a file.
    /// A new engine is one more entry here. Computed: a list of metatypes held in a
    /// global would be state Swift 6 asks to be Sendable.
    static var servers: [any ServerStoreKind.Type] { [PostgresServerKind.self] }

    /// What the layers below get from the ones that know every engine and layout, handed
    /// to each context this registry opens: reading the model a Core Data store carries
    /// where a model file is asked for, and the in-memory store `model()` rehearses its
    /// definitions in.
    public static var environment: StoreEnvironment {
        StoreEnvironment(readingModel: readModel, makeScratch: { try OpenFileRequest.open(path: nil) })
    }

    /// What every SQLite connection installs for the layouts a file may be: Core Data's
    /// functions (its views and triggers call them) and its external data.
    package static let connectionExtensions = [CoreDataConnection.connectionExtension]

    /// Reads the model at `path` (a model file or folder, or a store that carries one).
    public static func readModel(_ path: String) throws -> CoreDataModel {
        try CoreDataModel.load(contentsOf: path, readingStore: CoreDataModel.fromStore(atPath:))
    }

    /// A context over the store `location` names: a server's, or else a SQLite file's
    /// (nil: a store in memory). `functions`: SQL functions a file's connection needs (the
    /// predicate layer's; a server defines its own). `model`: the model file for a Core
    /// Data store that carries none.
    public static func open(
        _ location: String?, readOnly: Bool = false,
        functions: [SQLFunction] = [], model: String? = nil
    ) throws -> ObjectContext {
        if let location, let server = server(claiming: location) {
            let (connection, store) = try server.open(location, readOnly: readOnly)
            return try ObjectContext(connection: connection, store: store, environment: environment)
        }
        return try OpenFileRequest.open(path: location, readOnly: readOnly, functions: functions, model: model)
    }

    /// The engines' versions, for `--version` ("SQLite 3.40.1").
    public static var engineVersions: String { "SQLite \(sqliteVersion)" }

    /// Bounds the heap of every engine that keeps one in the process (SQLite's), by
    /// `--memory` as the Lua heap is; 0: none. Called once, before any connection runs a
    /// statement.
    public static func limitEngineMemory(bytes: Int) { SQLiteHeap.limit(bytes: bytes) }

    /// Whether the database file at `path` holds no schema (no table, index, view or
    /// trigger): nothing was ever written to it. False for anything else, or no file.
    public static func holdsNothing(file path: String) -> Bool { EmptyDatabaseFile.holdsNothing(atPath: path) }

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

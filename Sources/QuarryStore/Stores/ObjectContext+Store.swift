import GRDB

/// The context's side of its store: which store is behind it, and what the layers above
/// may ask of it.
extension ObjectContext {
    /// The kinds of store a file may be, in the order they are asked to recognise it:
    /// Quarry's own (its model, or nothing yet), Core Data's, then any other program's.
    static let storeKinds: [any OpenableStore.Type] = [QuarryFileStore.self, CoreDataStore.self, ForeignFileStore.self]

    /// Opens the connection's file as the first kind that recognises it (one read asks
    /// them all), and adopts the store. `modelPath`: the model file for a Core Data store
    /// that carries none.
    func openStore(modelPath: String?) throws {
        let kind = try read { db in try Self.storeKind(of: db, path: path) }
        let opened = try kind.open(connection, modelPath: modelPath)
        adopt(opened)
        try opened.didOpen(in: self)
    }

    /// The first kind in `storeKinds` that recognises the file behind `db`; Quarry's when
    /// none does.
    static func storeKind(of db: Database, path: String?) throws -> any OpenableStore.Type {
        try storeKinds.first { try $0.recognizes(db, path: path) } ?? QuarryFileStore.self
    }

    /// Puts `newStore` behind the context, its model and mapping as it holds them.
    func adopt(_ newStore: any PersistentStore) {
        store = newStore
    }

    /// The SQL the store speaks, for the predicate and fetch layers' SQL.
    public var sqlDialect: any SQLDialect { store.dialect }

    /// The Core Data store behind the context, when it is one: for the Core Data layer's
    /// own code and its tests. Layers above ask `capabilities` and the members below.
    public var coreData: CoreDataStore? { store as? CoreDataStore }

    /// What the store behind the context can do, for layers that must not ask its kind.
    public var capabilities: StoreCapabilities {
        guard coreData != nil else { return [] }
        // SwiftData names its stores `default.store`; Core Data's templates `.sqlite`.
        return (path ?? "").hasSuffix(".store") ? [.appModel, .swiftData] : [.appModel]
    }

    /// The model an app compiled and wrote the store with (its class names), when the
    /// store has one (`StoreCapabilities.appModel`).
    public var appModel: CoreDataModel? { coreData?.model }

    /// For each entity `sql` reads whose rows the store lays out in tables of its own (a
    /// Core Data store's Z-tables), the SQL that reads them: what `explain` adds.
    public func tablesRead(by sql: String) -> [(entity: String, sql: String)] {
        coreData?.tableSQL(readBy: sql) ?? []
    }

    /// The engine behind the context as the REPL's banner names it, without secrets.
    public var engineDescription: String {
        connection.engineDescription
    }

    /// The entity a row of `entity`'s hierarchy is, by the value of its entity column as
    /// read (`StoreRow.value(at:)`); nil when it names none of them.
    public func ownEntity(of entity: EntityDescription, tag: Value) -> EntityDescription? {
        ownEntity(of: entity, tag: tag.databaseValue)
    }
}

/// The context's side of its store: which store is behind it, and what the layers above
/// may ask of it.
extension ObjectContext {
    /// Puts `newStore` behind the context, with what the open found so far (a store's kind
    /// is known only once the file has been read).
    func adopt(_ newStore: any PersistentStore) {
        newStore.managedObjectModel = store.managedObjectModel
        newStore.mapping = store.mapping
        store = newStore
    }

    /// The SQL the store speaks, for the predicate and fetch layers' SQL.
    public var sqlDialect: any SQLDialect { store.dialect }

    /// The Core Data store behind the context, when it is one (its layout, for `explain`
    /// and for the Core Data layer's own code).
    public var coreData: CoreDataStore? { store as? CoreDataStore }

    /// The entity a row of `entity`'s hierarchy is, by the value of its entity column as
    /// read (`StoreRow.value(at:)`); nil when it names none of them.
    public func ownEntity(of entity: EntityDescription, tag: Value) -> EntityDescription? {
        ownEntity(of: entity, tag: tag.databaseValue)
    }
}

import QuarryModel

/// One kind of file behind a context, as Core Data's `NSPersistentStore`: what a write
/// must keep beyond the rows themselves (a Core Data store's version counters, ordering
/// columns and persistent history; Quarry's own history table; nothing of Quarry's in a
/// file Quarry did not create). The context keeps the objects and orchestrates a save; it
/// hands the rows to the store and asks it at each point the verbs below name, and never
/// asks which kind of store it has.
///
/// The seam is split by verb, each protocol answering one: reading (`StoreReading`),
/// writing a save (`StoreSaving`), batch changes and imports (`StoreBatchWriting`),
/// defining (`StoreDefining`), history (`StoreHistory`) and ordering (`StoreOrdering`).
/// A store is all of them; none adds a requirement here.
///
/// Stores are chosen when the file is opened: each kind recognises its files and opens
/// them (`OpenableStore`), and the context adopts the first that does
/// (`ObjectContext.openStore`). The next kind (another database, another file
/// convention) is one more conformance.
package protocol PersistentStore: StoreReading, StoreSaving, StoreBatchWriting, StoreDefining, StoreHistory, StoreOrdering {}

/// What happened to the context's pending changes (`PersistentStore.pendingChanges`).
package enum PendingChangeEvent {
    /// An object's pending changes began (or grew): note what optimistic locking compares.
    case changed(ManagedObject)
    /// An object has no pending change left.
    case unchanged(ManagedObject)
    /// The pending changes were saved or rolled back.
    case ended
    /// The context took in the store's current values (`refreshFromStore`).
    case refreshed
}

/// What a store keeps beyond the session (`PersistentStore.keep`).
package enum Keeping {
    /// `model()`'s fetch request templates, replacing any of the same name (Quarry's
    /// table in its own stores, another program's file's sidecar).
    case templates([CoreDataFetchRequest])
    /// A `relate()` call, replayed at the next open (another program's file's sidecar).
    case relation(ForeignSidecar.Relation)
    /// The relationship `relate()` just made between `from` and `to` (their definitions
    /// with it, the model's still without) through `column`, where the store keeps it in
    /// its model (`keepsRelationInModel`): both tables written with the indexes its joins
    /// use, in one transaction.
    case link(from: EntityDescription, to: EntityDescription, column: String, targetKey: String?)
    /// A `format()` declaration (another program's file's sidecar).
    case format(ForeignSidecar.Format)
}

/// What a store decided to write besides the rows, from `prepare` to the end of the save
/// (Core Data's: the ordered relationships whose positions it rewrites), kept for it by
/// the context, which does not look inside.
package struct StoreSaveWork {
    package var planned: Any?
    package init(planned: Any? = nil) { self.planned = planned }
}

extension PersistentStore {
    /// Whether `relate()` between `from` and `to` is kept in the store's own model (a
    /// store Quarry manages, both entities its own) rather than replayed at each open.
    package func keepsRelationInModel(_ from: EntityDescription, _ to: EntityDescription) -> Bool {
        isQuarrysFile && !mapping.storage(of: from).isForeign && !mapping.storage(of: to).isForeign
    }

    /// Whether rows laid out by `storage` are another program's table, whose to-many
    /// inverses toward Quarry's entities are derived from their declarations at each open
    /// and never kept with it.
    package func derivesInverses(for storage: EntityStorage) -> Bool { storage.isForeign }

    /// The same for the table `name` the store holds (an entity being defined for the
    /// first time is none).
    package func derivesInverses(of name: String) -> Bool { isOtherProgramsTable(name) && derivesInverses(for: mapping.storage(of: name)) }

    /// Whether `name` is another program's table (or view) the store holds: an entity it
    /// knows and keeps no declaration of. An entity being defined for the first time is
    /// none. Such a table gains a Quarry entity's inverses without being Quarry's to write.
    package func isOtherProgramsTable(_ name: String) -> Bool {
        managedObjectModel.entitiesByName[name] != nil && !keepsDeclaration(of: name)
    }
}

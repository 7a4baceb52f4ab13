import QuarryModel

/// What a store's model and mapping are made of, as opening reads them and as `define`
/// and introspection change them. The context's `remember` adds only what is the
/// context's: objects in use take a redefined entity's description.
extension PersistentStore {
    /// Adds or replaces `entity`, its rows kept where `storage` says (when nil, where the
    /// mapping already placed them, else in Quarry's own table); returns the description
    /// it replaced.
    @discardableResult
    package func remember(_ entity: EntityDescription, storage: EntityStorage? = nil) -> EntityDescription? {
        let previous = managedObjectModel.entitiesByName[entity.name]
        if previous == nil { managedObjectModel.appendToOrder(entity.name) }
        managedObjectModel.setEntity(entity, named: entity.name)
        if let storage { mapping.place(entity.name, storage) }
        return previous
    }

    /// Adds an entity as the store keeps its declaration (`quarry_model`, a sidecar).
    package func rememberDeclared(_ entity: EntityDescription) {
        remember(entity)
        managedObjectModel.setDeclared(entity, named: entity.name)
    }

    /// The entities of `names`, as objects see them in their hierarchies (inherited and
    /// sub-entities' keys included, `ManagedObjectModel.effective`).
    func effectiveEntities(_ names: [String]) -> [EntityDescription] {
        let declared = managedObjectModel.declaredMap
        return names.compactMap { ManagedObjectModel.effective($0, in: declared, order: managedObjectModel.entityOrder) }
    }

    /// Once the declarations are read: entities in a hierarchy are seen with their
    /// inherited and sub-entities' keys.
    package func rememberHierarchies() {
        guard managedObjectModel.declaredByName.values.contains(where: { $0.parent != nil }) else { return }
        for entity in effectiveEntities(managedObjectModel.entityOrder) { remember(entity) }
    }
}

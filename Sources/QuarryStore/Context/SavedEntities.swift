import QuarryModel

/// What a step of a save asks of each object's entity (its current description, where
/// its rows are, its hierarchy's root), looked up once for the objects of one entity
/// rather than for each: the lookups, each copying the entity's description out of the
/// store's model, were a tenth of a save of 20,000 new objects (issue 62). Made for one
/// step and dropped with it, as the model may change between saves.
package struct SavedEntities {
    /// One entity's answers, read in place (a class: no description is copied per object).
    package final class Entity {
        /// As `ObjectContext.currentEntity(of:)` gives it.
        package let current: EntityDescription
        /// As `ObjectContext.mapped(_:)` gives it.
        package let storage: EntityStorage
        /// As `ObjectContext.rootName(of:)` gives it.
        package let root: String
        /// Whether the key column is also an attribute (a file Quarry did not create: `id`).
        package let keyIsAttribute: Bool
        /// The names of the to-one relationships whose keys its own row keeps in columns
        /// of Quarry's (`ownKeyColumns`).
        package let ownKeyColumns: [String]

        init(_ object: ManagedObject, in context: ObjectContext) {
            current = context.currentEntity(of: object)
            storage = context.mapped(object.entity)
            root = context.rootName(of: object.entity.name)
            keyIsAttribute = current.attribute(named: storage.keyColumn) != nil
            ownKeyColumns = current.ownKeyColumns.map(\.name)
        }
    }

    private let context: ObjectContext
    private var byName: [String: Entity] = [:]
    /// The last one asked for: objects of one entity come in runs.
    private var last: Entity?
    private var lastName = ""

    package init(_ context: ObjectContext) { self.context = context }

    package mutating func of(_ object: ManagedObject) -> Entity {
        let name = object.entity.name
        if let last, name == lastName { return last }
        // An object of an entity the model no longer has keeps its own description: not
        // shared with another object of the same name.
        guard context.managedObjectModel.entitiesByName[name] != nil else { return Entity(object, in: context) }
        let entity = byName[name] ?? Entity(object, in: context)
        byName[name] = entity
        last = entity
        lastName = name
        return entity
    }
}

/// Inheritance in the tables Quarry makes in a PostgreSQL schema, stored as a Quarry file
/// stores it and reshaped by the same code (`HierarchyReshape`, with
/// `PostgresHierarchyTables` for the server's statements). What may change is decided
/// before this by the rules shared with a Quarry file (`hierarchyProblem`: a parent is
/// defined first, a key appears once per hierarchy, an entity with rows keeps its parent).
extension PostgresStore {
    /// Whether a definition of `entities` reshapes a hierarchy (one of them has or had a
    /// parent, or has sub-entities), as a Quarry file decides it (`writeDefinition`).
    func isHierarchical(_ entities: [EntityDescription]) -> Bool {
        entities.contains { e in
            e.parent != nil || managedObjectModel.isInHierarchy(e.name) || managedObjectModel.declaredEntity(e.name)?.parent != nil
        }
    }

    /// Brings every hierarchy `changed` touches to its new shape, inside the caller's
    /// write transaction (`HierarchyReshape`). Returns the members of those hierarchies,
    /// and the tables made.
    func writeHierarchies(_ changed: [EntityDescription], _ server: PostgresConnection) throws -> (touched: [String], made: [String]) {
        let after = Definitions(self, changed)
        return try HierarchyReshape(old: managedObjectModel.declaredMap, new: after.declared, order: after.order)
            .run(changed, on: PostgresHierarchyTables(store: self, server: server))
    }
}

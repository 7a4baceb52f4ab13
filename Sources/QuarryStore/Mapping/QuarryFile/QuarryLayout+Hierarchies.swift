import Foundation
import QuarryModel

/// Inheritance in the tables Quarry makes (`SQLiteStore+QuarryTables`), stored as
/// Core Data stores it: one table per root entity, holding the columns of its whole
/// hierarchy and `_entity` naming each row's entity; every other entity of the hierarchy
/// is a view of that table (its own rows and its sub-entities') whose INSTEAD OF triggers
/// write the table. So all SQL written against an entity's name (fetches, predicates,
/// saves, batch changes, delete rules) works unchanged, as it does over a Core Data
/// store's views. In Quarry's own files the views are kept in the file, so reopening it
/// needs only the model; in someone else's they are TEMP, made again at each open
/// (`remakeHierarchyViews`), and the file gains only the root's table.
///
/// `quarry_model` keeps each entity as declared (its own attributes and relationships,
/// `managedObjectModel.declaredByName`); `managedObjectModel.entitiesByName` holds it as
/// objects and queries see it (`effective`).
extension PersistentStore {
    /// Why `definition` cannot take its place in the hierarchies of `declared`; nil when it can.
    func hierarchyProblem(_ definition: EntityDescription, declared old: [String: EntityDescription], context: ObjectContext) throws -> String? {
        // Alone in its hierarchy, before and after: no family to clash with, no rows to
        // move. Known at once in a batch (`DefinitionIndex`), else found below.
        if definition.parent == nil, old[definition.name]?.parent == nil, let definitionIndex = managedObjectModel.definitionIndex,
            !definitionIndex.hasSubentities(definition.name)
        {
            return nil
        }
        var declared = old
        declared[definition.name] = definition
        let previous = old[definition.name]
        if let parent = definition.parent {
            if parent == definition.name { return "it cannot be its own parent" }
            guard let entity = managedObjectModel.entitiesByName[parent] else {
                return "its parent \(parent) is not defined (define the parent first)"
            }
            if !keepsDeclaration(of: entity.name) || mapping.storage(of: entity).isView {
                return "its parent \(parent) is not an entity of Quarry's (a table or view of the file)"
            }
            var seen: Set<String> = [definition.name]
            var next: String? = parent
            while let name = next {
                if !seen.insert(name).inserted { return "parent \(parent) would make a cycle (\(parent) inherits from \(definition.name))" }
                next = declared[name]?.parent
            }
        }
        // One table holds the whole hierarchy: a key means one column in it.
        let root = ManagedObjectModel.root(of: definition.name, in: declared)
        let order = managedObjectModel.entityOrder + (managedObjectModel.entityOrder.contains(definition.name) ? [] : [definition.name])
        let family = [declared[root]].compactMap { $0 } + ManagedObjectModel.below(root, in: declared, order: order)
        let related = Set(
            ManagedObjectModel.ancestors(of: definition.name, in: declared).map(\.name)
                + ManagedObjectModel.below(definition.name, in: declared, order: order).map(\.name))
        for key in definition.keyNames {
            for other in family where other.name != definition.name && other.keyNames.contains(where: { $0.lowercased() == key.lowercased() }) {
                if related.contains(other.name) {
                    let isAncestor = ManagedObjectModel.ancestors(of: definition.name, in: declared).contains { $0.name == other.name }
                    return "'\(key)' is already a key of \(isAncestor ? "its ancestor" : "its sub-entity") \(other.name)"
                }
                return "'\(key)' is also a key of \(other.name), in the same hierarchy (one table holds them both; declare it on a common parent)"
            }
        }
        // A sub-entity's rows are not all its root table's: its own are counted here (the
        // root table's migration sees its new columns as optional).
        if let previous, previous.parent == definition.parent, definition.parent != nil,
            let added = definition.attributes.first(where: {
                !$0.isOptional && $0.defaultValue == nil && $0.renamedFrom == nil && previous.attribute(named: $0.name) == nil
            })
        {
            let rows = try rowCount(of: definition.name, context: context)
            if rows > 0 { return "new attribute '\(added.name)' is required, so the \(rows) existing rows need a default" }
        }
        // Moving an entity to another hierarchy (or out of one) moves no rows: only an empty one moves.
        if let previous, previous.parent != definition.parent {
            if managedObjectModel.hasSubentities(definition.name) {
                return
                    "changing its parent from \(previous.parent ?? "none") to \(definition.parent ?? "none") would move its sub-entities too; not supported"
            }
            let rows = try rowCount(of: definition.name, context: context)
            if rows > 0 {
                return
                    "changing its parent from \(previous.parent ?? "none") to \(definition.parent ?? "none") with \(rows) \(rows == 1 ? "row" : "rows") in it is not supported (Quarry moves no rows between tables)"
            }
        }
        return nil
    }

    /// The rows of entity `name` (its sub-entities' included), through the connection.
    private func rowCount(of name: String, context: ObjectContext) throws -> Int {
        Int(try context.connection.scalar("SELECT count(*) FROM \(mapping.storage(of: name).table)")?.storedInteger ?? 0)
    }

    /// A sub-entity's view over its root's table (its rows are those whose `_entity` is it or
    /// one of its sub-entities) and the triggers that write through it: an insert tags the
    /// row with the entity, an update writes every column back (NEW holds the old value of
    /// each column not assigned), a delete deletes. `temporary` makes them in the
    /// connection's TEMP schema (a file Quarry did not create).
    package static func viewSQL(_ entity: EntityDescription, table root: String, tags: [String], temporary: Bool) -> [String] {
        let storage = EntityStorage.quarry(entity.name)
        let view = storage.table
        let table = quoteIdentifier(root)
        let key = storage.key
        let tag = quoteIdentifier(EntityStorage.entityColumn)
        let columns = (entity.attributeNames + entity.ownKeyColumns.map(\.name)).map(quoteIdentifier)
        func trigger(_ what: String) -> String { quoteIdentifier("quarry_\(entity.name)_\(what)") }
        let selected = ([key, tag] + columns).joined(separator: ", ")
        let (viewKind, triggerKind) = temporary ? ("TEMP VIEW", "TEMP TRIGGER") : ("VIEW", "TRIGGER")
        let assignments = columns.isEmpty ? ["\(key) = OLD.\(key)"] : columns.map { "\($0) = NEW.\($0)" }
        return [
            "CREATE \(viewKind) \(view) AS SELECT \(selected) FROM \(table) WHERE \(tag) IN (\(tags.joined(separator: ", ")))",
            "CREATE \(triggerKind) \(trigger("insert")) INSTEAD OF INSERT ON \(view) BEGIN INSERT INTO \(table) (\(([key, tag] + columns).joined(separator: ", "))) VALUES (\((["NEW.\(key)", quoteLiteral(entity.name)] + columns.map { "NEW.\($0)" }).joined(separator: ", "))); END",
            "CREATE \(triggerKind) \(trigger("update")) INSTEAD OF UPDATE ON \(view) BEGIN UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(key) = OLD.\(key); END",
            "CREATE \(triggerKind) \(trigger("delete")) INSTEAD OF DELETE ON \(view) BEGIN DELETE FROM \(table) WHERE \(key) = OLD.\(key); END"
        ]
    }
}

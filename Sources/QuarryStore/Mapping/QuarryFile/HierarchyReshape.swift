import QuarryEngine
import QuarryModel

/// The tables of Quarry's layout as reshaping a hierarchy needs them, beyond a table's
/// (`QuarryTableStatements`: its statements, relations and indexes), on one engine: a
/// SQLite file's (`SQLiteQuarryTables`) or a PostgreSQL schema's (`PostgresQuarryTables`).
/// What to reshape is decided once, by `HierarchyReshape`; each engine says only how its
/// tables, views and indexes are written.
package protocol HierarchyTables: QuarryTableStatements {
    /// Whether `root`'s table, declared before, exists to be migrated (else it is made).
    func holdsTable(_ root: String) -> Bool
    /// Drops the table of a root that takes a parent (an empty entity: its rows would be
    /// its new root's).
    func dropTable(_ root: String) throws
    /// Creates a root's table, refusing a name another table or view has.
    func create(_ root: EntityDescription) throws
    /// Migrates a root's table in place to the hierarchy's new shape.
    func migrate(_ before: EntityDescription, to after: EntityDescription) throws
    /// Refuses a new member's name (a root's, a view's) when another table or view has it.
    func refuseNewMember(_ name: String) throws
    /// Adds the entity column (`EntityStorage.entityColumn`) to a root's table that has
    /// none yet, its rows the root's own.
    func addEntityColumnIfMissing(_ root: String) throws
    /// Makes a member's view over its root's table: the rows whose entity is one of `tags`
    /// (entity names: the member's own and its sub-entities').
    func makeView(_ member: EntityDescription, root: String, tags: [String]) throws
    /// Makes the unique indexes of a hierarchy's `members` (the root among them, `tags`
    /// nil when it is alone) what their constraints say; `old`: the declarations before;
    /// `made`: whether the root's table was just made.
    func syncUniqueness(root: String, members: [(entity: EntityDescription, tags: [String]?)], old: [String: EntityDescription], made: Bool) throws
}

/// A root's table made and migrated as an entity alone's is, on every engine.
extension HierarchyTables {
    /// A root declared before has its table: the database holds no other of its name.
    package func holdsTable(_ root: String) -> Bool { true }
    /// A new member's name is refused where a new table's is.
    package func refuseNewMember(_ name: String) throws { try refuseTaken(name) }
    /// Its name refused as a new member's, then made as an entity alone's table is.
    package func create(_ root: EntityDescription) throws {
        try refuseNewMember(root.name)
        try TableCreation(entity: root).run(on: self, refusingTaken: false)
    }
    package func migrate(_ before: EntityDescription, to after: EntityDescription) throws {
        try TableMigration(old: before, new: after).run(on: self)
    }
}

/// Inheritance in Quarry's own tables, reshaped as definitions change, on any engine: one
/// table per root entity holds the columns of its whole hierarchy and the entity column
/// naming each row's entity; every other member is a view of that table. What may change
/// was decided before (`hierarchyProblem`); this brings every hierarchy `changed` touches
/// to its new shape inside the caller's transaction.
struct HierarchyReshape {
    /// The declarations before and after, and the order of definition after.
    let old: [String: EntityDescription]
    let new: [String: EntityDescription]
    let order: [String]

    /// Root tables created or migrated, the members' views made again, their uniqueness
    /// constraints, new sub-entity attributes filled with their defaults. Returns the
    /// members of the hierarchies reshaped, and the roots whose tables were made.
    package func run(_ changed: [EntityDescription], on tables: some HierarchyTables) throws -> (touched: [String], made: [String]) {
        var roots: [String] = []
        for entity in changed {
            if old[entity.name] != nil { roots.append(ManagedObjectModel.root(of: entity.name, in: old)) }
            roots.append(ManagedObjectModel.root(of: entity.name, in: new))
        }
        var touched: [String] = []
        var made: [String] = []
        var seen: Set<String> = []
        for root in roots where seen.insert(root).inserted {
            let wasRoot = old[root].map { $0.parent == nil } ?? false
            let isRoot = new[root].map { $0.parent == nil } ?? false
            let oldFamily = wasRoot ? [root] + ManagedObjectModel.below(root, in: old, order: order).map(\.name) : []
            let newFamily = isRoot ? [root] + ManagedObjectModel.below(root, in: new, order: order).map(\.name) : []
            // The views name the table's columns, which the migration may drop or rename.
            var dropped: Set<String> = []
            for member in oldFamily + newFamily where member != root && dropped.insert(member).inserted {
                try tables.statements.run("DROP VIEW IF EXISTS \(tables.relation(member))", [])
            }
            touched += oldFamily + newFamily
            if wasRoot, !isRoot { try tables.dropTable(root) }
            guard isRoot, let storage = ManagedObjectModel.effective(root, in: new, order: order) else { continue }
            let isMade: Bool
            if wasRoot, tables.holdsTable(root), let before = ManagedObjectModel.effective(root, in: old, order: order) {
                try tables.migrate(before, to: storage)
                isMade = false
            } else {
                try tables.create(storage)
                made.append(root)
                isMade = true
            }
            guard newFamily.count > 1 else {
                if let alone = new[root] { try tables.syncUniqueness(root: root, members: [(alone, nil)], old: old, made: isMade) }
                continue
            }
            try tables.addEntityColumnIfMissing(root)
            for member in newFamily where member != root {
                if !oldFamily.contains(member) { try tables.refuseNewMember(member) }
                guard let entity = ManagedObjectModel.effective(member, in: new, order: order) else { continue }
                try tables.makeView(entity, root: root, tags: tags(of: member))
            }
            try tables.syncUniqueness(
                root: root, members: newFamily.compactMap { member in new[member].map { ($0, tags(of: member)) } }, old: old, made: isMade)
            try fillDefaults(newFamily.filter { $0 != root }, tables)
        }
        return (touched, made)
    }

    /// The entity column's values of `member`'s rows: its own name and its sub-entities'.
    private func tags(of member: String) -> [String] {
        [member] + ManagedObjectModel.below(member, in: new, order: order).map(\.name)
    }

    /// New sub-entity attributes with defaults: the entity's existing rows take them. One
    /// made required: its nils take the default, or the migration is refused, as a root
    /// entity's is (the root table's migration sees sub-entity columns as optional, since
    /// other members' rows hold nil there).
    private func fillDefaults(_ members: [String], _ tables: some HierarchyTables) throws {
        for member in members {
            guard let before = old[member], let after = new[member] else { continue }
            let view = tables.relation(member)
            for attribute in after.attributes where before.attribute(named: attribute.name) == nil && attribute.renamedFrom == nil {
                guard let value = attribute.defaultValue, case .success(let coerced) = attribute.type.coerce(value) else { continue }
                try tables.statements.run("UPDATE \(view) SET \(quoteIdentifier(attribute.name)) = ?", [coerced])
            }
            for attribute in after.attributes where !attribute.isOptional && before.attribute(named: attribute.name)?.isOptional == true {
                let column = quoteIdentifier(attribute.name)
                let nulls = try tables.statements.count("SELECT count(*) FROM \(view) WHERE \(column) IS NULL")
                guard nulls > 0 else { continue }
                guard let value = attribute.defaultValue, case .success(let coerced) = attribute.type.coerce(value) else {
                    throw StoreError.migrationRefused(
                        entity: member,
                        reason: "'\(attribute.name)' would become required, but \(nulls) rows have nil and there is no default")
                }
                try tables.statements.run("UPDATE \(view) SET \(column) = ? WHERE \(column) IS NULL", [coerced])
            }
        }
    }
}

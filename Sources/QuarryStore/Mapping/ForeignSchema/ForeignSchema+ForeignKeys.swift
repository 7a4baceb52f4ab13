/// The foreign keys of another program's schema as relationships, decided once for every
/// engine from its description (`ForeignSchema`): a key of one column naming its parent's
/// key (or another column of it, which the engine requires to be unique) is a to-one
/// relationship with an inverse to-many, named by the foreign-file conventions
/// (`ForeignFileStore+Naming`), its delete rule the key's ON DELETE action. A key of
/// several columns is read as its columns, attributes, and said in one note: a
/// relationship is kept in one column of its entity's row (`RelationshipStorage`), so
/// setting one could not write both of the key's columns. (A join table's ends of several
/// columns are many-to-many all the same: `ForeignSchema+JoinTables`.)
extension ForeignSchema {
    /// The to-one relationships of `tables` (entities, in order), each table's keys in the
    /// order of their first column; `isParent` says which entities a key may name (a
    /// PostgreSQL schema's tables Quarry defined keep their own relationships).
    func addForeignKeys(of tables: [String], isParent: (String) -> Bool = { _ in true }, in context: ObjectContext) throws {
        for table in tables {
            guard let relation = relations[table] else { continue }
            for key in relation.foreignKeys.sorted(by: { ($0.columns.first ?? "") < ($1.columns.first ?? "") }) {
                guard isParent(key.parent), context.managedObjectModel.entitiesByName[key.parent] != nil,
                      context.managedObjectModel.entitiesByName[table] != nil else { continue }
                guard key.columns.count == 1, let column = key.columns.first else { continue }
                guard namesParentColumns(key) else {
                    context.openingNotes.append(unusableKeyNote(table, key))
                    continue
                }
                try addForeignKey(table, column: column, parent: key.parent, to: referencedColumns(of: key)?.first, onDelete: key.onDelete, in: context)
            }
        }
    }

    /// Says of each foreign key of several columns of `tables` (entities) to an entity that
    /// it is read as its columns, unless it is an end of a join table (`joined`), whose
    /// pair it gives.
    func noteSeveralColumnKeys(of tables: [String], joined: Set<String>, isParent: (String) -> Bool = { _ in true }, in context: ObjectContext) {
        for table in tables where !joined.contains(table) {
            guard let relation = relations[table], context.managedObjectModel.entitiesByName[table] != nil else { continue }
            for key in relation.foreignKeys.sorted(by: { $0.columns.lexicographicallyPrecedes($1.columns) }) where key.columns.count > 1 {
                guard isParent(key.parent), context.managedObjectModel.entitiesByName[key.parent] != nil else { continue }
                context.openingNotes.append(namesParentColumns(key) ? Self.severalColumnsNote(table, key) : unusableKeyNote(table, key))
            }
        }
    }

    /// The note for a foreign key of several columns outside a join table.
    static func severalColumnsNote(_ table: String, _ key: ForeignKey) -> String {
        let named = key.parentColumns.isEmpty ? key.parent : "\(key.parent)(\(key.parentColumns.joined(separator: ", ")))"
        return "\(table)(\(key.columns.joined(separator: ", "))) references \(named): a foreign key of \(key.columns.count) columns is read as its columns, not as a relationship (a relationship is kept in one column)"
    }

    /// One single-column foreign key, `table.column` referencing `parent.to` (its key when
    /// nil): a to-one relationship with an inverse to-many, named by the foreign-file
    /// conventions. Nothing when `parent` is no entity.
    func addForeignKey(_ table: String, column: String, parent: String, to: String?, onDelete: String?, in context: ObjectContext) throws {
        guard let destination = context.managedObjectModel.entitiesByName[parent] else { return }
        let targetKey = (to == nil || to == context.mapped(destination).keyColumn) ? nil : to
        // A key matched by a column of another collation than the engine's plain one
        // matches as the engine does (SQLite's NOCASE: `'ABC'` names `'abc'`).
        if let targetKey, let collation = relations[context.mapped(destination).relation]?.column(targetKey)?.collation {
            var storage = context.mapped(destination)
            storage.collations[targetKey] = collation
            context.remember(destination, storage: storage)
        }
        let source = try context.entity(named: table)
        let names = Self.foreignKeyNames(source, column: column, destination: destination, parentColumn: to ?? context.mapped(destination).keyColumn, in: context)
        try context.link(table, column: column, to: parent, targetKey: targetKey, name: names.relationship, inverse: names.inverse,
                         persist: false, inverseRule: Self.deleteRule(onDelete: onDelete))
        // The names Quarry gave before its naming conventions stay accepted.
        var from = try context.entity(named: table)
        if names.earlier.relationship != names.relationship { from.relationshipAliases[names.earlier.relationship] = names.relationship }
        context.remember(from)
        var parentEntity = try context.entity(named: parent)
        if names.earlier.inverse != names.inverse { parentEntity.relationshipAliases[names.earlier.inverse] = names.inverse }
        context.remember(parentEntity)
    }

    /// A foreign key's relationship and inverse names (`ForeignFileStore+Naming`), and the
    /// names Quarry gave it before, each free in its entity.
    private static func foreignKeyNames(_ source: EntityDescription, column: String, destination: EntityDescription, parentColumn: String, in context: ObjectContext)
        -> (relationship: String, inverse: String, earlier: (relationship: String, inverse: String)) {
        let selfReference = source.name == destination.name
        func free(_ name: String, in entity: EntityDescription) -> Bool { context.isFreeKey(name, in: entity) }
        let relationship = ForeignFileStore.relationshipName(column: column, destination: destination.name, parentColumn: parentColumn) { free($0, in: source) }
        let inverse = ForeignFileStore.inverseName(source: source.name, relationship: relationship, column: column, selfReference: selfReference) {
            free($0, in: destination) && !(selfReference && $0 == relationship)
        }
        // An earlier name is given only where no key and no other earlier name has it (the
        // new name took its place, so it counts as free).
        func unused(_ candidate: String, in entity: EntityDescription, besides new: String) -> Bool {
            (free(candidate, in: entity) || candidate == new) && entity.relationshipAliases[candidate] == nil
        }
        let earlier = ForeignFileStore.earlierNames(source: source.name, column: column, destination: destination.name, selfReference: selfReference,
                                                    relationshipIsFree: { unused($0, in: source, besides: relationship) },
                                                    inverseIsFree: { unused($0, in: destination, besides: inverse) })
        return (relationship, inverse, earlier)
    }

    /// The delete rule of a foreign key's to-many side (the parent, whose deletion the
    /// action answers), as the engine carries the action out (SQLite with `PRAGMA
    /// foreign_keys=ON`): NO ACTION and RESTRICT refuse while children exist, CASCADE
    /// deletes them, SET NULL clears their column and SET DEFAULT gives it the column's
    /// declared default.
    static func deleteRule(onDelete action: String?) -> DeleteRule {
        switch (action ?? "NO ACTION").uppercased() {
        case "CASCADE": return .cascade
        case "SET NULL": return .nullify
        case "SET DEFAULT": return .setdefault
        default: return .deny
        }
    }
}

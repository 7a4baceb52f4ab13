import QuarryModel

/// The foreign keys of another program's schema as relationships, decided once for every
/// engine from its description (`ForeignSchema`): a key of one column naming its parent's
/// key (or another column of it, which the engine requires to be unique) is a to-one
/// relationship with an inverse to-many, named by the foreign-file conventions
/// (`ForeignNaming`, `ForeignNaming+Links`), its delete rule the key's ON DELETE action. A key of
/// several columns naming columns its parent holds unique is one too
/// (`RelationshipStorage.compositeKey`), its columns staying attributes: setting the
/// relationship writes them all. (A join table's ends of several columns are many-to-many
/// instead: `ForeignSchema+JoinTables`.)
extension ForeignSchema {
    /// The to-one relationships of `tables` (entities, in order), each table's keys in the
    /// order of their first column; `isParent` says which entities a key may name (a
    /// PostgreSQL schema's tables Quarry defined keep their own relationships).
    package func addForeignKeys(of tables: [String], isParent: (String) -> Bool = { _ in true }, in session: StoreSession) throws {
        for table in tables {
            guard let relation = relations[table] else { continue }
            let numbered = numberedColumns(of: table, in: session)
            for key in relation.foreignKeys.sorted(by: { ($0.columns.first ?? "") < ($1.columns.first ?? "") }) {
                guard isParent(key.parent), session.managedObjectModel.entitiesByName[key.parent] != nil,
                    session.managedObjectModel.entitiesByName[table] != nil
                else { continue }
                guard key.columns.count == 1, let column = key.columns.first else { continue }
                guard namesParentColumns(key) else {
                    session.openingNotes.append(unusableKeyNote(table, key))
                    continue
                }
                try addForeignKey(
                    table, column: column, parent: key.parent, to: referencedColumns(of: key)?.first, onDelete: key.onDelete,
                    numbered: numbered.contains(column), in: session)
            }
        }
    }

    /// The columns of `table`'s keys of one column that are named by their numbers
    /// (`ForeignNaming.numberedColumns`: `raw_contact_id1`, `raw_contact_id2`), none when
    /// the table may be a join table, whose many-to-many is named from its keys' names as
    /// they were (`friends(person_id1, person_id2)` keeps them).
    func numberedColumns(of table: String, in session: StoreSession) -> Set<String> {
        guard let relation = relations[table], let entity = session.managedObjectModel.entitiesByName[table] else { return [] }
        let keys = relation.foreignKeys.compactMap { key in key.columns.count == 1 ? (column: key.columns[0], parent: key.parent) : nil }
        let numbered = ForeignNaming.numberedColumns(keys)
        guard !numbered.isEmpty else { return [] }
        let mayJoin = joinTable(
            table, isEnd: { session.managedObjectModel.entitiesByName[$0.parent] != nil }, ownKey: session.mapped(entity).keyColumn,
            type: { entity.attribute(named: $0.name)?.type ?? .string })
        return mayJoin == nil ? numbered : []
    }

    /// Makes each foreign key of several columns of `tables` (entities) to an entity a
    /// to-one relationship with its inverse to-many (`addCompositeKey`), unless its table
    /// is a join table (`joined`), whose pair it gives; a key naming columns its parent
    /// lacks or does not hold unique, or one that cannot be made, is said in a note.
    /// After the join tables are decided, which count their ends' to-ones.
    package func addSeveralColumnKeys(of tables: [String], joined: Set<String>, isParent: (String) -> Bool = { _ in true }, in session: StoreSession)
    {
        for table in tables where !joined.contains(table) {
            guard let relation = relations[table], session.managedObjectModel.entitiesByName[table] != nil else { continue }
            // Keys named after their parent first, in the order of their columns: a key its
            // columns name (`OldOfferID`, `OldProductID` -> `old`) leaves the parent's plain
            // inverse (`salesOrderDetails`) to the key named after it.
            let ordered = relation.foreignKeys.sorted {
                let (a, b) = (ForeignNaming.sharedStem($0.columns) != nil, ForeignNaming.sharedStem($1.columns) != nil)
                return a != b ? !a : $0.columns.lexicographicallyPrecedes($1.columns)
            }
            for key in ordered where key.columns.count > 1 {
                guard isParent(key.parent), session.managedObjectModel.entitiesByName[key.parent] != nil else { continue }
                guard namesParentColumns(key) else {
                    session.openingNotes.append(unusableKeyNote(table, key))
                    continue
                }
                do {
                    try addCompositeKey(table, key, in: session)
                } catch {
                    session.openingNotes.append(Self.severalColumnsNote(table, key, because: "\(error)"))
                }
            }
        }
    }

    /// The note for a foreign key of several columns that could not be made a relationship.
    static func severalColumnsNote(_ table: String, _ key: ForeignKey, because reason: String) -> String {
        let named = key.parentColumns.isEmpty ? key.parent : "\(key.parent)(\(key.parentColumns.joined(separator: ", ")))"
        return "\(table)(\(key.columns.joined(separator: ", "))) references \(named): read as its columns, not as a relationship: \(reason)"
    }

    /// One foreign key of several columns, `table(columns)` naming columns `key.parent`
    /// holds unique: a to-one relationship named after the parent (`lineitem.partsupp`),
    /// with an inverse to-many named as a one-column key's (`partsupp.lineitems`), its
    /// delete rule the key's ON DELETE action. Its columns stay attributes, which the
    /// relationship reads and writes all together.
    func addCompositeKey(_ table: String, _ key: ForeignKey, in session: StoreSession) throws {
        var from = try session.entity(named: table)
        var to = try session.entity(named: key.parent)
        // As the entities spell them (SQLite matches a key's names in any case).
        func spelled(_ name: String, in entity: EntityDescription) throws -> String {
            guard
                let attribute = entity.attributes.first(where: { $0.name == name })
                    ?? entity.attributes.first(where: { $0.name.lowercased() == name.lowercased() })
            else {
                throw StoreError.invalidSchema(entity: entity.name, reason: "its column \(name) is not read as an attribute")
            }
            return attribute.name
        }
        let columns = try key.columns.map { try spelled($0, in: from) }
        let targetKeys = try (referencedColumns(of: key) ?? []).map { try spelled($0, in: to) }
        guard targetKeys.count == columns.count else {
            throw StoreError.invalidSchema(entity: table, reason: "the key names \(targetKeys.count) columns for \(columns.count)")
        }
        // Matched with the parent's columns' collations, as for a key of one column.
        var storage = session.mapped(to)
        for column in targetKeys {
            if let collation = relations[key.parent]?.column(column)?.collation { storage.collations[column] = collation }
        }
        if storage != session.mapped(to) { session.remember(to, storage: storage) }
        let same = table == key.parent
        let name = ForeignNaming.compositeRelationshipName(columns: columns, destination: key.parent) { session.isFreeKey($0, in: from) }
        let inverse = ForeignNaming.inverseName(source: table, relationship: name, selfReference: same) {
            session.isFreeKey($0, in: to) && !(same && $0 == name)
        }
        var relationship = RelationshipDescription(
            name: name, destination: key.parent, inverse: inverse, isToMany: false,
            column: columns[0], targetKey: targetKeys[0])
        relationship.columns = columns
        relationship.targetKeys = targetKeys
        from.appendRelationship(relationship)
        if same { to = from }
        to.appendRelationship(
            RelationshipDescription(
                name: inverse, destination: table, inverse: name, isToMany: true,
                deleteRule: Self.deleteRule(onDelete: key.onDelete)))
        if same { from = to }
        session.remember(from)
        if !same { session.remember(to) }
        session.bumpGeneration()
    }

    /// One single-column foreign key, `table.column` referencing `parent.to` (its key when
    /// nil): a to-one relationship with an inverse to-many, named by the foreign-file
    /// conventions. Nothing when `parent` is no entity.
    func addForeignKey(
        _ table: String, column: String, parent: String, to: String?, onDelete: String?, numbered: Bool = false, in session: StoreSession
    ) throws {
        guard let destination = session.managedObjectModel.entitiesByName[parent] else { return }
        let targetKey = (to == nil || to == session.mapped(destination).keyColumn) ? nil : to
        // A key matched by a column of another collation than the engine's plain one
        // matches as the engine does (SQLite's NOCASE: `'ABC'` names `'abc'`).
        // By the table's name: a SQLite table without a rowid is read through a view.
        if let targetKey, let collation = relations[parent]?.column(targetKey)?.collation {
            var storage = session.mapped(destination)
            storage.collations[targetKey] = collation
            session.remember(destination, storage: storage)
        }
        // Named by the one rule `relate()` follows too (`ForeignNaming.linkNames`), the
        // names Quarry gave before kept as other names.
        try session.context.link(
            table, columns: [column], to: parent, targetKeys: targetKey.map { [$0] }, name: nil, persist: false,
            inverseRule: Self.deleteRule(onDelete: onDelete),
            numbered: numbered)
    }

    /// The delete rule of a foreign key's to-many side (the parent, whose deletion the
    /// action answers), as the engine carries the action out (SQLite with `PRAGMA
    /// foreign_keys=ON`): NO ACTION and RESTRICT refuse while children exist, CASCADE
    /// deletes them, SET NULL clears their column and SET DEFAULT gives it the column's
    /// declared default.
    package static func deleteRule(onDelete action: String?) -> DeleteRule {
        switch (action ?? "NO ACTION").uppercased() {
        case "CASCADE": return .cascade
        case "SET NULL": return .nullify
        case "SET DEFAULT": return .setdefault
        default: return .deny
        }
    }
}

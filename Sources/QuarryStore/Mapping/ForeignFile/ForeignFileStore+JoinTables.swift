import GRDB

/// A table of a foreign file made only of two foreign keys (to its parents' keys, of any
/// type: an integer, text or a UUID), and besides them at most its own integer key, one
/// optional integer column (a position) and times the file fills in, is a join table: `PlaylistTrack(PlaylistId, TrackId)` gives
/// `Playlist.tracks` and `Track.playlists`, many-to-many. They are kept as Quarry keeps
/// its own many-to-many pairs (`RelationshipStorage.linkTable`): the link table the
/// storage names is a temporary view over the join table, whose triggers write and delete
/// the join table's rows (as a Core Data store's join tables are shown), so nothing is
/// added to the file. Where a foreign key names a column of its parent other than the one
/// Quarry identifies its rows by (`TerritoryID TEXT PRIMARY KEY`, whose rows are known by
/// their rowid), the view joins the parent to read one as the other, and its triggers
/// write the column's value. The table stays an entity of its own, with its two to-one
/// relationships and their delete rules. A join table with a time that is required and has
/// no default (Sakila's `film_actor.last_update TIMESTAMP NOT NULL`) gives the pair too, to
/// read (members, predicates, `@count`); a link's row cannot be made without the time, so
/// `:add` and `:remove` are refused naming it, and its rows are written as the entity's.
extension ForeignFileStore {
    static func mapJoinTables(_ tables: [String], in context: ObjectContext) {
        for table in tables {
            guard let join = context.managedObjectModel.entitiesByName[table], let sides = joinSides(of: join, in: context) else { continue }
            do {
                try mapJoinTable(join, sides, in: context)
            } catch {
                context.openingNotes.append("\(table) is read as a table only, not as the many-to-many relationship it joins: \(error)")
            }
        }
    }

    /// The two foreign keys of a join table, or nil when `join` is not one.
    private static func joinSides(of join: EntityDescription, in context: ObjectContext)
        -> (first: RelationshipDescription, second: RelationshipDescription, required: [String])? {
        let storage = context.mapped(join)
        guard storage.layout == .foreignTable, join.relationships.count == 2 else { return nil }
        let isTable = { (name: String) in context.managedObjectModel.entitiesByName[name].map { context.mapped($0).layout == .foreignTable } == true }
        // A link is a pair of keys: each to a key of its parent (the one it is known by,
        // or the column the foreign key names, which SQLite requires to be unique).
        let keys = join.toOneRelationships.filter { $0.column != nil }
        guard keys.count == 2, let first = keys.first, let second = keys.last, first.column != second.column,
              isTable(first.destination), isTable(second.destination) else { return nil }
        // Besides them, its own key and what the link's insert may leave out: one position,
        // and times the file fills in or leaves NULL (`last_update DEFAULT CURRENT_TIMESTAMP`).
        // A time that is required and has no default (Sakila's `last_update TIMESTAMP NOT
        // NULL`) a link cannot give: the pair is read only.
        let others = join.attributes.filter { $0.name != first.column && $0.name != second.column && $0.name != storage.keyColumn }
        let positions = others.filter { $0.type == .int64 && $0.isOptional }
        let stamps = others.filter { $0.type == .date }
        guard positions.count <= 1, positions.count + stamps.count == others.count else { return nil }
        let required = stamps.filter { !$0.isOptional && $0.defaultValue == nil && storage.clockDefaults[$0.name] == nil }.map(\.name)
        return (first, second, required)
    }

    private static func mapJoinTable(_ join: EntityDescription, _ sides: (first: RelationshipDescription, second: RelationshipDescription, required: [String]),
                                     in context: ObjectContext) throws {
        let (first, second, required) = sides
        let before = (context.managedObjectModel.entitiesByName[first.destination], context.managedObjectModel.entitiesByName[second.destination])
        guard var a = before.0, let firstColumn = first.column, let secondColumn = second.column else { return }
        func free(_ name: String, in entity: EntityDescription) -> Bool { context.isFreeKey(name, in: entity) }
        // Each side is named after the other side's key (`track` -> `tracks`); a table
        // joining one entity to itself gives it both, under two names.
        let same = first.destination == second.destination
        var b = same ? a : try context.entity(named: second.destination)
        let aName = manyToManyName(other: second.name, joinTable: join.name) { free($0, in: a) }
        let bName = manyToManyName(other: first.name, joinTable: join.name) { free($0, in: b) && !(same && $0 == aName) }
        pair(&a, aName, &b, bName, in: context)
        do {
            // The storage the context gives the pair names the view and its orientation.
            guard let relationship = a.relationship(named: aName),
                  case .linkTable(let link, let sourceColumn, _)? = context.storage(of: relationship, in: a.name) else { return }
            func end(_ side: RelationshipDescription, _ column: String) throws -> LinkEnd {
                let parent = try context.entity(named: side.destination)
                return LinkEnd(column: column, parent: side.destination, parentKey: context.mapped(parent).keyColumn, matched: side.targetKey,
                               collation: side.targetKey.flatMap { context.mapped(parent).collations[$0] })
            }
            let ends = (try end(first, firstColumn), try end(second, secondColumn))
            let (source, target) = sourceColumn == "source" ? ends : (ends.1, ends.0)
            try context.database.writeWithoutTransaction { db in
                for sql in linkViewSQL(link: link, join: join.name, source: source, target: target) { try db.execute(sql: sql) }
            }
            var storage = context.mapped(join)
            storage.pairLink = link
            storage.pairSourceColumn = source.column
            context.remember(join, storage: storage)
            if !required.isEmpty { readOnly(link, join: join.name, required: required, sides: [first.destination, second.destination], in: context) }
        } catch {
            // No pair without its view: the model stays as it was.
            if let old = before.0 { context.remember(old) }
            if let old = before.1 { context.remember(old) }
            context.bumpGeneration()
            throw error
        }
    }

    /// Gives `a` the to-many `aName` to `b`'s entity and `b` the to-many `bName` back
    /// (each the other's inverse; one entity when both are, joined to itself), with their
    /// delete rules, and makes them the context's.
    static func pair(_ a: inout EntityDescription, _ aName: String, _ b: inout EntityDescription, _ bName: String,
                     rules: (DeleteRule, DeleteRule) = (.nullify, .nullify), in context: ObjectContext) {
        let same = a.name == b.name
        let (aEntity, bEntity) = (a.name, b.name)
        a.relationships.append(RelationshipDescription(name: aName, destination: bEntity, inverse: bName, isToMany: true, deleteRule: rules.0))
        if same { b = a }
        b.relationships.append(RelationshipDescription(name: bName, destination: aEntity, inverse: aName, isToMany: true, deleteRule: rules.1))
        if same { a = b }
        context.remember(a)
        context.remember(b)
        context.bumpGeneration()
    }

    /// Marks the link `link` of a join table read only on the entities it joins.
    static func readOnly(_ link: String, join: String, required: [String], sides: [String], in context: ObjectContext) {
        for side in Set(sides) {
            guard let entity = context.managedObjectModel.entitiesByName[side] else { continue }
            var storage = context.mapped(entity)
            storage.readOnlyLinks[link] = EntityStorage.ReadOnlyLink(join: join, required: required)
            context.remember(entity, storage: storage)
        }
    }

    /// One side of a join table: its column, and the parent it refers to by `matched`
    /// (nil: by the key Quarry knows the parent's rows by, `parentKey`).
    struct LinkEnd {
        let column: String
        let parent: String
        let parentKey: String
        let matched: String?
        /// The collation of the parent's `matched` column, when not BINARY.
        var collation: String? = nil
    }

    /// The link table `link` as a temporary view over the join table's two key columns,
    /// written through triggers (a trigger's statements name tables unqualified). A side
    /// that refers to its parent by another column is read through a join with the parent
    /// (which SQLite flattens, using the parent's unique index), and written by looking
    /// the column's value up.
    static func linkViewSQL(link: String, join: String, source: LinkEnd, target: LinkEnd) -> [String] {
        let (l, j) = (quoteIdentifier(link), quoteIdentifier(join))
        var joins: [String] = []
        // The SQL reading a side's key from the join table's row `j`.
        func read(_ end: LinkEnd, _ alias: String) -> String {
            let column = "\(j).\(quoteIdentifier(end.column))"
            guard let matched = end.matched else { return column }
            let a = quoteIdentifier(alias)
            joins.append("JOIN main.\(quoteIdentifier(end.parent)) AS \(a) ON \(a).\(quoteIdentifier(matched)) = \(column)")
            return "\(a).\(quoteIdentifier(end.parentKey))"
        }
        // The value a side's column takes for the parent known by `key` (NEW.source).
        func written(_ end: LinkEnd, _ key: String) -> String {
            guard let matched = end.matched else { return key }
            return "(SELECT \(quoteIdentifier(matched)) FROM \(quoteIdentifier(end.parent)) WHERE \(quoteIdentifier(end.parentKey)) = \(key))"
        }
        func collate(_ end: LinkEnd) -> String { end.collation.map { " COLLATE " + $0 } ?? "" }
        let s = read(source, "quarry_source"), t = read(target, "quarry_target")
        let (sc, tc) = (quoteIdentifier(source.column), quoteIdentifier(target.column))
        return [
            "CREATE TEMP VIEW IF NOT EXISTS \(l) AS SELECT \(s) AS source, \(t) AS target FROM main.\(j) \(joins.joined(separator: " ")) WHERE \(s) IS NOT NULL AND \(t) IS NOT NULL",
            "CREATE TEMP TRIGGER IF NOT EXISTS \(quoteIdentifier(link + "_insert")) INSTEAD OF INSERT ON \(l) BEGIN INSERT INTO \(j) (\(sc), \(tc)) VALUES (\(written(source, "NEW.source")), \(written(target, "NEW.target"))); END",
            // A link's row is found as the parent's key column compares (its collation).
            "CREATE TEMP TRIGGER IF NOT EXISTS \(quoteIdentifier(link + "_delete")) INSTEAD OF DELETE ON \(l) BEGIN DELETE FROM \(j) WHERE \(sc) = \(written(source, "OLD.source"))\(collate(source)) AND \(tc) = \(written(target, "OLD.target"))\(collate(target)); END",
        ]
    }
}

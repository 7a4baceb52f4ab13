import GRDB

/// A table of a foreign file made only of two foreign keys (to its parents' keys), and
/// besides them at most its own integer key and one optional integer column (a
/// position), is a join table: `PlaylistTrack(PlaylistId, TrackId)` gives
/// `Playlist.tracks` and `Track.playlists`, many-to-many. They are kept as Quarry keeps
/// its own many-to-many pairs (`RelationshipStorage.linkTable`): the link table the
/// storage names is a temporary view over the join table, whose triggers write and delete
/// the join table's rows (as a Core Data store's join tables are shown), so nothing is
/// added to the file. The table stays an entity of its own, with its two to-one
/// relationships and their delete rules.
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
        -> (RelationshipDescription, RelationshipDescription)? {
        let storage = context.mapped(join)
        guard storage.layout == .foreignTable, join.relationships.count == 2 else { return nil }
        let isTable = { (name: String) in context.managedObjectModel.entitiesByName[name].map { context.mapped($0).layout == .foreignTable } == true }
        // Both to the parent's own key: a link is a pair of keys.
        let keys = join.toOneRelationships.filter { $0.column != nil && $0.targetKey == nil }
        guard keys.count == 2, let first = keys.first, let second = keys.last, first.column != second.column,
              isTable(first.destination), isTable(second.destination) else { return nil }
        // Besides them, its own key and one position the link's insert may leave out.
        let others = join.attributes.filter { $0.name != first.column && $0.name != second.column && $0.name != storage.keyColumn }
        guard others.count <= 1, others.allSatisfy({ $0.type == .int64 && $0.isOptional }) else { return nil }
        return (first, second)
    }

    private static func mapJoinTable(_ join: EntityDescription, _ sides: (RelationshipDescription, RelationshipDescription),
                                     in context: ObjectContext) throws {
        let (first, second) = sides
        let before = (context.managedObjectModel.entitiesByName[first.destination], context.managedObjectModel.entitiesByName[second.destination])
        guard var a = before.0, let firstColumn = first.column, let secondColumn = second.column else { return }
        func free(_ name: String, in entity: EntityDescription) -> Bool {
            !entity.keyNames.contains(name) && name != context.mapped(entity).keyColumn
        }
        // Each side is named after the other side's key (`track` -> `tracks`); a table
        // joining one entity to itself gives it both, under two names.
        let same = first.destination == second.destination
        var b = same ? a : try context.entity(named: second.destination)
        let aName = manyToManyName(other: second.name, joinTable: join.name) { free($0, in: a) }
        let bName = manyToManyName(other: first.name, joinTable: join.name) { free($0, in: b) && !(same && $0 == aName) }
        a.relationships.append(RelationshipDescription(name: aName, destination: second.destination, inverse: bName, isToMany: true))
        if same { b = a }
        b.relationships.append(RelationshipDescription(name: bName, destination: first.destination, inverse: aName, isToMany: true))
        if same { a = b }
        context.remember(a)
        context.remember(b)
        context.bumpGeneration()
        do {
            // The storage the context gives the pair names the view and its orientation.
            guard let relationship = a.relationship(named: aName),
                  case .linkTable(let link, let sourceColumn, _)? = context.storage(of: relationship, in: a.name) else { return }
            let (source, target) = sourceColumn == "source" ? (firstColumn, secondColumn) : (secondColumn, firstColumn)
            try context.database.writeWithoutTransaction { db in
                for sql in linkViewSQL(link: link, join: join.name, source: source, target: target) { try db.execute(sql: sql) }
            }
        } catch {
            // No pair without its view: the model stays as it was.
            if let old = before.0 { context.remember(old) }
            if let old = before.1 { context.remember(old) }
            context.bumpGeneration()
            throw error
        }
    }

    /// The link table `link` as a temporary view over the join table's two key columns,
    /// written through triggers (a trigger's statements name tables unqualified).
    private static func linkViewSQL(link: String, join: String, source: String, target: String) -> [String] {
        let (l, j, s, t) = (quoteIdentifier(link), quoteIdentifier(join), quoteIdentifier(source), quoteIdentifier(target))
        return [
            "CREATE TEMP VIEW IF NOT EXISTS \(l) AS SELECT \(s) AS source, \(t) AS target FROM main.\(j) WHERE \(s) IS NOT NULL AND \(t) IS NOT NULL",
            "CREATE TEMP TRIGGER IF NOT EXISTS \(quoteIdentifier(link + "_insert")) INSTEAD OF INSERT ON \(l) BEGIN INSERT INTO \(j) (\(s), \(t)) VALUES (NEW.source, NEW.target); END",
            "CREATE TEMP TRIGGER IF NOT EXISTS \(quoteIdentifier(link + "_delete")) INSTEAD OF DELETE ON \(l) BEGIN DELETE FROM \(j) WHERE \(s) = OLD.source AND \(t) = OLD.target; END",
        ]
    }
}

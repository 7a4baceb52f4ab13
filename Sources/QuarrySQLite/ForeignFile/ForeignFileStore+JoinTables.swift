import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

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
    /// The join tables among `tables` (entities of the file), decided from the file's
    /// description as for any engine (`ForeignSchema+JoinTables`), made many-to-many pairs.
    static func mapJoinTables(_ tables: [String], schema: ForeignSchema, in session: StoreSession) {
        for table in tables {
            guard let join = session.managedObjectModel.entitiesByName[table], let shape = joinShape(of: join, schema, in: session) else { continue }
            do {
                try mapJoinTable(join, shape, schema, in: session)
            } catch {
                session.openingNotes.append("\(table) is read as a table only, not as the many-to-many relationship it joins: \(error)")
            }
        }
    }

    /// `join` as a join table: its ends name tables of the file that are entities (SQLite
    /// requires the columns a key names to be unique), and nothing but its ends' to-ones
    /// are relationships of its entity (no other table names it). Nil when it is none.
    private static func joinShape(of join: EntityDescription, _ schema: ForeignSchema, in session: StoreSession) -> ForeignSchema.JoinTable? {
        let storage = session.mapped(join)
        guard storage.layout == .foreignTable else { return nil }
        let isTable = { (name: String) in session.managedObjectModel.entitiesByName[name].map { session.mapped($0).layout == .foreignTable } == true }
        guard
            let shape = schema.joinTable(
                join.name, isEnd: { isTable($0.parent) }, ownKey: storage.keyColumn,
                type: { ForeignSchemaReader.attributeType(declared: $0.declaredType) })
        else { return nil }
        let toOnes = [shape.first, shape.second].filter { $0.columns.count == 1 }.count
        guard join.relationships.count == toOnes else { return nil }
        return shape
    }

    private static func mapJoinTable(_ join: EntityDescription, _ shape: ForeignSchema.JoinTable, _ schema: ForeignSchema, in session: StoreSession)
        throws
    {
        let (first, second, required) = (shape.first, shape.second, shape.required)
        let before = (session.managedObjectModel.entitiesByName[first.parent], session.managedObjectModel.entitiesByName[second.parent])
        guard var a = before.0 else { return }
        func free(_ name: String, in entity: EntityDescription) -> Bool { session.isFreeKey(name, in: entity) }
        // Each side is named by the entity at the other end in the plural (`post.tags`),
        // as a foreign key's inverse is; where that is taken, by the other end's to-one
        // (`tag_name_tags`; an end of several columns, which is no to-one, by its parent).
        // A table joining one entity to itself names both sides by their to-ones. The
        // names the rule before issue 60 gave (from the to-one's name) are other names.
        func other(_ end: ForeignSchema.ForeignKey, former: Bool = false) throws -> String {
            guard end.columns.count == 1, let toOne = join.toOneRelationships.first(where: { $0.column == end.columns[0] }) else {
                return ForeignNaming.singular(ForeignNaming.lowerCamel(end.parent))
            }
            guard former else { return toOne.name }
            let parentKey = session.mapped(try session.entity(named: end.parent)).keyColumn
            let parentColumn = schema.referencedColumns(of: end)?.first ?? parentKey
            return ForeignNaming.relationshipName(column: end.columns[0], destination: end.parent, parentColumn: parentColumn, former: true) {
                free($0, in: join) || $0 == toOne.name
            }
        }
        let same = first.parent == second.parent
        var b = same ? a : try session.entity(named: second.parent)
        let aName = ForeignNaming.manyToManyName(otherEntity: second.parent, otherToOne: try other(second), joinTable: join.name, selfJoin: same) {
            free($0, in: a)
        }
        let bName = ForeignNaming.manyToManyName(otherEntity: first.parent, otherToOne: try other(first), joinTable: join.name, selfJoin: same) {
            free($0, in: b) && !(same && $0 == aName)
        }
        let aFormer = ForeignNaming.manyToManyName(
            otherEntity: second.parent, otherToOne: try other(second, former: true), joinTable: join.name, former: true
        ) { free($0, in: a) || $0 == aName }
        let bFormer = ForeignNaming.manyToManyName(
            otherEntity: first.parent, otherToOne: try other(first, former: true), joinTable: join.name, former: true
        ) { (free($0, in: b) || $0 == bName) && !(same && $0 == aFormer) }
        // A many-to-many's links go with either end, as Core Data's do, whatever the join
        // table's keys say: the save removes them before the row they name, so a NO ACTION
        // or RESTRICT key holds back no delete (the pair nullifies, and the join table's own
        // to-manys see the links the save removes, `isUnlinkedJoinRow`). An end of several
        // columns has no to-one to tell its links by: the to-many of the join table's
        // one-column end then takes no action, and the pair's nullify removes the links.
        // A read-only pair's links go by the join table's own objects.
        let wide = first.columns.count > 1 || second.columns.count > 1
        if wide, required.isEmpty {
            for end in [first, second] where end.columns.count == 1 && ForeignSchema.deleteRule(onDelete: end.onDelete) == .deny {
                guard let toOne = join.toOneRelationships.first(where: { $0.column == end.columns[0] }), let inverse = toOne.inverse,
                    var parent = session.managedObjectModel.entitiesByName[end.parent],
                    let index = parent.relationships.firstIndex(where: { $0.name == inverse })
                else { continue }
                parent.relationships[index].deleteRule = .noaction
                session.remember(parent)
                if end.parent == a.name { a = parent }
                if end.parent == b.name { b = parent }
            }
        }
        ForeignSchema.pair(&a, aName, &b, bName, otherNames: (aFormer, bFormer), in: session)
        do {
            // The storage the context gives the pair names the view and its orientation.
            guard let relationship = a.relationship(named: aName),
                case .linkTable(let link, let sourceColumn, _)? = session.storage(of: relationship, in: a.name)
            else { return }
            func end(_ key: ForeignSchema.ForeignKey) throws -> LinkEnd {
                let parent = session.mapped(try session.entity(named: key.parent))
                let pairs = schema.columnPairs(of: key)
                // Read as the key Quarry knows the parent's rows by, or through the columns it names.
                let direct = pairs.count == 1 && (pairs[0].parentColumn == parent.keyColumn || schema.referencedColumns(of: key) == nil)
                let matched = direct || pairs.isEmpty ? nil : pairs.map(\.parentColumn)
                return LinkEnd(
                    columns: key.columns, parent: key.parent, parentKey: parent.keyColumn, matched: matched,
                    collations: matched?.map { parent.collations[$0] } ?? [])
            }
            let ends = (try end(first), try end(second))
            let (source, target) = sourceColumn == "source" ? ends : (ends.1, ends.0)
            let sourceIsFirst = sourceColumn == "source"
            let position = shape.linkPosition(sourceIsFirst: sourceIsFirst)
            try session.connection.database.writeWithoutTransaction { db in
                for sql in linkViewSQL(link: link, join: join.name, source: source, target: target, position: position) { try db.execute(sql: sql) }
            }
            if let note = ForeignSchema.order(shape, link: link, sourceIsFirst: sourceIsFirst, names: (aName, bName), in: session) {
                session.openingNotes.append(note)
            }
            var storage = session.mapped(join)
            storage.pairLink = link
            storage.pairSourceColumn = source.columns[0]
            session.remember(join, storage: storage)
            if !required.isEmpty {
                ForeignSchema.readOnly(link, join: join.name, required: required, sides: [first.parent, second.parent], in: session)
            }
        } catch {
            // No pair without its view: the model stays as it was.
            if let old = before.0 { session.remember(old) }
            if let old = before.1 { session.remember(old) }
            session.bumpGeneration()
            throw error
        }
    }

    /// One side of a join table: its columns, and the parent they refer to by `matched`,
    /// the parent's columns in the same order (nil: by the key Quarry knows the parent's
    /// rows by, `parentKey`, which the one column holds).
    struct LinkEnd {
        let columns: [String]
        let parent: String
        let parentKey: String
        let matched: [String]?
        /// The collation of each of the parent's `matched` columns, when not BINARY.
        var collations: [String?] = []
    }

    /// The link table `link` as a temporary view over the join table's key columns,
    /// written through triggers (a trigger's statements name tables unqualified). A side
    /// that refers to its parent by other columns (a `TEXT PRIMARY KEY`, whose rows are
    /// known by their rowid, or a key of several columns) is read through a join with the
    /// parent (which SQLite flattens, using the parent's unique index), and written by
    /// looking the columns' values up.
    /// A position (`ForeignSchema.Position`) is read as the view's `position`; a link's
    /// row takes the owner's largest plus one (0 for its first), and an UPDATE of the
    /// view's `position` moves one row of an owner (its position is unique there).
    static func linkViewSQL(link: String, join: String, source: LinkEnd, target: LinkEnd, position: (column: String, ownerIsSource: Bool)? = nil)
        -> [String]
    {
        let (l, j) = (quoteIdentifier(link), quoteIdentifier(join))
        var joins: [String] = []
        // The SQL reading a side's key from the join table's row `j`.
        func read(_ end: LinkEnd, _ alias: String) -> String {
            guard let matched = end.matched else { return "\(j).\(quoteIdentifier(end.columns[0]))" }
            let a = quoteIdentifier(alias)
            let on = zip(matched, end.columns).map { "\(a).\(quoteIdentifier($0)) = \(j).\(quoteIdentifier($1))" }.joined(separator: " AND ")
            joins.append("JOIN main.\(quoteIdentifier(end.parent)) AS \(a) ON \(on)")
            return "\(a).\(quoteIdentifier(end.parentKey))"
        }
        // The values a side's columns take for the parent known by `key` (NEW.source).
        func written(_ end: LinkEnd, _ key: String) -> [String] {
            guard let matched = end.matched else { return [key] }
            return matched.map {
                "(SELECT \(quoteIdentifier($0)) FROM \(quoteIdentifier(end.parent)) WHERE \(quoteIdentifier(end.parentKey)) = \(key))"
            }
        }
        // A link's row is found as the parent's key columns compare (their collations).
        func found(_ end: LinkEnd, _ key: String) -> String {
            zip(end.columns, written(end, key)).enumerated().map { i, pair in
                let collation = i < end.collations.count ? end.collations[i].map { " COLLATE " + $0 } ?? "" : ""
                return "\(quoteIdentifier(pair.0)) = \(pair.1)\(collation)"
            }.joined(separator: " AND ")
        }
        let s = read(source, "quarry_source")
        let t = read(target, "quarry_target")
        var columns = (source.columns + target.columns).map(quoteIdentifier)
        var values = written(source, "NEW.source") + written(target, "NEW.target")
        var read = "\(s) AS source, \(t) AS target"
        var moved: [String] = []
        if let position {
            let p = quoteIdentifier(position.column)
            let (owner, side) = position.ownerIsSource ? (source, "source") : (target, "target")
            columns.append(p)
            values.append("(SELECT coalesce(max(\(p)), -1) + 1 FROM \(j) WHERE \(found(owner, "NEW." + side)))")
            read += ", \(j).\(p) AS position"
            moved.append(
                "CREATE TEMP TRIGGER IF NOT EXISTS \(quoteIdentifier(link + "_update")) INSTEAD OF UPDATE ON \(l) BEGIN UPDATE \(j) SET \(p) = NEW.position WHERE \(found(owner, "OLD." + side)) AND \(p) = OLD.position; END"
            )
        }
        return [
            "CREATE TEMP VIEW IF NOT EXISTS \(l) AS SELECT \(read) FROM main.\(j) \(joins.joined(separator: " ")) WHERE \(s) IS NOT NULL AND \(t) IS NOT NULL",
            "CREATE TEMP TRIGGER IF NOT EXISTS \(quoteIdentifier(link + "_insert")) INSTEAD OF INSERT ON \(l) BEGIN INSERT INTO \(j) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", "))); END",
            "CREATE TEMP TRIGGER IF NOT EXISTS \(quoteIdentifier(link + "_delete")) INSTEAD OF DELETE ON \(l) BEGIN DELETE FROM \(j) WHERE \(found(source, "OLD.source")) AND \(found(target, "OLD.target")); END"
        ] + moved
    }
}

import QuarryModel

/// Which tables of another program's schema join two entities, decided once for every
/// engine: a table made of two foreign keys, each to an entity's table (of one column or
/// several, to a key of any type), and besides them at most its own key, one optional
/// integer column (a position) and times the engine fills in or leaves NULL, is a join
/// table, many-to-many. A position the table's primary key or a unique key holds with one
/// end's columns (NewPipe's `playlist_stream_join(playlist_id, stream_id, join_index)`,
/// keyed by `(playlist_id, join_index)`) makes the pair an ordered many-to-many, as Core
/// Data's ordered relationships are: that end's side lists its members by it. A time that is required and has no default (Sakila's
/// `film_actor.last_update TIMESTAMP NOT NULL`) a link's insert cannot give: the pair
/// is read only. Each engine makes the pair's link view its own way
/// (`ForeignFileStore+JoinTables`, `PostgresStore+JoinTables`).
extension ForeignSchema {
    /// A join table's two ends, in the order of their first columns, and the times a
    /// link's row needs that nothing fills (empty: the pair is written by `:add` and `:remove`).
    package struct JoinTable {
        package let table: String
        package let first: ForeignKey
        package let second: ForeignKey
        package let required: [String]
        /// The position a key holds with one end's columns: the ordered side's order.
        package var position: Position?

        package init(table: String, first: ForeignKey, second: ForeignKey, required: [String], position: Position? = nil) {
            self.table = table
            self.first = first
            self.second = second
            self.required = required
            self.position = position
        }

        /// The position as the pair's link view reads it, whose `source` is the `first`
        /// end when `sourceIsFirst`: its column, and whether the owner is the `source`.
        package func linkPosition(sourceIsFirst: Bool) -> (column: String, ownerIsSource: Bool)? {
            position.map { (column: $0.column, ownerIsSource: $0.ownerIsFirst == sourceIsFirst) }
        }
    }

    /// A join table's position column and the end it places members under (the owner:
    /// `playlist_id` for `join_index`); the other end's entity is the members'.
    package struct Position {
        package let column: String
        /// Whether the owner is the join table's `first` end.
        package let ownerIsFirst: Bool
    }

    /// `table` read as a join table, or nil when it is none. `isEnd`: whether a foreign key
    /// names a parent the engine can join (an entity, by a key the link view can read);
    /// `ownKey`: a column of the table's own identity, besides the ends (SQLite's
    /// `INTEGER PRIMARY KEY`); `type`: the engine's type of a column.
    package func joinTable(_ table: String, isEnd: (ForeignKey) -> Bool, ownKey: String? = nil, type: (Column) -> AttributeType) -> JoinTable? {
        guard let relation = relations[table], !relation.isView else { return nil }
        let ends = relation.foreignKeys.filter { isEnd($0) && namesParentColumns($0) }.sorted { ($0.columns.first ?? "") < ($1.columns.first ?? "") }
        guard ends.count == 2, !ends[0].columns.isEmpty, !ends[1].columns.isEmpty,
            Set(ends[0].columns).isDisjoint(with: ends[1].columns)
        else { return nil }
        let keyColumns = Set(ends[0].columns + ends[1].columns)
        // Besides them, what the link's insert may leave out: one position, and times the
        // engine fills in or leaves NULL (`last_update DEFAULT CURRENT_TIMESTAMP`).
        let others = relation.columns.filter { !keyColumns.contains($0.name) && $0.name != ownKey }
        let integers = others.filter { [.int16, .int32, .int64].contains(type($0)) }
        // A position a key holds with one end is given by the link's insert (the owner's
        // largest plus one); another integer only when the engine fills it or leaves it NULL.
        let keyed = integers.compactMap { column in keyedPosition(column.name, relation, ends[0], ends[1]) }
        let positions = integers.filter { column in (!column.notNull || column.hasDefault) || keyed.contains { $0.column == column.name } }
        let stamps = others.filter { type($0) == .date }
        guard positions.count <= 1, positions.count + stamps.count == others.count else { return nil }
        let required = stamps.filter { $0.notNull && !$0.hasDefault }.map(\.name)
        return JoinTable(table: table, first: ends[0], second: ends[1], required: required, position: keyed.first)
    }

    /// `column` as the position of a join table whose primary key or a unique key is it
    /// and one end's columns, nil when no key is.
    private func keyedPosition(_ column: String, _ relation: Relation, _ first: ForeignKey, _ second: ForeignKey) -> Position? {
        let keys = ([relation.primaryKey] + (relation.uniqueKeys ?? [])).map { Set($0.map { $0.lowercased() }) }
        for (end, isFirst) in [(first, true), (second, false)] {
            let wanted = Set((end.columns + [column]).map { $0.lowercased() })
            if keys.contains(wanted) { return Position(column: column, ownerIsFirst: isFirst) }
        }
        return nil
    }

    /// Whether `key` names the whole primary key of its parent, in any order.
    package func namesPrimaryKey(_ key: ForeignKey) -> Bool {
        guard let parent = relations[key.parent], !parent.primaryKey.isEmpty, let named = referencedColumns(of: key) else { return false }
        return Set(named) == Set(parent.primaryKey) && named.count == parent.primaryKey.count
    }

    /// A foreign key's columns paired with the parent's columns they name, in the order
    /// of `parentOrder` (the parent's key, where the engine numbers rows from it).
    package func columnPairs(of key: ForeignKey, in parentOrder: [String]? = nil) -> [(column: String, parentColumn: String)] {
        let named = referencedColumns(of: key) ?? []
        let pairs = Array(zip(key.columns, named))
        guard let parentOrder else { return pairs.map { ($0.0, $0.1) } }
        return parentOrder.compactMap { p in pairs.first { $0.1 == p }.map { ($0.0, $0.1) } }
    }
}

/// What a join table makes of the entities it joins, on every engine.
extension ForeignSchema {
    /// Gives `a` the to-many `aName` to `b`'s entity and `b` the to-many `bName` back
    /// (each the other's inverse; one entity when both are, joined to itself), with their
    /// delete rules, and makes them the context's. `otherNames`: the names an earlier rule
    /// gave each, which they answer to as well.
    package static func pair(
        _ a: inout EntityDescription, _ aName: String, _ b: inout EntityDescription, _ bName: String,
        rules: (DeleteRule, DeleteRule) = (.nullify, .nullify), otherNames: (String?, String?) = (nil, nil), in session: StoreSession
    ) {
        let same = a.name == b.name
        let (aEntity, bEntity) = (a.name, b.name)
        a.appendRelationship(RelationshipDescription(name: aName, destination: bEntity, inverse: bName, isToMany: true, deleteRule: rules.0))
        if same { b = a }
        b.appendRelationship(RelationshipDescription(name: bName, destination: aEntity, inverse: aName, isToMany: true, deleteRule: rules.1))
        if same { a = b }
        if let other = otherNames.0 { a.alias([other], to: aName) }
        if same { b = a }
        if let other = otherNames.1 { b.alias([other], to: bName) }
        if same { a = b }
        session.remember(a)
        session.remember(b)
        session.bumpGeneration()
    }

    /// Marks the link `link` of a join table read only on the entities it joins.
    package static func readOnly(_ link: String, join: String, required: [String], sides: [String], in session: StoreSession) {
        for side in Set(sides) {
            guard let entity = session.managedObjectModel.entitiesByName[side] else { continue }
            var storage = session.mapped(entity)
            storage.readOnlyLinks[link] = EntityStorage.ReadOnlyLink(join: join, required: required)
            session.remember(entity, storage: storage)
        }
    }
}

/// A join table whose key holds a position (`JoinTable.position`): its owner's side is an
/// ordered to-many, as Core Data's ordered relationships are (an ordered set: each member
/// once, at its first position), its other side a plain to-many. The link view carries
/// the position as `position`; a link added goes after the owner's last position, and a
/// save that places members rewrites positions (`PositionedOrder`).
extension ForeignSchema {
    /// Makes the owner's side of the pair `names` (the first end's side, the second's)
    /// ordered. `link`: the pair's view, reading the first end as `source` when
    /// `sourceIsFirst`. Returns a note when an owner holds a member more than once.
    package static func order(
        _ shape: JoinTable, link: String, sourceIsFirst: Bool, names: (String, String), in session: StoreSession
    ) -> String? {
        guard let position = shape.position else { return nil }
        let owner = position.ownerIsFirst ? shape.first.parent : shape.second.parent
        let name = position.ownerIsFirst ? names.0 : names.1
        guard let entity = session.managedObjectModel.entitiesByName[owner] else { return nil }
        let ownerColumn = position.ownerIsFirst == sourceIsFirst ? "source" : "target"
        let memberColumn = ownerColumn == "source" ? "target" : "source"
        var storage = session.mapped(entity)
        storage.orderedLinks[name] = EntityStorage.OrderedLink(
            link: link, join: shape.table, position: position.column, ownerColumn: ownerColumn, memberColumn: memberColumn)
        session.remember(entity, storage: storage)
        // An entry twice in one owner (NewPipe adds a stream again): the ordered set lists it
        // once, where it first stands; the join table's own entity lists every entry.
        let member = position.ownerIsFirst ? shape.second.parent : shape.first.parent
        let sql =
            "SELECT \(ownerColumn), \(memberColumn), count(*) FROM \(quoteIdentifier(link)) GROUP BY \(ownerColumn), \(memberColumn) HAVING count(*) > 1 LIMIT 1"
        guard let row = try? session.connection.row(sql), row.count == 3, case .integer(let o) = row[0], case .integer(let m) = row[1],
            case .integer(let n) = row[2]
        else { return nil }
        return
            "\(shape.table) holds a member more than once in one owner (\(member)/\(m) \(n) times in \(owner)/\(o)): \(owner).\(name) lists each member once, "
            + "at its first \(position.column); the entity \(shape.table) lists every entry"
    }
}

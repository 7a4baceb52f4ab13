import QuarryModel
import QuarryStore

/// A table of another program's schema made of two foreign keys to the keys of two
/// entities' tables (plus, optionally, one integer column, a position, and times the
/// server fills in, as `last_update timestamp DEFAULT now()`), and keyed by them
/// or by nothing, is a join table: `playlist_track(playlist_id, track_id)` gives
/// `playlist.tracks` and `track.playlists`, many-to-many, as the same table in a SQLite
/// file does (`ForeignFileStore+JoinTables`, named by the same conventions), whatever the
/// type of the keys it references: an integer key is the object's, a text or uuid key
/// (`PostgresStore+KeyedTables`) is read as its row's number. It is no entity of its own,
/// but is read and written through its relationships: their link table is a temporary
/// view of this session over it, whose trigger writes and deletes its rows, so nothing is
/// added to the schema.
extension PostgresStore {
    /// One end of a join table: its columns (in the order of the parent's key), and the
    /// entity and key they name.
    struct JoinEnd {
        package let columns: [String]
        package let parent: String
        /// The parent's key columns when it is a keyed table's (not one integer), whose rows
        /// are known by the number made from them; nil when the key is the object's own.
        let parentKey: [String]?
    }

    /// Makes the join tables among `leftOut` (tables that are no entity) many-to-many
    /// relationships, decided from the schema's description as for any engine
    /// (`ForeignSchema+JoinTables`); `isEnd`: a foreign key to an entity's key. A table
    /// that joins nothing is named in a note with the reason.
    /// `keyed`: the table has a primary key (it is a join table's shape, to tables'
    /// keys; left out when they are not both entities).
    /// Returns the tables without a key that are no join table: each is read as a view is
    /// (`mapKeylessTables`).
    func mapJoinTables(
        _ leftOut: [(table: String, keyed: Bool)], catalog: ForeignSchema, isEnd: (ForeignSchema.ForeignKey) -> Bool, session: StoreSession
    ) -> [String] {
        var keyless: [String] = []
        for (table, keyed) in leftOut {
            // A table with no key whose pair would be read only (a time it requires): the
            // pair, to read; its rows are no objects.
            guard let shape = catalog.joinTable(table, isEnd: isEnd, type: { Self.attributeType($0.declaredType) }),
                shape.required.isEmpty || !keyed
            else {
                if keyed {
                    session.leaveOut(
                        table,
                        because: "\(table) joins tables that are not both entities, and is no entity itself (a join table's rows are links): left out"
                    )
                } else {
                    keyless.append(table)
                }
                continue
            }
            do {
                try mapJoinTable(shape, catalog: catalog, session: session)
            } catch {
                session.leaveOut(table, because: "\(table) is left out, not read as the many-to-many relationship it joins: \(error)")
            }
        }
        return keyless
    }

    /// The pairs of keyed tables of a join table's shape that are entities too: read only
    /// for times they require (Sakila's `film_actor.last_update NOT NULL` with no default),
    /// whose objects write its rows; ordered where the key holds a position (NewPipe's
    /// `playlist_stream_join` keyed by `(playlist_id, join_index)`), as in a SQLite file.
    func mapReadOnlyPairs(_ tables: [String], catalog: ForeignSchema, isEnd: (ForeignSchema.ForeignKey) -> Bool, session: StoreSession) {
        for table in tables {
            guard let shape = catalog.joinTable(table, isEnd: isEnd, type: { Self.attributeType($0.declaredType) }) else { continue }
            do {
                try mapJoinTable(shape, catalog: catalog, session: session)
            } catch {
                session.openingNotes.append("\(table) is read as a table only, not as the many-to-many relationship it joins: \(error)")
            }
        }
    }

    /// The pairs of `tables`, entities known by their own integer key, that are join
    /// tables besides (`id serial`, two foreign keys, a position or times): the pair is
    /// written through its link view as any, the key filled by its default; one whose
    /// relationships are more than its ends' to-ones (another table names it) is left an
    /// entity only, as in a SQLite file.
    func mapKeyedJoinTables(_ tables: [String], catalog: ForeignSchema, isEnd: (ForeignSchema.ForeignKey) -> Bool, session: StoreSession) {
        for table in tables {
            guard let entity = session.managedObjectModel.entitiesByName[table],
                let shape = catalog.joinTable(
                    table, isEnd: isEnd, ownKey: session.mapped(entity).keyColumn, type: { Self.attributeType($0.declaredType) }),
                entity.relationships.count == [shape.first, shape.second].filter({ $0.columns.count == 1 }).count
            else { continue }
            // A key nothing fills (no serial, identity or default) a link's row cannot be
            // given: the pair is read only, its rows written as the entity's.
            let key = session.mapped(entity).keyColumn
            let unfilled = catalog.relations[table]?.column(key)?.hasDefault == false ? [key] : []
            do {
                try mapJoinTable(
                    .init(table: table, first: shape.first, second: shape.second, required: shape.required + unfilled), catalog: catalog,
                    session: session)
            } catch {
                session.openingNotes.append("\(table) is read as a table only, not as the many-to-many relationship it joins: \(error)")
            }
        }
    }

    private func mapJoinTable(_ shape: ForeignSchema.JoinTable, catalog: ForeignSchema, session: StoreSession) throws {
        let (table, required) = (shape.table, shape.required)
        // An end's columns in its parent's key order (a keyed table's number is made from them).
        func end(_ key: ForeignSchema.ForeignKey) -> JoinEnd {
            let keyed = keyedTables[key.parent]
            return JoinEnd(columns: catalog.columnPairs(of: key, in: keyed).map(\.column), parent: key.parent, parentKey: keyed)
        }
        let (first, second) = (end(shape.first), end(shape.second))
        let before = (try session.entity(named: first.parent), try session.entity(named: second.parent))
        var a = before.0
        let same = first.parent == second.parent
        var b = same ? a : before.1
        func free(_ name: String, in entity: EntityDescription) -> Bool { session.isFreeKey(name, in: entity) }
        // Named as a SQLite file's join table, which is an entity, names its sides: by the
        // entity at the other end in the plural (`post.tags`); where taken, by the to-one
        // name its key would have as an entity's (`customer_code_customers`); an end of
        // several columns, which is no to-one, by its parent (`lineItem` -> `lineItems`).
        // The names the rule before issue 60 gave are other names.
        let columns = catalog.relations[table]?.columns.map(\.name) ?? []
        let singles = [shape.first, shape.second].filter { $0.columns.count == 1 }.map {
            ($0.columns[0], $0.parent, catalog.referencedColumns(of: $0)?.first)
        }
        let keyNames = ForeignNaming.joinKeyNames(columns: columns, keys: singles)
        let formerKeyNames = ForeignNaming.joinKeyNames(columns: columns, keys: singles, former: true)
        func other(_ end: JoinEnd, former: Bool = false) -> String {
            end.columns.count == 1
                ? (former ? formerKeyNames : keyNames)[end.columns[0]] ?? ForeignNaming.relationshipStem(end.columns[0])
                : ForeignNaming.singular(ForeignNaming.lowerCamel(end.parent))
        }
        let aName = ForeignNaming.manyToManyName(otherEntity: second.parent, otherToOne: other(second), joinTable: table, selfJoin: same) {
            free($0, in: a)
        }
        let bName = ForeignNaming.manyToManyName(otherEntity: first.parent, otherToOne: other(first), joinTable: table, selfJoin: same) {
            free($0, in: b) && !(same && $0 == aName)
        }
        let aFormer = ForeignNaming.manyToManyName(
            otherEntity: second.parent, otherToOne: other(second, former: true), joinTable: table, former: true
        ) { free($0, in: a) || $0 == aName }
        let bFormer = ForeignNaming.manyToManyName(
            otherEntity: first.parent, otherToOne: other(first, former: true), joinTable: table, former: true
        ) { (free($0, in: b) || $0 == bName) && !(same && $0 == aFormer) }
        // The join table's own foreign keys decide what deleting a parent does: NO ACTION
        // and RESTRICT refuse while links exist, as the server would; otherwise the links go.
        // A many-to-many's links go with either end, as Core Data's do, whatever the join
        // table's keys say (`ForeignFileStore+JoinTables`): the pair nullifies.
        ForeignSchema.pair(&a, aName, &b, bName, otherNames: (aFormer, bFormer), in: session)
        do {
            guard let relationship = a.relationship(named: aName),
                case .linkTable(let link, let sourceColumn, _)? = session.storage(of: relationship, in: a.name)
            else { return }
            let (source, target) = sourceColumn == "source" ? (first, second) : (second, first)
            // Temporary objects of this session, made again with it when the connection is
            // (`PostgresConnection+Reconnect`): a transaction that may write them, in a
            // session whose transactions are read-only by default.
            let sourceIsFirst = sourceColumn == "source"
            let position = shape.linkPosition(sourceIsFirst: sourceIsFirst)
            try server(session).executeForSession(
                inTransaction: linkViewSQL(link: link, join: table, source: source, target: target, position: position))
            joinTables.insert(table)
            if let note = ForeignSchema.order(shape, link: link, sourceIsFirst: sourceIsFirst, names: (aName, bName), in: session) {
                session.openingNotes.append(note)
            }
            // A join table that is an entity too (its own key, or a read-only pair's) names
            // its link, so a save that removes a link lets its row go before the parents
            // it names (`isUnlinkedJoinRow`), as a SQLite file's join table does.
            if let entity = session.managedObjectModel.entitiesByName[table] {
                var storage = session.mapped(entity)
                storage.pairLink = link
                storage.pairSourceColumn = source.columns[0]
                session.remember(entity, storage: storage)
            }
            if !required.isEmpty { ForeignSchema.readOnly(link, join: table, required: required, sides: [first.parent, second.parent], in: session) }
        } catch {
            // No pair without its view: the model stays as it was.
            session.remember(before.0)
            if !same { session.remember(before.1) }
            session.bumpGeneration()
            throw error
        }
    }

    /// The link table `link` as a temporary view over the join table's key columns, each
    /// end read as its parent's object's key (a keyed table's: its row's number, made from
    /// the end's columns as from the parent's key), written through an INSTEAD OF trigger
    /// whose function is temporary too; a number written is turned back into its
    /// parent's key columns.
    /// A position (`ForeignSchema.Position`) is read as `position`: a link's row takes
    /// the owner's largest plus one (0 for its first), and an UPDATE of `position` moves
    /// one row of an owner (its position is unique there).
    private func linkViewSQL(
        link: String, join: String, source: JoinEnd, target: JoinEnd, position: (column: String, ownerIsSource: Bool)? = nil
    ) -> [String] {
        let l = quoteIdentifier(link)
        let j = quoteIdentifier(schema) + "." + quoteIdentifier(join)
        // The end's columns as its parent's object key, and a value of that key as the columns'.
        func number(_ end: JoinEnd) -> String {
            end.parentKey == nil ? "\(quoteIdentifier(end.columns[0]))::bigint" : Self.rowNumber(of: end.columns)
        }
        func keys(_ end: JoinEnd, _ value: String) -> [String] {
            guard let parentKey = end.parentKey else { return [value] }
            return parentKey.map { "(SELECT \(quoteIdentifier($0)) FROM \(qualified(end.parent)) WHERE \(Self.rowNumber(of: parentKey)) = \(value))" }
        }
        // The columns as kept, too (`source_key`, or `source_key_1`, ... for several): a
        // link's row is deleted by them, through their index.
        func kept(_ end: JoinEnd, _ side: String) -> [String] {
            end.columns.count == 1 ? [side + "_key"] : end.columns.indices.map { "\(side)_key_\($0 + 1)" }
        }
        func equal(_ columns: [String], _ values: [String]) -> String {
            zip(columns, values).map { "\(quoteIdentifier($0)) = \($1)" }.joined(separator: " AND ")
        }
        let (sk, tk) = (kept(source, "source"), kept(target, "target"))
        let keptColumns = (Array(zip(source.columns, sk)) + Array(zip(target.columns, tk))).map { "\(quoteIdentifier($0)) AS \($1)" }.joined(
            separator: ", ")
        let present = (source.columns + target.columns).map { "\(quoteIdentifier($0)) IS NOT NULL" }.joined(separator: " AND ")
        var written = (source.columns + target.columns).map(quoteIdentifier)
        let (newSource, newTarget) = (keys(source, "NEW.source"), keys(target, "NEW.target"))
        var values = newSource + newTarget
        var read = "\(number(source)) AS source, \(number(target)) AS target, \(keptColumns)"
        var moved = ""
        if let position {
            let p = quoteIdentifier(position.column)
            let (owner, newOwner, oldOwner) =
                position.ownerIsSource ? (source, newSource, sk.map { "OLD." + $0 }) : (target, newTarget, tk.map { "OLD." + $0 })
            written.append(p)
            values.append("(SELECT coalesce(max(\(p)), -1) + 1 FROM \(j) WHERE \(equal(owner.columns, newOwner)))")
            read += ", \(p) AS position"
            moved = """
                  IF TG_OP = 'UPDATE' THEN
                    UPDATE \(j) SET \(p) = NEW.position WHERE \(equal(owner.columns, oldOwner)) AND \(p) = OLD.position;
                    RETURN NEW;
                  END IF;
                """
        }
        let function = "pg_temp." + quoteIdentifier(link + "_write")
        return [
            "CREATE OR REPLACE TEMP VIEW \(l) AS SELECT \(read) FROM \(j) WHERE \(present)",
            """
            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP = 'INSERT' THEN
                INSERT INTO \(j) (\(written.joined(separator: ", "))) SELECT \(values.joined(separator: ", "))
                  WHERE NOT EXISTS (SELECT 1 FROM \(j) WHERE \(equal(source.columns, newSource)) AND \(equal(target.columns, newTarget)));
                RETURN NEW;
              END IF;
            \(moved)  DELETE FROM \(j) WHERE \(equal(source.columns, sk.map { "OLD." + $0 })) AND \(equal(target.columns, tk.map { "OLD." + $0 }));
              RETURN OLD;
            END $$
            """,
            "CREATE OR REPLACE TRIGGER \(quoteIdentifier(link + "_write")) INSTEAD OF INSERT OR DELETE\(position == nil ? "" : " OR UPDATE") ON pg_temp.\(l) FOR EACH ROW EXECUTE FUNCTION \(function)()"
        ]
    }
}

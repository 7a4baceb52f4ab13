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
    /// One foreign key of a table left out: its column, and the entity and key it names.
    struct JoinEnd {
        let column: String
        let parent: String
        /// The parent's key column when it is a keyed table's (not one integer), whose rows
        /// are known by the number made from it; nil when the key is the object's own.
        let parentKey: String?
        let action: String
    }

    /// Whether a table's columns are a join table's: `keys`, two distinct columns that are
    /// foreign keys to other tables' keys, and besides them what a link's insert may leave
    /// out: one position, and times the server fills in or leaves NULL (Sakila's
    /// `last_update DEFAULT now()`).
    static func isJoinTableShaped(_ columns: [[Value]], keys: [String]) -> Bool {
        requiredTimes(columns, keys: keys)?.isEmpty == true
    }

    /// The times of a join table's shape that a link's insert cannot leave out (`NOT NULL`,
    /// no default), which make its pair read only; nil when the columns are not a join
    /// table's: `keys`, two distinct columns, and besides them one position and times.
    static func requiredTimes(_ columns: [[Value]], keys: [String]) -> [String]? {
        let others = columns.filter { row in !keys.contains { $0 == row[1].textValue } }
        let nullable = { (row: [Value]) in row[3].storedInteger != 1 }
        let positions = others.filter { nullable($0) && ["int2", "int4", "int8"].contains($0[2].textValue ?? "") }
        let stamps = others.filter { attributeType($0[2].textValue ?? "") == .date }
        guard keys.count == 2, keys[0] != keys[1], positions.count <= 1, positions.count + stamps.count == others.count else { return nil }
        return stamps.filter { !nullable($0) && $0[4].storedInteger != 1 }.compactMap { $0[1].textValue }
    }

    /// Makes the join tables among `leftOut` (tables that are no entity, with their
    /// columns as the catalog gave them) many-to-many relationships; `ends` are their
    /// single-column foreign keys to an entity's key. A table that joins nothing is named
    /// in a note with the reason.
    /// `keyed`: the table has a primary key (it is a join table's shape, to tables'
    /// keys; left out when they are not both entities).
    func mapJoinTables(_ leftOut: [(table: String, columns: [[Value]], keyed: Bool)], ends: [String: [JoinEnd]], context: ObjectContext) {
        for (table, columns, keyed) in leftOut {
            let keys = ends[table] ?? []
            // A table with no key whose pair would be read only (a time it requires): the
            // pair, to read; its rows are no objects.
            let required = Self.requiredTimes(columns, keys: keys.map(\.column)) ?? []
            guard Self.isJoinTableShaped(columns, keys: keys.map(\.column)) || !keyed && !required.isEmpty else {
                context.openingNotes.append(keyed
                    ? "\(table) joins tables that are not both entities, and is no entity itself (a join table's rows are links): left out"
                    : "\(table) has no primary key, which Quarry's objects are known by, and is no join table of two foreign keys to entities: left out")
                continue
            }
            do {
                try mapJoinTable(table, keys[0], keys[1], columns: columns.compactMap { $0[1].textValue }, required: required, context: context)
            } catch {
                context.openingNotes.append("\(table) is left out, not read as the many-to-many relationship it joins: \(error)")
            }
        }
    }

    /// The read-only pairs of keyed tables of a join table's shape but for times they
    /// require (Sakila's `film_actor.last_update NOT NULL` with no default): each is an
    /// entity, whose objects write its rows, and gives the pair to read, as in a SQLite file.
    func mapReadOnlyPairs(_ tables: [(table: String, columns: [[Value]], required: [String])], ends: [String: [JoinEnd]], context: ObjectContext) {
        for (table, columns, required) in tables {
            guard let keys = ends[table], keys.count == 2 else { continue }
            do {
                try mapJoinTable(table, keys[0], keys[1], columns: columns.compactMap { $0[1].textValue }, required: required, context: context)
            } catch {
                context.openingNotes.append("\(table) is read as a table only, not as the many-to-many relationship it joins: \(error)")
            }
        }
    }

    private func mapJoinTable(_ table: String, _ first: JoinEnd, _ second: JoinEnd, columns: [String], required: [String] = [], context: ObjectContext) throws {
        let before = (try context.entity(named: first.parent), try context.entity(named: second.parent))
        var a = before.0
        let same = first.parent == second.parent
        var b = same ? a : before.1
        func free(_ name: String, in entity: EntityDescription) -> Bool { context.isFreeKey(name, in: entity) }
        // Named from the to-one names its keys would have as an entity's, as a SQLite
        // file's join table, which is one, has them (`customer_code_customers`).
        let keyNames = ForeignFileStore.joinKeyNames(columns: columns, keys: [(first.column, first.parent), (second.column, second.parent)])
        let aName = ForeignFileStore.manyToManyName(other: keyNames[second.column] ?? ForeignFileStore.relationshipStem(second.column), joinTable: table) { free($0, in: a) }
        let bName = ForeignFileStore.manyToManyName(other: keyNames[first.column] ?? ForeignFileStore.relationshipStem(first.column), joinTable: table) {
            free($0, in: b) && !(same && $0 == aName)
        }
        // The join table's own foreign keys decide what deleting a parent does: NO ACTION
        // and RESTRICT refuse while links exist, as the server would; otherwise the links go.
        // A read-only pair's links go by the join table's own objects (its to-manys deny).
        func rule(_ end: JoinEnd) -> DeleteRule { required.isEmpty && ForeignSchemaReader.deleteRule(onDelete: end.action) == .deny ? .deny : .nullify }
        ForeignFileStore.pair(&a, aName, &b, bName, rules: (rule(first), rule(second)), in: context)
        do {
            guard let relationship = a.relationship(named: aName),
                  case .linkTable(let link, let sourceColumn, _)? = context.storage(of: relationship, in: a.name) else { return }
            let (source, target) = sourceColumn == "source" ? (first, second) : (second, first)
            // Temporary objects of this session, made again with it when the connection is
            // (`PostgresConnection+Reconnect`): a transaction that may write them, in a
            // session whose transactions are read-only by default.
            try server(context).executeForSession(inTransaction: linkViewSQL(link: link, join: table, source: source, target: target))
            joinTables.insert(table)
            if !required.isEmpty { ForeignFileStore.readOnly(link, join: table, required: required, sides: [first.parent, second.parent], in: context) }
        } catch {
            // No pair without its view: the model stays as it was.
            context.remember(before.0)
            if !same { context.remember(before.1) }
            context.bumpGeneration()
            throw error
        }
    }

    /// The link table `link` as a temporary view over the join table's two key columns,
    /// each read as its parent's object's key (a keyed table's: its row's number), written
    /// through an INSTEAD OF trigger whose function is temporary too; a number written is
    /// turned back into its parent's key.
    private func linkViewSQL(link: String, join: String, source: JoinEnd, target: JoinEnd) -> [String] {
        let l = quoteIdentifier(link)
        let j = quoteIdentifier(schema) + "." + quoteIdentifier(join)
        // The end's column as its parent's object key, and a value of that key as the column's.
        func number(_ end: JoinEnd) -> String {
            end.parentKey == nil ? "\(quoteIdentifier(end.column))::bigint" : Self.rowNumber(of: [end.column])
        }
        func key(_ end: JoinEnd, _ value: String) -> String {
            guard let parentKey = end.parentKey else { return value }
            return "(SELECT \(quoteIdentifier(parentKey)) FROM \(qualified(end.parent)) WHERE \(Self.rowNumber(of: [parentKey])) = \(value))"
        }
        let (s, t) = (quoteIdentifier(source.column), quoteIdentifier(target.column))
        let function = "pg_temp." + quoteIdentifier(link + "_write")
        return [
            // The columns as kept, too: a link's row is deleted by them, through their index.
            "CREATE OR REPLACE TEMP VIEW \(l) AS SELECT \(number(source)) AS source, \(number(target)) AS target, \(s) AS source_key, \(t) AS target_key "
                + "FROM \(j) WHERE \(s) IS NOT NULL AND \(t) IS NOT NULL",
            """
            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP = 'INSERT' THEN
                INSERT INTO \(j) (\(s), \(t)) SELECT \(key(source, "NEW.source")), \(key(target, "NEW.target"))
                  WHERE NOT EXISTS (SELECT 1 FROM \(j) WHERE \(s) = \(key(source, "NEW.source")) AND \(t) = \(key(target, "NEW.target")));
                RETURN NEW;
              END IF;
              DELETE FROM \(j) WHERE \(s) = OLD.source_key AND \(t) = OLD.target_key;
              RETURN OLD;
            END $$
            """,
            "CREATE OR REPLACE TRIGGER \(quoteIdentifier(link + "_write")) INSTEAD OF INSERT OR DELETE ON pg_temp.\(l) FOR EACH ROW EXECUTE FUNCTION \(function)()",
        ]
    }
}

import GRDB
import QuarryStore

/// What the opening notes say of a file's parts Quarry reads otherwise than sqlite3 would
/// show them: nothing of a file is passed over without a note naming it and saying why.
extension ForeignSchemaReader {
    /// SQLite's own words for why `error` happened, as sqlite3 prints them.
    static func reason(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }

    /// A foreign key naming a table the file does not have is no relationship (it has no
    /// other end): its column is read as a column, and the note says so, naming both.
    /// SQLite refuses every write to the table while foreign keys are checked ("no such
    /// table"), as Quarry checks them: the note says that too, before a save meets it.
    func noteMissingParents(of schema: ForeignSchema) {
        guard schema.relations.values.contains(where: { !$0.isView && !$0.foreignKeys.isEmpty }) else { return }
        let present =
            (try? session.connection.read { db in
                Set(try String.fetchAll(db, sql: "SELECT lower(name) FROM main.sqlite_master WHERE type IN ('table', 'view')"))
            }) ?? []
        // One note per missing table, however many keys reference it (Android's contacts2.db
        // has six to one table): the keys, then the tables SQLite will not write.
        var byParent: [(parent: String, keys: [(relation: String, columns: [String])])] = []
        for relation in schema.relations.values.sorted(by: { $0.name < $1.name }) where !relation.isView {
            for key in relation.foreignKeys where !present.contains(key.parent.lowercased()) {
                if let i = byParent.firstIndex(where: { $0.parent.lowercased() == key.parent.lowercased() }) {
                    byParent[i].keys.append((relation.name, key.columns))
                } else {
                    byParent.append((key.parent, [(relation.name, key.columns)]))
                }
            }
        }
        for (parent, keys) in byParent {
            let named = keys.map { "\($0.relation)(\($0.columns.joined(separator: ", ")))" }
            var tables: [String] = []
            for key in keys where !tables.contains(key.relation) { tables.append(key.relation) }
            let column = keys.allSatisfy { $0.columns.count == 1 } ? "its column" : "its columns"
            let read = (keys.count == 1 ? "read as " : "each read as ") + column
            session.openingNotes.append(
                "\(Self.listed(named)) \(keys.count == 1 ? "references" : "reference") \(parent), which the file does not have: \(read), "
                    + "not as a relationship; SQLite writes no row of \(Self.listed(tables)) while foreign keys are checked")
        }
    }

    /// `a`, `a and b`, `a, b and c`.
    static func listed(_ names: [String]) -> String {
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}

extension ForeignSchemaReader {
    /// A collation the application that wrote the file registers on its own connection
    /// (Anki's `unicase`, Android's `PHONEBOOK`) is one SQLite does not know: every
    /// statement that compares or sorts with it fails, as in sqlite3 ("no such collation
    /// sequence"), and so does a count SQLite runs through an index of it. The table is
    /// read all the same; one note per collation names the tables' columns and indexes, so the failure is
    /// expected rather than met (an index made by a column's UNIQUE or PRIMARY KEY takes
    /// the column's collation, named once with the column). Quarry never makes such a collation up: an index kept in
    /// another order than the application's would be corrupted by a write.
    func noteUnknownCollations(of schema: ForeignSchema) {
        // Only tables read here have columns and indexes to note.
        guard schema.relations.values.contains(where: { !$0.isView }) else { return }
        // By collation, then table: `uses["unicase"]["decks"] == ["column name", "index idx_decks_name"]`.
        let found = try? session.connection.read { db -> [String: [String: [String]]] in
            // A column or an index takes a collation only by a COLLATE its SQL says: a
            // schema that says none anywhere needs no look at each column and index.
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM main.sqlite_master WHERE sql LIKE '%COLLATE%')") != false else {
                return [:]
            }
            // `pragma_collation_list` also lists a name SQLite only looked up: a collation
            // is known when a statement comparing with it prepares.
            var known: [String: Bool] = ["binary": true, "nocase": true, "rtrim": true]
            func isKnown(_ name: String) -> Bool {
                if let answer = known[name.lowercased()] { return answer }
                let answer = (try? db.makeStatement(sql: "SELECT 'a' = 'b' COLLATE \(quoteIdentifier(name))")) != nil
                known[name.lowercased()] = answer
                return answer
            }
            var uses: [String: [String: [String]]] = [:]
            // A name is one collation whatever its case, as SQLite looks it up.
            func key(_ name: String) -> String { uses.keys.first { $0.lowercased() == name.lowercased() } ?? name }
            // By table name, so a collation spelt in two cases is named as the first table spells it.
            for relation in schema.relations.values.sorted(by: { $0.name < $1.name }) where !relation.isView {
                for column in relation.columns {
                    guard let name = Self.declaredCollation(of: column.name, in: relation.name, db), !isKnown(name) else { continue }
                    uses[key(name), default: [:]][relation.name, default: []].append("column \(column.name)")
                }
            }
            let indexes = try Row.fetchAll(
                db,
                sql: """
                    SELECT m.name AS tbl, il.name AS idx, ii.coll AS coll
                    FROM main.sqlite_master m JOIN pragma_index_list(m.name) il JOIN pragma_index_xinfo(il.name) ii
                    WHERE m.type = 'table' AND il.origin = 'c' AND ii.key = 1 AND ii.coll IS NOT NULL
                    ORDER BY m.name, il.name, ii.seqno
                    """)
            for row in indexes {
                let table: String = row["tbl"]
                let index: String = row["idx"]
                let collation: String = row["coll"]
                guard schema.relations[table] != nil, !isKnown(collation) else { continue }
                let use = "index \(index)"
                if uses[key(collation)]?[table]?.contains(use) != true { uses[key(collation), default: [:]][table, default: []].append(use) }
            }
            return uses
        }
        // One note per collation, however many tables use it (Anki's unicase is in six).
        for (collation, tables) in (found ?? [:]).sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            let named = tables.sorted(by: { $0.key < $1.key }).map { "\($0.key) (\($0.value.joined(separator: ", ")))" }
            session.openingNotes.append(
                "collation \(collation), which the application that wrote the file defines and SQLite does not know, is used in "
                    + (tables.count == 1 ? "" : "\(tables.count) tables: ") + Self.listed(named)
                    + ": sorting or comparing by it fails (in sqlite3 too)")
        }
    }
}

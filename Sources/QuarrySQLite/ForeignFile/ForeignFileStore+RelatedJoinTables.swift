import QuarryModel
import QuarryStore

/// A link table without foreign keys (Calibre's `books_authors_link(id INTEGER PRIMARY
/// KEY, book INTEGER NOT NULL, author INTEGER NOT NULL, UNIQUE(book, author))`) whose two
/// ends `relate()` names has the shape of a join table (`ForeignSchema+JoinTables`): the
/// `relate()` that completes the shape gives the many-to-many that the same table declared
/// with `REFERENCES` gives (`book.authors`, `author.books`, named by the rule, links read
/// from and written to the table), beside the two to-ones. The sidecar keeps the calls, and
/// replaying them at an open makes the pair again. A table that declares keys of its own
/// was decided at the open, from them.
extension ForeignFileStore {
    package func didRelate(_ table: String, in session: StoreSession) {
        guard let join = session.managedObjectModel.entitiesByName[table] else { return }
        let storage = session.mapped(join)
        guard storage.layout == .foreignTable, storage.pairLink == nil else { return }
        let ends = join.toOneRelationships.filter { $0.compositeKey == nil }
        guard ends.count == 2, join.relationships.count == 2 else { return }
        do {
            var schema = try ForeignSchemaReader(session: session).catalog(of: Array(Set([table] + ends.map(\.destination))))
            guard var relation = schema.relations[table], relation.foreignKeys.isEmpty else { return }
            relation.foreignKeys = try ends.map { end in
                guard let column = end.column else { throw StoreError.invalidSchema(entity: table, reason: "\(end.name) has no column") }
                let parent = try session.entity(named: end.destination)
                let parentKey = end.targetKey ?? session.mapped(parent).keyColumn
                return ForeignSchema.ForeignKey(columns: [column], parent: end.destination, parentColumns: [parentKey], onDelete: "NO ACTION")
            }
            schema.relations[table] = relation
            Self.mapJoinTables([table], schema: schema, in: session)
        } catch {
            session.openingNotes.append("\(table) is read as a table only, not as the many-to-many relationship it joins: \(error)")
        }
    }
}

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
        let present =
            (try? context.connection.read { db in
                Set(try String.fetchAll(db, sql: "SELECT lower(name) FROM main.sqlite_master WHERE type IN ('table', 'view')"))
            }) ?? []
        for relation in schema.relations.values.sorted(by: { $0.name < $1.name }) where !relation.isView {
            for key in relation.foreignKeys where !present.contains(key.parent.lowercased()) {
                context.openingNotes.append(
                    "\(relation.name)(\(key.columns.joined(separator: ", "))) references \(key.parent), which the file does not have: read as "
                        + (key.columns.count == 1 ? "its column" : "its columns")
                        + ", not as a relationship; SQLite writes no row of \(relation.name) while foreign keys are checked")
            }
        }
    }
}

import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Quarry's model lives in the file itself (table `quarry_model`, one declaration per
/// entity as `StoredDefinition` text), so reopening a file restores every entity without
/// a script.
extension QuarryFileStore: OpenableStore {
    static let modelTable = "quarry_model"

    /// A file holding Quarry's model, or one with nothing in it yet (a new file, an
    /// in-memory store, an existing empty file: each becomes Quarry's at its first entity).
    /// A `quarry_model` with no rows beside other tables is not enough: such a file opens
    /// as someone else's.
    package static func recognizes(_ db: Database, path: String?) throws -> Bool {
        if try db.hasTable(modelTable), try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(modelTable))") == true { return true }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM main.sqlite_master)") != true
    }

    /// The store with the entities `quarry_model` declares.
    package static func open(_ connection: StoreConnection, modelPath: String?) throws -> QuarryFileStore {
        let rows = try connection.read { db -> [(String, String)] in
            guard try db.hasTable(modelTable) else { return [] }
            // A cursor over a statement, not `Row.fetchAll(db, sql:)`: the first use of
            // GRDB's generic request asks the Swift runtime for a conformance, a search of
            // the whole binary that cost 5% of opening a file.
            let rows = try Row.fetchCursor(db.makeStatement(sql: "SELECT name, definition FROM \(modelTable) ORDER BY rowid"))
            var declarations: [(String, String)] = []
            while let row = try rows.next() {
                let name: String = try row.stored(0, table: modelTable, column: "name")
                // Another program's change to a row names the entity it belongs to.
                do { declarations.append((name, try row.stored(1, table: modelTable, column: "definition") as String)) } catch let error as StoreError
                {
                    throw StoreError.during(operation: "the stored model of entity \(name)", error)
                }
            }
            return declarations
        }
        let store = QuarryFileStore()
        for (name, definition) in rows {
            guard let entity = (try? StoredDefinition(text: definition))?.entity else {
                throw StoreError.database(message: "the stored model of entity \(name) is unreadable")
            }
            store.rememberDeclared(entity)
        }
        store.rememberHierarchies()
        return store
    }
}

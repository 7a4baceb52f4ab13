/// The store mapping is the one place that says where an entity's rows are: one layout
/// per kind of file, and the SQL Quarry writes reads the relation, key and columns it names.
import Foundation
import GRDB
import QuarryModel
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

@Suite struct StoreMappingTests {
    func temporaryPath(_ name: String) throws -> String {
        try CoreDataFixtures.temporaryFolder().appendingPathComponent(name).path
    }

    @Test func quarrysOwnEntitiesAreTablesKeyedByPk() throws {
        let context = try OpenFileRequest.open(path: nil)
        try context.define(EntityDescription(name: "Item", attributes: [AttributeDescription(name: "title", type: .string)]))
        let storage = context.mapped(try context.entity(named: "Item"))
        #expect(storage.layout == .quarry)
        #expect(storage.relation == "Item")
        #expect(storage.keyColumn == "_pk")
        #expect(!storage.isForeign && !storage.isView && storage.storeNumber == nil)
        #expect(storage.selection(of: try context.entity(named: "Item")) == "\"_pk\", \"title\"")
    }

    @Test func aForeignFilesTablesAndViewsKeepTheirOwnKeys() throws {
        let path = try temporaryPath("foreign.db")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
                    CREATE TABLE note (body TEXT);
                    CREATE TABLE tag (code INTEGER PRIMARY KEY, label TEXT) WITHOUT ROWID;
                    CREATE VIEW named AS SELECT id, name FROM author;
                    INSERT INTO author VALUES (7, 'Ann'); INSERT INTO note VALUES ('x');
                    """)
        }
        try queue.close()
        let context = try OpenFileRequest.open(path: path, readOnly: true)
        defer { context.close() }
        let author = context.mapped(try context.entity(named: "author"))
        #expect(author.layout == .foreignTable && author.keyColumn == "id" && !author.keyMayHoldOthers)
        let note = context.mapped(try context.entity(named: "note"))
        #expect(note.layout == .foreignTable && note.keyColumn == "rowid")
        let tag = context.mapped(try context.entity(named: "tag"))
        #expect(tag.keyColumn == "code" && tag.keyMayHoldOthers && tag.needsIntegerKeyCheck)
        let view = context.mapped(try context.entity(named: "named"))
        // A view is read through a TEMP view whose first column is its key: here its `id`.
        #expect(view.layout == .foreignView && view.isView && view.relation == "quarry_rows named" && view.keyColumn == "_row")
        #expect(try context.object(entityName: "named", primaryKey: 7)?.value(forKey: "name") == .text("Ann"))
        // The model itself names no key column: a foreign file's `id` is an attribute.
        #expect(try context.entity(named: "author").attribute(named: "id") != nil)
        #expect(try context.object(entityName: "author", primaryKey: 7)?.value(forKey: "name") == .text("Ann"))
    }

    @Test func coreDataEntitiesAreViewsNumberedByZENT() throws {
        let copy = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let context = try OpenFileRequest.open(path: copy, readOnly: true)
        defer { context.close() }
        let numbers = try context.connection.read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY").map { row -> (String, Int64) in (row[0], row[1])
                })
        }
        for name in ["Car", "SportCar", "ExpensiveSportCar"] {
            let storage = context.mapped(try context.entity(named: name))
            #expect(storage.storeNumber == numbers[name], "\(name)")
            #expect(storage.relation == name && storage.keyColumn == "_pk" && storage.isForeign)
            #expect(storage.entityTag(of: name) == numbers[name].map(Value.integer))
        }
    }

    @Test func quarrysModelTableKeepsTheKeyColumnAndOlderDefinitionsOpen() throws {
        let path = try temporaryPath("own.db")
        do {
            let context = try OpenFileRequest.open(path: path)
            try context.define(EntityDescription(name: "Item", attributes: [AttributeDescription(name: "n", type: .int64)]))
            context.close()
        }
        let queue = try DatabaseQueue(path: path)
        let stored = try queue.read { db in try String.fetchOne(db, sql: "SELECT definition FROM quarry_model WHERE name = 'Item'") }
        // Quarry versions before the mapping require the key column in each definition.
        #expect(stored?.contains("\"primaryKey\":\"_pk\"") == true)
        // A definition without it (none was ever written so, but it is all the model
        // needs) still opens; one naming another key column is not Quarry's.
        try queue.write { db in
            try db.execute(sql: "UPDATE quarry_model SET definition = replace(definition, '\"primaryKey\":\"_pk\",', '')")
        }
        try queue.close()
        let reopened = try OpenFileRequest.open(path: path)
        #expect(try reopened.entity(named: "Item").attribute(named: "n") != nil)
        reopened.close()
        let again = try DatabaseQueue(path: path)
        try again.write { db in
            try db.execute(sql: "UPDATE quarry_model SET definition = replace(definition, '{', '{\"primaryKey\":\"id\",')")
        }
        try again.close()
        #expect(throws: StoreError.self) { try OpenFileRequest.open(path: path) }
    }
}

import Foundation
import GRDB
import QuarryModel
import QuarrySQLite
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

@Suite struct MigrationTests {
    let v1 = EntityDescription(
        name: "Item",
        attributes: [
            AttributeDescription(name: "title", type: .string),
            AttributeDescription(name: "n", type: .int64, isOptional: true, isIndexed: true)
        ])

    /// A store with `v1` and three rows.
    func populated() throws -> ObjectContext {
        let context = try makeContext(v1)
        for (i, title) in ["a", "b", "c"].enumerated() {
            _ = try context.insert(into: "Item", values: ["title": .text(title), "n": .integer(Int64(i))])
        }
        try context.save()
        return context
    }

    func storedModel(_ context: ObjectContext) throws -> String? {
        try context.connection.read { db in try String.fetchOne(db, sql: "SELECT definition FROM quarry_model WHERE name = 'Item'") }
    }

    func with(_ base: EntityDescription, _ change: (inout [AttributeDescription]) -> Void) -> EntityDescription {
        var attributes = base.attributes
        change(&attributes)
        return EntityDescription(name: base.name, attributes: attributes)
    }

    @Test func renamedFromRenamesTheColumnAndKeepsValuesAndIndex() throws {
        let context = try populated()
        let before = try stored(context, "n")
        let v2 = with(v1) {
            $0[1] = AttributeDescription(name: "count", type: .int64, isOptional: true, isIndexed: true)
            $0[1].renamedFrom = "n"
        }
        try context.define(v2)
        #expect(Set(try columnNames(context)) == ["_pk", "title", "count"])
        #expect(try stored(context, "count") == before)
        let indexes = try context.connection.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Item'")
        }
        #expect(indexes.contains("quarry_idx_Item_count") && !indexes.contains("quarry_idx_Item_n"), "\(indexes)")
        // Running the same definition again changes nothing.
        try context.define(v2)
        #expect(try stored(context, "count") == before)
        // A rename that would also change the type, or keep the old name, is refused whole.
        var v3 = with(v2) {
            $0[0] = AttributeDescription(name: "name", type: .int64)
            $0[0].renamedFrom = "title"
        }
        #expect(throws: StoreError.self) { try context.define(v3) }
        v3 = with(v2) {
            $0.append(AttributeDescription(name: "heading", type: .string))
            $0[2].renamedFrom = "title"
        }
        #expect(throws: StoreError.self) { try context.define(v3) }
        #expect(Set(try columnNames(context)) == ["_pk", "title", "count"])
        #expect(try context.entity(named: "Item") == v2)
    }

    @Test func addingAnOptionalAttributeKeepsRows() throws {
        let context = try populated()
        let v2 = with(v1) { $0.append(AttributeDescription(name: "note", type: .string, isOptional: true)) }
        try context.define(v2)
        #expect(try context.entity(named: "Item") == v2)
        #expect(Set(try columnNames(context)) == ["_pk", "n", "title", "note"])
        #expect(try rowCount(context) == 3)
        #expect(Set(try stored(context, "title").values) == ["a".databaseValue, "b".databaseValue, "c".databaseValue])
        #expect(Set(try stored(context, "note").values) == [.null])
        let objects = try fetchAll(context)
        #expect(try objects.map { try $0.value(forKey: "note") } == [.null, .null, .null])
        try objects[0].setValue(.text("hello"), forKey: "note")
        #expect(try context.save() == SaveSummary(updated: 1))
        #expect(try stored(context, "note")[objects[0].primaryKey!] == "hello".databaseValue)
        let model = try StoredDefinition(text: try #require(try storedModel(context))).entity
        #expect(model == v2)
    }

    @Test func addingARequiredAttributeWithoutDefaultToRowsIsRefusedAndChangesNothing() throws {
        let context = try populated()
        let modelBefore = try storedModel(context)
        let generation = context.generation
        let v2 = with(v1) { $0.append(AttributeDescription(name: "code", type: .string)) }
        #expect(
            throws: StoreError.migrationRefused(
                entity: "Item",
                reason: "new attribute 'code' is required, so the 3 existing rows need a default")
        ) {
            try context.define(v2)
        }
        #expect(StoreError.migrationRefused(entity: "Item", reason: "x").description == "entity Item: cannot migrate: x")
        #expect(try context.entity(named: "Item") == v1)
        #expect(Set(try columnNames(context)) == ["_pk", "n", "title"])
        #expect(try storedModel(context) == modelBefore)
        #expect(try rowCount(context) == 3)
        #expect(context.generation == generation)
        // The store still takes objects of the old shape.
        _ = try context.insert(into: "Item", values: ["title": .text("d")])
        #expect(try context.save() == SaveSummary(inserted: 1))
    }

    @Test func addingARequiredAttributeWithADefaultFillsTheRows() throws {
        let context = try populated()
        let v2 = with(v1) { $0.append(AttributeDescription(name: "rank", type: .int16, defaultValue: .integer(7))) }
        try context.define(v2)
        #expect(Set(try stored(context, "rank").values) == [7.databaseValue])
        let object = try context.insert(into: "Item", values: ["title": .text("new")])
        #expect(try object.value(forKey: "rank") == .integer(7))
    }

    @Test func addingARequiredAttributeToAnEmptyTableIsAllowed() throws {
        let context = try makeContext(v1)
        let v2 = with(v1) { $0.append(AttributeDescription(name: "code", type: .string)) }
        try context.define(v2)
        #expect(try columnNames(context).contains("code"))
    }

    @Test func droppingAnAttributeKeepsTheRest() throws {
        let context = try populated()
        let v2 = with(v1) { $0.removeAll { $0.name == "n" } } // n is indexed: the index goes too
        try context.define(v2)
        #expect(try context.entity(named: "Item") == v2)
        #expect(Set(try columnNames(context)) == ["_pk", "title"])
        #expect(try rowCount(context) == 3)
        #expect(Set(try stored(context, "title").values) == ["a".databaseValue, "b".databaseValue, "c".databaseValue])
        let indexes = try context.connection.read { db in try db.indexes(on: "Item").map(\.name) }
        #expect(indexes.isEmpty)
        _ = try context.insert(into: "Item", values: ["title": .text("d")])
        #expect(try context.save() == SaveSummary(inserted: 1))
    }

    @Test func changingTypeIsRefused() throws {
        let context = try populated()
        let modelBefore = try storedModel(context)
        let v2 = with(v1) { attributes in
            attributes = attributes.map { $0.name == "n" ? AttributeDescription(name: "n", type: .string, isOptional: true) : $0 }
        }
        #expect(throws: StoreError.migrationRefused(entity: "Item", reason: "'n' would change type from int64 to string")) {
            try context.define(v2)
        }
        #expect(try context.entity(named: "Item") == v1)
        #expect(try storedModel(context) == modelBefore)
        #expect(Set(try stored(context, "n").values) == [0.databaseValue, 1.databaseValue, 2.databaseValue])
        #expect(Set(try columnNames(context)) == ["_pk", "n", "title"])
    }

    @Test func makingAnAttributeRequiredNeedsADefaultForNils() throws {
        let context = try makeContext(v1)
        _ = try context.insert(into: "Item", values: ["title": .text("no n")])
        _ = try context.insert(into: "Item", values: ["title": .text("has n"), "n": .integer(4)])
        try context.save()
        let required = with(v1) { attributes in
            attributes = attributes.map { $0.name == "n" ? AttributeDescription(name: "n", type: .int64, isIndexed: true) : $0 }
        }
        #expect(
            throws: StoreError.migrationRefused(
                entity: "Item",
                reason: "'n' would become required, but 1 rows have nil and there is no default")
        ) {
            try context.define(required)
        }
        #expect(try context.entity(named: "Item") == v1)
        let withDefault = with(v1) { attributes in
            attributes = attributes.map {
                $0.name == "n" ? AttributeDescription(name: "n", type: .int64, defaultValue: .integer(-1), isIndexed: true) : $0
            }
        }
        try context.define(withDefault)
        #expect(Set(try stored(context, "n").values) == [(-1).databaseValue, 4.databaseValue])
    }

    @Test func migrationWaitsForPendingChanges() throws {
        let context = try populated()
        _ = try context.insert(into: "Item", values: ["title": .text("pending")])
        let v2 = with(v1) { $0.append(AttributeDescription(name: "note", type: .string, isOptional: true)) }
        #expect(throws: StoreError.self) { try context.define(v2) }
        #expect(try context.entity(named: "Item") == v1)
        try context.save()
        try context.define(v2)
        #expect(try context.entity(named: "Item") == v2)
    }

    @Test func makingAnAttributeUniqueCreatesTheIndexAndEnforcesIt() throws {
        let context = try populated()
        let v2 = with(v1) { attributes in
            attributes = attributes.map { $0.name == "title" ? AttributeDescription(name: "title", type: .string, isUnique: true) : $0 }
        }
        try context.define(v2)
        _ = try context.insert(into: "Item", values: ["title": .text("a")])
        #expect(throws: StoreError.self) { try context.save() }
        #expect(try rowCount(context) == 3)
    }

    @Test func migratedModelSurvivesReopening() throws {
        let path = temporaryStorePath()
        defer { removeStore(path) }
        let v2 = with(v1) {
            $0.removeAll { $0.name == "n" }
            $0.append(AttributeDescription(name: "note", type: .string, isOptional: true))
        }
        do {
            let context = try OpenFileRequest.open(path: path)
            try context.define(v1)
            _ = try context.insert(into: "Item", values: ["title": .text("a"), "n": .integer(1)])
            try context.save()
            try context.define(v2)
        }
        let reopened = try OpenFileRequest.open(path: path)
        #expect(reopened.entities == [v2])
        #expect(Set(try columnNames(reopened)) == ["_pk", "title", "note"])
        #expect(try rowCount(reopened) == 1)
    }
}

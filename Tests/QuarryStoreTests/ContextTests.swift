import Foundation
import GRDB
import QuarryModel
import QuarrySQLite
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

// MARK: Helpers

let itemEntity = EntityDescription(
    name: "Item",
    attributes: [
        AttributeDescription(name: "title", type: .string),
        AttributeDescription(name: "count", type: .int64, isOptional: true),
        AttributeDescription(name: "code", type: .string, isOptional: true, isUnique: true)
    ])

func makeContext(_ entities: EntityDescription...) throws -> ObjectContext {
    let context = try OpenFileRequest.open(path: nil)
    for entity in entities { try context.define(entity) }
    return context
}

/// The error the save of a second Item with an existing unique code throws (the first
/// saved before it); nil, recorded as an issue, when the save went through.
func duplicateCodeRefusal(in context: ObjectContext) throws -> StoreError? {
    _ = try context.insert(into: "Item", values: ["title": .text("a"), "code": .text("A")])
    try context.save()
    _ = try context.insert(into: "Item", values: ["title": .text("b"), "code": .text("A")])
    do {
        try context.save()
    } catch let error as StoreError {
        return error
    }
    Issue.record("a duplicate unique code was saved")
    return nil
}

func rowCount(_ context: ObjectContext, _ table: String = "Item") throws -> Int {
    try context.connection.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(quoteIdentifier(table))") ?? -1 }
}

func columnNames(_ context: ObjectContext, _ table: String = "Item") throws -> [String] {
    try context.connection.read { db in try db.columns(in: table).map(\.name) }
}

/// `column` of every row, by primary key.
func stored(_ context: ObjectContext, _ column: String, table: String = "Item") throws -> [Int64: DatabaseValue] {
    try context.connection.read { db in
        var result: [Int64: DatabaseValue] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT _pk, \(quoteIdentifier(column)) FROM \(quoteIdentifier(table))") {
            result[row[0]] = row[1] as DatabaseValue
        }
        return result
    }
}

/// Every row of the entity as an object, through the identity map.
func fetchAll(_ context: ObjectContext, _ name: String = "Item") throws -> [ManagedObject] {
    let entity = try context.entity(named: name)
    let rows = try context.connection.read { db in
        try Row.fetchAll(db, sql: "SELECT \(context.mapped(entity).selection(of: entity)) FROM \(quoteIdentifier(name)) ORDER BY _pk")
    }
    return try rows.map { try $0.object(of: entity, in: context.session) }
}

func temporaryStorePath() -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-store-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("store.sqlite").path
}

func removeStore(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
}

/// Counts commits and row changes seen by SQLite.
final class CommitCounter: TransactionObserver {
    var commits = 0, rollbacks = 0
    var events: [String] = []
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) { events.append("\(event.kind) \(event.tableName)") }
    func databaseDidCommit(_ db: Database) { commits += 1 }
    func databaseDidRollback(_ db: Database) { rollbacks += 1 }
}

// MARK: Entities

@Suite struct EntityTests {
    @Test func defineCreatesTableColumnsIndexAndModelRow() throws {
        let context = try makeContext(itemEntity)
        #expect(Set(try columnNames(context)) == ["_pk", "code", "count", "title"])
        let (types, uniqueIndexes, model) = try context.connection.read { db -> ([String: String], [String], String?) in
            let types = Dictionary(uniqueKeysWithValues: try db.columns(in: "Item").map { ($0.name, $0.type) })
            let unique = try db.indexes(on: "Item").filter(\.isUnique).map(\.columns)
            let model = try String.fetchOne(db, sql: "SELECT definition FROM quarry_model WHERE name = 'Item'")
            return (types, unique.map { $0.joined(separator: ",") }, model)
        }
        #expect(types == ["_pk": "INTEGER", "code": "TEXT", "count": "INTEGER", "title": "TEXT"])
        #expect(uniqueIndexes == ["code"])
        let decoded = try StoredDefinition(text: try #require(model)).entity
        #expect(decoded == itemEntity)
        #expect(context.entities == [itemEntity])
        #expect(try context.entity(named: "Item") == itemEntity)
    }

    @Test func definingTheSameEntityAgainChangesNothing() throws {
        let context = try makeContext(itemEntity)
        let generation = context.generation
        #expect(try context.define(itemEntity) == itemEntity)
        #expect(context.generation == generation)
        #expect(context.entities.count == 1)
    }

    @Test func invalidEntitiesAreRefused() throws {
        let context = try makeContext()
        #expect(throws: StoreError.self) { try context.define(EntityDescription(name: "quarry_x", attributes: [])) }
        #expect(throws: StoreError.self) { try context.define(EntityDescription(name: "", attributes: [])) }
        #expect(throws: StoreError.self) {
            try context.define(EntityDescription(name: "A", attributes: [AttributeDescription(name: "_pk", type: .int64)]))
        }
        #expect(throws: StoreError.invalidSchema(entity: "A", reason: "the default of 'n' is not a int16")) {
            try context.define(
                EntityDescription(name: "A", attributes: [AttributeDescription(name: "n", type: .int16, defaultValue: .integer(100_000))]))
        }
        try context.connection.database.write { db in try db.execute(sql: "CREATE TABLE Foreign_ (x)") }
        #expect(throws: StoreError.invalidSchema(entity: "Foreign_", reason: "a table of that name already exists")) {
            try context.define(EntityDescription(name: "Foreign_", attributes: []))
        }
        #expect(context.entities.isEmpty)
    }

    @Test func entityWithoutAttributesCanHoldRows() throws {
        let context = try makeContext(EntityDescription(name: "Empty", attributes: []))
        _ = try context.insert(into: "Empty", values: [:])
        #expect(try context.save() == SaveSummary(inserted: 1))
        #expect(try rowCount(context, "Empty") == 1)
    }
}

// MARK: Saving

@Suite struct SaveTests {
    @Test func saveWritesInsertsUpdatesAndDeletesInOneTransaction() throws {
        let context = try makeContext(itemEntity)
        let a = try context.insert(into: "Item", values: ["title": .text("a"), "count": .integer(1)])
        let b = try context.insert(into: "Item", values: ["title": .text("b")])
        let c = try context.insert(into: "Item", values: ["title": .text("c"), "code": .text("C")])
        #expect(context.hasChanges)
        #expect(try context.save() == SaveSummary(inserted: 3, updated: 0, deleted: 0))
        #expect(!context.hasChanges)
        #expect(try rowCount(context) == 3)

        let counter = CommitCounter()
        try context.connection.database.add(transactionObserver: counter, extent: .observerLifetime)

        try a.setValue(.integer(10), forKey: "count")
        try a.setValue(.text("A"), forKey: "title")
        try context.delete(b)
        let d = try context.insert(into: "Item", values: ["title": .text("d")])
        #expect(try context.save() == SaveSummary(inserted: 1, updated: 1, deleted: 1))

        #expect(counter.commits == 1)
        // The history row is written in the same transaction.
        #expect(counter.events.sorted() == ["delete Item", "insert Item", "insert quarry_history", "update Item"])
        #expect(try rowCount(context) == 3)
        #expect(try stored(context, "count")[a.primaryKey!] == 10.databaseValue)
        #expect(try stored(context, "title")[a.primaryKey!] == "A".databaseValue)
        let dKey = try #require(d.primaryKey)
        #expect(try stored(context, "title")[dKey] == "d".databaseValue)
        #expect(try stored(context, "title")[b.primaryKey!] == nil)
        #expect(try stored(context, "code")[c.primaryKey!] == "C".databaseValue)
        #expect(!a.hasChanges && !d.hasChanges && !d.isInserted)
        #expect(b.isDeleted)
        #expect(throws: StoreError.self) { try b.setValue(.text("x"), forKey: "title") }
    }

    /// Every string the store accepts comes back whole. SQLite's text API stops at a NUL
    /// byte (which the predicate lexer's "\\0" escape can also produce), so such a string
    /// must be refused at once rather than saved cut short.
    @Test func stringsComeBackWholeOrAreRefused() throws {
        let context = try makeContext(itemEntity)
        let texts = ["", "café", "日本 🙂", "line\nbreak", String(repeating: "long ", count: 2000)]
        for text in texts { _ = try context.insert(into: "Item", values: ["title": .text(text)]) }
        #expect(throws: StoreError.self) { try context.insert(into: "Item", values: ["title": .text("nul\u{0}inside")]) }
        let object = try context.insert(into: "Item", values: ["title": .text("fine")])
        do {
            try object.setValue(.text("a\u{0}b"), forKey: "title")
            Issue.record("a string with a NUL byte was accepted")
        } catch let error as StoreError {
            #expect(error.description.contains("NUL"))
        }
        #expect(try object.value(forKey: "title") == .text("fine"))
        try context.save()
        let read = try context.connection.read { db in try String.fetchAll(db, sql: "SELECT title FROM Item ORDER BY _pk") }
        #expect(read.map { Array($0.utf8) } == (texts + ["fine"]).map { Array($0.utf8) })
    }

    @Test func saveWithoutChangesWritesNothing() throws {
        let context = try makeContext(itemEntity)
        let counter = CommitCounter()
        try context.connection.database.add(transactionObserver: counter, extent: .observerLifetime)
        #expect(try context.save() == SaveSummary())
        #expect(counter.commits == 0)
    }

    @Test func settingTheStoredValueAgainIsNoChange() throws {
        let context = try makeContext(itemEntity)
        let a = try context.insert(into: "Item", values: ["title": .text("a"), "count": .integer(1)])
        try context.save()
        try a.setValue(.integer(2), forKey: "count")
        #expect(context.hasChanges)
        #expect(a.changes.map(\.key) == ["count"])
        #expect(a.changes.first?.old == .integer(1) && a.changes.first?.new == .integer(2))
        try a.setValue(.integer(1), forKey: "count")
        #expect(!context.hasChanges)
        #expect(try context.save() == SaveSummary())
    }

    @Test func deletingAnUnsavedInsertForgetsIt() throws {
        let context = try makeContext(itemEntity)
        let a = try context.insert(into: "Item", values: ["title": .text("a")])
        try context.delete(a)
        #expect(!context.hasChanges)
        #expect(try context.save() == SaveSummary())
        #expect(try rowCount(context) == 0)
    }

    @Test func validationFailureWritesNothingAndKeepsPendingChanges() throws {
        let context = try makeContext(itemEntity)
        let kept = try context.insert(into: "Item", values: ["title": .text("kept"), "count": .integer(1)])
        let doomed = try context.insert(into: "Item", values: ["title": .text("doomed")])
        try context.save()

        let counter = CommitCounter()
        try context.connection.database.add(transactionObserver: counter, extent: .observerLifetime)
        let good = try context.insert(into: "Item", values: ["title": .text("good")])
        let bad = try context.insert(into: "Item", values: ["count": .integer(5)]) // title is required
        try kept.setValue(.integer(2), forKey: "count")
        try context.delete(doomed)

        #expect(throws: StoreError.validation(message: "save: \(bad.objectID).title is required but nil")) { try context.save() }
        #expect(counter.commits == 0 && counter.events.isEmpty)
        #expect(try rowCount(context) == 2)
        #expect(try stored(context, "count")[kept.primaryKey!] == 1.databaseValue)
        // Everything is still pending, as it was.
        #expect(context.hasChanges)
        #expect(good.isInserted && bad.isInserted && good.primaryKey == nil && bad.primaryKey == nil)
        #expect(try kept.value(forKey: "count") == .integer(2))
        #expect(doomed.isDeleted)

        try bad.setValue(.text("fixed"), forKey: "title")
        #expect(try context.save() == SaveSummary(inserted: 2, updated: 1, deleted: 1))
        #expect(try rowCount(context) == 3)
        #expect(Set(try stored(context, "title").values) == ["kept".databaseValue, "good".databaseValue, "fixed".databaseValue])
    }

    @Test func validationMessageListsEveryProblemUpToFive() throws {
        let context = try makeContext(itemEntity)
        for _ in 0..<7 { _ = try context.insert(into: "Item", values: [:]) }
        do {
            try context.save()
            Issue.record("save succeeded with seven nil titles")
        } catch let error as StoreError {
            #expect(error.description.hasPrefix("save: Item/t1.title is required but nil; Item/t2.title"))
            #expect(error.description.hasSuffix("; and 2 more"))
        }
        #expect(try rowCount(context) == 0)
    }

    @Test func constraintFailureLeavesStoreAndPendingChangesIntact() throws {
        let context = try makeContext(itemEntity)
        let first = try context.insert(into: "Item", values: ["title": .text("first"), "code": .text("A")])
        try context.save()

        try first.setValue(.text("renamed"), forKey: "title")
        let before = try context.insert(into: "Item", values: ["title": .text("before"), "code": .text("B")])
        let duplicate = try context.insert(into: "Item", values: ["title": .text("dup"), "code": .text("A")])
        let tempID = duplicate.objectID

        do {
            try context.save()
            Issue.record("a duplicate unique code was saved")
        } catch let error as StoreError {
            guard case .constraint(let violation) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            let message = violation.said
            #expect(message.contains("UNIQUE constraint failed"))
        }
        // The store: the one row as it was, no part of the failed transaction.
        #expect(try rowCount(context) == 1)
        #expect(try stored(context, "title")[first.primaryKey!] == "first".databaseValue)
        // The pending changes: all still there.
        #expect(context.hasChanges)
        #expect(try first.value(forKey: "title") == .text("renamed"))
        #expect(before.isInserted && before.primaryKey == nil)
        #expect(duplicate.isInserted && duplicate.primaryKey == nil && duplicate.objectID == tempID)

        try duplicate.setValue(.text("C"), forKey: "code")
        #expect(try context.save() == SaveSummary(inserted: 2, updated: 1, deleted: 0))
        #expect(try rowCount(context) == 3)
        #expect(try stored(context, "title")[first.primaryKey!] == "renamed".databaseValue)
        #expect(before.primaryKey != nil && duplicate.primaryKey != nil && before.primaryKey != duplicate.primaryKey)
    }

    @Test func rollbackRestoresValuesAndForgetsInserts() throws {
        let context = try makeContext(itemEntity)
        let a = try context.insert(into: "Item", values: ["title": .text("a"), "count": .integer(1)])
        let b = try context.insert(into: "Item", values: ["title": .text("b")])
        try context.save()
        let generation = context.generation

        try a.setValue(.integer(99), forKey: "count")
        try a.setValue(.text("changed"), forKey: "title")
        try b.setValue(.integer(7), forKey: "count")
        try context.delete(b)
        let c = try context.insert(into: "Item", values: ["title": .text("c")])
        #expect(context.hasChanges)

        context.rollback()
        #expect(!context.hasChanges)
        #expect(context.generation > generation)
        #expect(try a.value(forKey: "count") == .integer(1))
        #expect(try a.value(forKey: "title") == .text("a"))
        #expect(!a.hasChanges)
        #expect(!b.isDeleted)
        #expect(try b.value(forKey: "count") == .null)
        try b.setValue(.text("b2"), forKey: "title") // b is alive again
        #expect(!c.isInserted)
        #expect(throws: StoreError.self) { try c.setValue(.text("x"), forKey: "title") }

        #expect(try context.save() == SaveSummary(inserted: 0, updated: 1, deleted: 0))
        #expect(try rowCount(context) == 2)
        #expect(Set(try stored(context, "title").values) == ["a".databaseValue, "b2".databaseValue])
    }
}

// MARK: Identity

@Suite struct IdentityTests {
    @Test func objectIDIsTemporaryThenPermanent() throws {
        let context = try makeContext(itemEntity)
        let a = try context.insert(into: "Item", values: ["title": .text("a")])
        let b = try context.insert(into: "Item", values: ["title": .text("b")])
        #expect(a.primaryKey == nil)
        #expect(a.objectID.hasPrefix("Item/t"))
        #expect(a.objectID != b.objectID)
        try context.save()
        let key = try #require(a.primaryKey)
        #expect(a.objectID == "Item/\(key)")
        #expect(try stored(context, "title")[key] == "a".databaseValue)
        let bKey = try #require(b.primaryKey)
        #expect(b.objectID == "Item/\(bKey)")
        try a.setValue(.text("a2"), forKey: "title")
        try context.save()
        #expect(a.objectID == "Item/\(key)")
    }

    @Test func theSameRowIsTheSameObject() throws {
        let context = try makeContext(itemEntity)
        let inserted = try (0..<5).map { try context.insert(into: "Item", values: ["title": .text("t\($0)")]) }
        try context.save()
        let first = try fetchAll(context)
        let second = try fetchAll(context)
        #expect(first.count == 5)
        for (x, y) in zip(first, second) { #expect(x === y) }
        for (x, y) in zip(first, inserted) { #expect(x === y) }
    }

    @Test func refetchingKeepsUnsavedChanges() throws {
        let context = try makeContext(itemEntity)
        _ = try context.insert(into: "Item", values: ["title": .text("a")])
        try context.save()
        var objects = try fetchAll(context)
        try objects[0].setValue(.text("edited"), forKey: "title")
        objects = try fetchAll(context)
        #expect(try objects[0].value(forKey: "title") == .text("edited"))
        #expect(objects[0].hasChanges)
    }

    @Test func rowsNotInUseAreReadAfresh() throws {
        let context = try makeContext(itemEntity)
        _ = try context.insert(into: "Item", values: ["title": .text("a")])
        try context.save()
        try context.connection.database.write { db in try db.execute(sql: "UPDATE Item SET title = 'outside'") }
        let objects = try fetchAll(context)
        #expect(try objects[0].value(forKey: "title") == .text("outside"))
    }

    @Test func decodedValuesFollowTheAttributeTypes() throws {
        let entity = EntityDescription(
            name: "Typed",
            attributes: [
                AttributeDescription(name: "flag", type: .bool, isOptional: true),
                AttributeDescription(name: "when", type: .date, isOptional: true),
                AttributeDescription(name: "x", type: .double, isOptional: true)
            ])
        let context = try makeContext(entity)
        _ = try context.insert(into: "Typed", values: ["flag": .bool(true), "when": .text("2024-01-22T16:26:12Z"), "x": .integer(3)])
        try context.save()
        try context.connection.database.write { db in
            try db.execute(sql: "INSERT INTO Typed (flag, \"when\", x) VALUES (0, '1970-01-01T00:01:00Z', 2)")
        }
        let objects = try fetchAll(context, "Typed")
        #expect(try objects[0].value(forKey: "flag") == .bool(true))
        #expect(try objects[0].value(forKey: "when") == .date(1_705_940_772))
        #expect(try objects[0].value(forKey: "x") == .real(3))
        #expect(try objects[1].value(forKey: "flag") == .bool(false))
        #expect(try objects[1].value(forKey: "when") == .date(60))
        #expect(try objects[1].value(forKey: "x") == .real(2))
    }
}

// MARK: Files

@Suite struct FileStoreTests {
    @Test func reopeningRestoresTheModelAndTheSavedRowsOnly() throws {
        let path = temporaryStorePath()
        defer { removeStore(path) }
        let person = EntityDescription(
            name: "Person",
            attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "born", type: .date, isOptional: true)
            ])
        do {
            let context = try OpenFileRequest.open(path: path)
            try context.define(itemEntity)
            try context.define(person)
            _ = try context.insert(into: "Item", values: ["title": .text("saved 1"), "count": .integer(1)])
            _ = try context.insert(into: "Item", values: ["title": .text("saved 2")])
            _ = try context.insert(into: "Person", values: ["name": .text("Ada"), "born": .text("1815-12-10")])
            try context.save()
            _ = try context.insert(into: "Item", values: ["title": .text("never saved")])
            #expect(context.hasChanges)
        }
        let reopened = try OpenFileRequest.open(path: path)
        #expect(reopened.path == path)
        #expect(reopened.entities == [itemEntity, person])
        #expect(!reopened.hasChanges)
        #expect(try rowCount(reopened) == 2)
        #expect(Set(try stored(reopened, "title").values) == ["saved 1".databaseValue, "saved 2".databaseValue])
        let ada = try #require(try fetchAll(reopened, "Person").first)
        let born = try #require(Value.parseISO8601("1815-12-10"))
        #expect(try ada.value(forKey: "born") == .date(born))
        // The reopened store works as the first did.
        _ = try reopened.insert(into: "Item", values: ["title": .text("later")])
        #expect(try reopened.save() == SaveSummary(inserted: 1))
    }

    @Test func readOnlyStoreRefusesSaveAndSchemaChanges() throws {
        let path = temporaryStorePath()
        defer { removeStore(path) }
        do {
            let context = try OpenFileRequest.open(path: path)
            try context.define(itemEntity)
            _ = try context.insert(into: "Item", values: ["title": .text("a")])
            try context.save()
        }
        let readOnly = try OpenFileRequest.open(path: path, readOnly: true)
        #expect(readOnly.isReadOnly)
        #expect(readOnly.entities == [itemEntity])
        #expect(try rowCount(readOnly) == 1)
        _ = try readOnly.insert(into: "Item", values: ["title": .text("b")])
        #expect(throws: StoreError.readOnly(operation: "save")) { try readOnly.save() }
        #expect(StoreError.readOnly(operation: "save").description == "save: the store is read-only")
        #expect(readOnly.hasChanges)
        #expect(throws: StoreError.readOnly(operation: "entity Other")) {
            try readOnly.define(EntityDescription(name: "Other", attributes: []))
        }
        // Defining the entity as it already is needs no write.
        #expect(try readOnly.define(itemEntity) == itemEntity)
        #expect(try rowCount(readOnly) == 1)
        let again = try OpenFileRequest.open(path: path)
        #expect(try rowCount(again) == 1)
        #expect(again.entities == [itemEntity])
    }

    @Test func openingAFileThatIsNotADatabaseFails() throws {
        let path = temporaryStorePath()
        defer { removeStore(path) }
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { try OpenFileRequest.open(path: path) }
    }
}

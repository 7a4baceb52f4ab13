import Foundation
import GRDB
import QuarryModel
import QuarryStores
import Testing

@testable import QuarryStore

/// A save of many new objects into Quarry's own tables goes several rows to an INSERT
/// (`SQLiteSaveStatements+NewRows`), each object's key worked out from the last rowid:
/// every object must get its own row's key, a refused object must be named as it would
/// be alone with nothing written, and a table where the keys could come otherwise (a
/// trigger) is written a row at a time.
@Suite struct QuarryTableNewRowsTests {
    /// A new Quarry file with `Author (name)` and `Item (v, code unique, author)`.
    static func store() throws -> (context: ObjectContext, path: String, cleanup: () -> Void) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-tablerows-\(UUID().uuidString).db").path
        let context = try OpenFileRequest.open(path: path)
        try context.define(
            EntityDescription(
                name: "Author", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)],
                relationships: [RelationshipDescription(name: "items", destination: "Item", inverse: "author", isToMany: true)]))
        var item = EntityDescription(
            name: "Item",
            attributes: [
                AttributeDescription(name: "v", type: .string, isOptional: true), AttributeDescription(name: "code", type: .string, isOptional: true),
                AttributeDescription(name: "n", type: .int64, isOptional: true)
            ],
            relationships: [RelationshipDescription(name: "author", destination: "Author", inverse: "items", isToMany: false)])
        item.uniqueness = [["code"]]
        try context.define(item)
        return (
            context, path,
            {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        )
    }

    /// Every (key, v) of the file's Item rows, read on a connection of its own.
    static func stored(_ path: String) throws -> [Int64: String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var rows: [Int64: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT _pk, v FROM Item") { rows[row[0]] = row[1] }
            return rows
        }
    }

    /// More new objects than one statement and one hand-over hold, after rows were
    /// deleted (AUTOINCREMENT gives keys past them): each object takes its own row's key,
    /// in the order the objects were made.
    @Test func eachObjectGetsItsOwnRowsKey() throws {
        let (context, path, cleanup) = try Self.store()
        defer { cleanup() }
        let old = try (1...40).map { try context.insert(into: "Item", values: ["v": .text("old\($0)")]) }
        try context.save()
        for object in old.suffix(10) { try context.delete(object) }
        try context.save()
        // 2,500 rows: whole statements, then a shorter last one, across hand-overs.
        let objects = try (1...2_500).map { try context.insert(into: "Item", values: ["v": .text("x\($0)"), "n": .integer(Int64($0))]) }
        #expect(try context.save().inserted == 2_500)
        let keys = objects.compactMap(\.primaryKey)
        #expect(keys.count == 2_500 && keys == keys.sorted() && Set(keys).count == 2_500)
        #expect(keys.first == 41)
        let stored = try Self.stored(path)
        #expect(stored.count == 2_530)
        let wrong = objects.enumerated().filter { i, object in stored[object.primaryKey ?? -1] != "x\(i + 1)" }
        #expect(wrong.count == 0, "\(wrong.count) objects hold another row's key")
        // Registered under its key: found by it, as the object the context holds.
        let found = try objects.filter { try context.object(entityName: "Item", primaryKey: $0.primaryKey ?? -1) === $0 }
        #expect(found.count == 2_500)
    }

    /// New items naming new authors made between them: each item's row names its own
    /// author's key.
    @Test func newObjectsNamingNewObjectsHoldTheirKeys() throws {
        let (context, path, cleanup) = try Self.store()
        defer { cleanup() }
        var pairs: [(item: ManagedObject, author: ManagedObject)] = []
        for a in 0..<200 {
            let author = try context.insert(into: "Author", values: ["name": .text("a\(a)")])
            for k in 0..<5 {
                let item = try context.insert(into: "Item", values: ["v": .text("z\(a)-\(k)")])
                try context.setRelatedObject(author, "author", of: item)
                pairs.append((item, author))
            }
        }
        try context.save()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let authorOf = try queue.read { db in
            var rows: [Int64: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT _pk, author FROM Item") { rows[row[0]] = row[1] }
            return rows
        }
        #expect(authorOf.count == 1_000)
        let wrong = pairs.filter { authorOf[$0.item.primaryKey ?? -1] != $0.author.primaryKey }
        #expect(wrong.count == 0, "\(wrong.count) items hold another author's key")
    }

    /// Object #k of a statement's rows takes a code another holds (a uniqueness
    /// constraint): the save says what that object saved alone says, writes nothing and
    /// keeps the objects unsaved; fixed, everything saves.
    @Test func aRefusedObjectIsNamedAsAloneAndNothingIsWritten() throws {
        let (context, path, cleanup) = try Self.store()
        defer { cleanup() }
        _ = try context.insert(into: "Item", values: ["v": .text("first"), "code": .text("taken")])
        try context.save()
        let objects = try (1...100).map { try context.insert(into: "Item", values: ["v": .text("r\($0)"), "code": .text("c\($0)")]) }
        try objects[44].setValue(.text("taken"), forKey: "code")
        var said: StoreError?
        do { try context.save() } catch let error as StoreError { said = error }
        let alone = try OpenFileRequest.open(path: path)
        let lone = try alone.insert(into: "Item", values: ["v": .text("alone"), "code": .text("taken")])
        var saidAlone: StoreError?
        do { try alone.save() } catch let error as StoreError { saidAlone = error }
        let refusal = try #require(said, "the save of a taken code went through")
        let aloneRefusal = try #require(saidAlone, "saved alone, the taken code went through")
        // The same words, each naming its own object.
        let named = String(describing: aloneRefusal).replacingOccurrences(of: lone.objectID, with: objects[44].objectID)
        #expect(String(describing: refusal) == named && named.contains(objects[44].objectID))
        #expect(try Self.stored(path).count == 1)
        #expect(context.hasChanges && objects.allSatisfy { $0.primaryKey == nil })
        try objects[44].setValue(.text("c45"), forKey: "code")
        try context.save()
        let stored = try Self.stored(path)
        #expect(stored.count == 101 && objects.allSatisfy { stored[$0.primaryKey ?? -1] != nil })
    }

    /// A trigger that inserts a row of its own table for each new row (so keys skip): the
    /// rows go one at a time, and each object still takes its own row's key.
    @Test func aTableWithATriggerIsWrittenARowAtATime() throws {
        let (context, path, cleanup) = try Self.store()
        defer { cleanup() }
        try context.connection.database.write { db in
            try db.execute(
                sql:
                    "CREATE TRIGGER shadow AFTER INSERT ON Item WHEN NEW.v NOT LIKE 'shadow%' BEGIN INSERT INTO Item (v) VALUES ('shadow' || NEW.v); END"
            )
        }
        let objects = try (1...300).map { try context.insert(into: "Item", values: ["v": .text("t\($0)")]) }
        try context.save()
        let stored = try Self.stored(path)
        #expect(stored.count == 600)
        let wrong = objects.enumerated().filter { i, object in stored[object.primaryKey ?? -1] != "t\(i + 1)" }
        #expect(wrong.count == 0, "\(wrong.count) objects hold another row's key")
    }

    /// Text that is not UTF-8 in rows sharing a statement keeps its bytes, each in its row.
    @Test func textThatIsNotUTF8KeepsItsBytesInEachRow() throws {
        let (context, path, cleanup) = try Self.store()
        defer { cleanup() }
        let objects = try (0..<70).map { i in
            try context.insert(into: "Item", values: ["v": i % 3 == 0 ? .textBytes([0x78, 0xFF, UInt8(i)]) : .text("u\(i)")])
        }
        try context.save()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let bytes = try queue.read { db in
            var rows: [Int64: [UInt8]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT _pk, CAST(v AS BLOB) FROM Item") { rows[row[0]] = [UInt8]((row[1] as Data?) ?? Data()) }
            return rows
        }
        let wrong = objects.enumerated().filter { i, object in
            bytes[object.primaryKey ?? -1] != (i % 3 == 0 ? [0x78, 0xFF, UInt8(i)] : Array("u\(i)".utf8))
        }
        #expect(wrong.count == 0, "\(wrong.count) rows hold other bytes")
    }
    /// A table rebuilt without AUTOINCREMENT (the word only in a comment) whose largest
    /// key is the largest rowid: SQLite picks new keys at random, so the rows go one at a
    /// time, and each object takes its own row's key.
    @Test func aTableWithoutAutoincrementIsWrittenARowAtATime() throws {
        let (context, path, cleanup) = try Self.store()
        defer { cleanup() }
        _ = try context.insert(into: "Item", values: ["v": .text("first")])
        try context.save()
        try context.connection.database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE rebuilt ("_pk" INTEGER PRIMARY KEY /* AUTOINCREMENT */, "v" TEXT, "code" TEXT, "n" INTEGER, "author" INTEGER);
                    INSERT INTO rebuilt SELECT _pk, v, code, n, author FROM Item;
                    DROP TABLE Item;
                    ALTER TABLE rebuilt RENAME TO Item;
                    INSERT INTO Item (_pk, v) VALUES (9223372036854775807, 'max');
                    """)
        }
        let context2 = try OpenFileRequest.open(path: path)
        let objects = try (1...40).map { try context2.insert(into: "Item", values: ["v": .text("r\($0)")]) }
        try context2.save()
        let stored = try Self.stored(path)
        #expect(stored.count == 42)
        let wrong = objects.enumerated().filter { i, object in stored[object.primaryKey ?? -1] != "r\(i + 1)" }
        #expect(wrong.count == 0, "\(wrong.count) objects hold another row's key")
    }
}

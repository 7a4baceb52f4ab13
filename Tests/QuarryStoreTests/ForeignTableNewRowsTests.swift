import Foundation
import GRDB
import QuarryModel
import QuarryStores
import Testing

@testable import QuarryStore

/// A save of many new objects into another program's table keyed by its rowid goes
/// several rows to an INSERT as into Quarry's own (`SQLiteSaveStatements+NewRows`), each
/// object's key worked out from the last rowid, with or without AUTOINCREMENT: every
/// object must get its own row's key, a row given its key must keep it, a table whose
/// largest rowid leaves no room must still give each object its row, and a refused
/// object must be named as it would be alone, with nothing written.
@Suite struct ForeignTableNewRowsTests {
    /// A file made as another program makes it, holding `sql`, opened by Quarry.
    static func store(_ sql: String) throws -> (context: ObjectContext, path: String, cleanup: () -> Void) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-foreignrows-\(UUID().uuidString).db").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
        let context = try OpenFileRequest.open(path: path)
        return (
            context, path,
            {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        )
    }

    /// Every (rowid, v) of table `table`, read on a connection of its own.
    static func stored(_ path: String, _ table: String = "items") throws -> [Int64: String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var rows: [Int64: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT rowid, v FROM \(table)") { rows[row[0]] = row[1] }
            return rows
        }
    }

    /// The objects whose key does not find the row holding their own `v` ("<prefix><n>",
    /// n from 1 in the order made).
    static func misplaced(_ objects: [ManagedObject], _ stored: [Int64: String], prefix: String) -> Int {
        objects.enumerated().filter { i, object in stored[object.primaryKey ?? -1] != "\(prefix)\(i + 1)" }.count
    }

    /// More new objects than one statement and one hand-over hold, after the last rows
    /// were deleted (without AUTOINCREMENT SQLite gives their keys again): each object
    /// takes its own row's key, in the order the objects were made, and is found by it.
    @Test func eachObjectGetsItsOwnRowsKey() throws {
        let (context, path, cleanup) = try Self.store(
            """
            CREATE TABLE items(id INTEGER PRIMARY KEY, v TEXT);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT 40) INSERT INTO items SELECT i, 'old' || i FROM c;
            DELETE FROM items WHERE id > 30;
            """)
        defer { cleanup() }
        let objects = try (1...2_500).map { try context.insert(into: "items", values: ["v": .text("x\($0)")]) }
        #expect(try context.save().inserted == 2_500)
        let keys = objects.compactMap(\.primaryKey)
        #expect(keys.count == 2_500 && keys == keys.sorted() && Set(keys).count == 2_500)
        #expect(keys.first == 31)
        let stored = try Self.stored(path)
        #expect(stored.count == 2_530)
        let wrong = Self.misplaced(objects, stored, prefix: "x")
        #expect(wrong == 0, "\(wrong) objects hold another row's key")
        let found = try objects.filter { try context.object(entityName: "items", primaryKey: $0.primaryKey ?? -1) === $0 }
        #expect(found.count == 2_500)
    }

    /// Objects given their key among objects that are not: each keeps the key it was
    /// given, and the others take theirs from SQLite, each its own row's.
    @Test func anObjectGivenItsKeyKeepsIt() throws {
        let (context, path, cleanup) = try Self.store("CREATE TABLE items(id INTEGER PRIMARY KEY, v TEXT)")
        defer { cleanup() }
        var objects: [ManagedObject] = []
        for n in 1...100 {
            var values: [String: Value] = ["v": .text("g\(n)")]
            if n % 25 == 0 { values["id"] = .integer(Int64(10_000 + n)) }
            objects.append(try context.insert(into: "items", values: values))
        }
        try context.save()
        let stored = try Self.stored(path)
        #expect(stored.count == 100)
        let wrong = Self.misplaced(objects, stored, prefix: "g")
        #expect(wrong == 0, "\(wrong) objects hold another row's key")
        let given: [Int64?] = [24, 49, 74, 99].map { objects[$0].primaryKey }
        #expect(given == [10_025, 10_050, 10_075, 10_100])
    }

    /// A table whose largest rowid is near the largest a rowid can be: SQLite gives the
    /// first rows the keys left and then picks keys at random, so those rows go one at a
    /// time, and each object still takes its own row's key.
    @Test func rowsPastTheLargestRowidEachTakeTheirOwnKey() throws {
        let (context, path, cleanup) = try Self.store(
            "CREATE TABLE items(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO items VALUES (9223372036854775797, 'near')")
        defer { cleanup() }
        let objects = try (1...100).map { try context.insert(into: "items", values: ["v": .text("n\($0)")]) }
        try context.save()
        let stored = try Self.stored(path)
        #expect(stored.count == 101)
        let wrong = Self.misplaced(objects, stored, prefix: "n")
        #expect(wrong == 0, "\(wrong) objects hold another row's key")
        #expect(objects.first?.primaryKey == 9_223_372_036_854_775_798)
    }

    /// A table with no integer key (its rows known by their rowid) and one that says
    /// AUTOINCREMENT: each object takes its own row's key.
    @Test(arguments: [
        "CREATE TABLE items(v TEXT, n REAL)",
        "CREATE TABLE items(id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT); INSERT INTO items VALUES (500, 'gone'); DELETE FROM items"
    ])
    func otherRowidTablesGiveEachObjectItsRowsKey(_ sql: String) throws {
        let (context, path, cleanup) = try Self.store(sql)
        defer { cleanup() }
        let objects = try (1...300).map { try context.insert(into: "items", values: ["v": .text("k\($0)")]) }
        try context.save()
        let stored = try Self.stored(path)
        #expect(stored.count == 300)
        let wrong = Self.misplaced(objects, stored, prefix: "k")
        #expect(wrong == 0, "\(wrong) objects hold another row's key")
    }

    /// Object #45 of a statement's rows takes a code another row holds: the save says what
    /// that object saved alone says, writes nothing and keeps the objects unsaved; fixed,
    /// everything saves.
    @Test func aRefusedObjectIsNamedAsAloneAndNothingIsWritten() throws {
        let (context, path, cleanup) = try Self.store(
            "CREATE TABLE items(id INTEGER PRIMARY KEY, v TEXT, code TEXT UNIQUE); INSERT INTO items VALUES (1, 'first', 'taken')")
        defer { cleanup() }
        let objects = try (1...100).map { try context.insert(into: "items", values: ["v": .text("r\($0)"), "code": .text("c\($0)")]) }
        try objects[44].setValue(.text("taken"), forKey: "code")
        var said: StoreError?
        do { try context.save() } catch let error as StoreError { said = error }
        let alone = try OpenFileRequest.open(path: path)
        let lone = try alone.insert(into: "items", values: ["v": .text("alone"), "code": .text("taken")])
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
        #expect(stored.count == 101)
        let wrong = Self.misplaced(objects, stored, prefix: "r")
        #expect(wrong == 0, "\(wrong) objects hold another row's key")
    }
}

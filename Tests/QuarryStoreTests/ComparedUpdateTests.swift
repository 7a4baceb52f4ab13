import Foundation
import GRDB
import QuarryModel
import QuarrySQLite
import QuarryStore
import QuarryStores
import Testing

/// A save's UPDATEs of Quarry's own tables compare each row with what its object read as
/// they write it (`SQLiteSaveStatements+ComparedRows`); a row found changed sends the
/// whole save back to reading and comparing every row first. Whichever way it goes, what
/// the save writes and says is what the conflict check alone made of it.
@Suite struct ComparedUpdateTests {
    private static let count: Int64 = 40

    /// A file with `count` items (`title`, `n`, and `data` when `binary`), and a second
    /// context that has read every one of them (each object keeps the row it read).
    private func file(binary: Bool = false) throws -> (path: String, mine: ObjectContext, objects: [ManagedObject]) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-compared-\(UUID().uuidString).db").path
        let first = try OpenFileRequest.open(path: path)
        var attributes = [AttributeDescription(name: "title", type: .string), AttributeDescription(name: "n", type: .int64)]
        if binary { attributes.append(AttributeDescription(name: "data", type: .binary, isOptional: true)) }
        try first.define(EntityDescription(name: "Item", attributes: attributes))
        for i in 1...Self.count { _ = try first.insert(into: "Item", values: ["title": .text("t\(i)"), "n": .integer(i)]) }
        try first.save()
        let mine = try OpenFileRequest.open(path: path)
        let objects = try (1...Self.count).map { key in try #require(try mine.object(entityName: "Item", primaryKey: key)) }
        return (path, mine, objects)
    }

    /// Another connection's statement on the file.
    private func theirs(_ sql: String, at path: String) throws {
        try DatabaseQueue(path: path).write { db in try db.execute(sql: sql) }
    }

    private func rows(at path: String) throws -> [[String]] {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT _pk, title, n FROM Item ORDER BY _pk").map { row in
                [String(row[0] as Int64), row[1] as String, String(row[2] as Int64)]
            }
        }
    }

    @Test func everyRowReadIsWritten() throws {
        let (path, mine, objects) = try file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for object in objects { try object.setValue(.text("mine \(object.primaryKey ?? 0)"), forKey: "title") }
        #expect(try mine.save() == SaveSummary(inserted: 0, updated: Int(Self.count), deleted: 0))
        #expect(try rows(at: path) == (1...Self.count).map { ["\($0)", "mine \($0)", "\($0)"] })
    }

    /// One row in the middle changed under the context: the save names it alone, with
    /// the key both changed, and nothing is written, not even the rows whose UPDATEs ran
    /// before it.
    @Test func oneRowChangedUnderneathIsNamedAndNothingIsWritten() throws {
        let (path, mine, objects) = try file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try rows(at: path)
        try theirs("UPDATE Item SET n = 1000 WHERE _pk = 25", at: path)
        for object in objects { try object.setValue(.integer(-1), forKey: "n") }
        #expect(throws: StoreError.conflict([ConflictedObject(objectID: "Item/25", keys: ["n"], deleted: false)])) { try mine.save() }
        #expect(mine.hasChanges)
        #expect(try rows(at: path) == before.map { $0[0] == "25" ? ["25", "t25", "1000"] : $0 })
    }

    /// A row gone under the context: named as deleted, nothing written.
    @Test func oneRowDeletedUnderneathIsNamed() throws {
        let (path, mine, objects) = try file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try theirs("DELETE FROM Item WHERE _pk = 3", at: path)
        for object in objects { try object.setValue(.integer(-1), forKey: "n") }
        #expect(throws: StoreError.conflict([ConflictedObject(objectID: "Item/3", keys: [], deleted: true)])) { try mine.save() }
        #expect(try rows(at: path).allSatisfy { $0[2] != "-1" })
    }

    /// Their change to a key this save does not write is merged: the save goes through,
    /// their title stays in the row and the object takes it.
    @Test func aChangeToAnotherKeyIsMergedInASaveOfMany() throws {
        let (path, mine, objects) = try file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try theirs("UPDATE Item SET title = 'theirs' WHERE _pk = 7", at: path)
        for object in objects { try object.setValue(.integer(-1), forKey: "n") }
        #expect(try mine.save() == SaveSummary(inserted: 0, updated: Int(Self.count), deleted: 0))
        #expect(try objects[6].value(forKey: "title") == .text("theirs"))
        #expect(try rows(at: path) == (1...Self.count).map { ["\($0)", $0 == 7 ? "theirs" : "t\($0)", "-1"] })
    }

    /// A BLOB column converts nothing: their 1.0 where the object read 1 is SQL's `IS`
    /// equal, but another value to the objects' comparison, which merges it (a key this
    /// save does not write). The object then reads their real number: the row was read.
    @Test func aNumberOfAnotherStorageClassInABinaryColumnIsSeen() throws {
        let (path, _, _) = try file(binary: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try theirs("UPDATE Item SET data = 1", at: path)
        let mine = try OpenFileRequest.open(path: path)
        let objects = try (1...Self.count).map { key in try #require(try mine.object(entityName: "Item", primaryKey: key)) }
        #expect(try objects[0].value(forKey: "data") == .integer(1))
        try theirs("UPDATE Item SET data = 1.0 WHERE _pk = 1", at: path)
        for object in objects { try object.setValue(.integer(-1), forKey: "n") }
        try mine.save()
        #expect(try objects[0].value(forKey: "data") == .real(1.0))
    }

    /// Texts a compared UPDATE binds and compares: empty, longer than a small string, not
    /// ASCII; each row reads back as written, and the next save compares with it.
    @Test func textsOfEveryShapeAreWrittenAsGiven() throws {
        let (path, mine, objects) = try file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let texts = ["", "a text much longer than fifteen bytes, kept in its own storage", "naïve 日本語 🎉", "x"]
        for (i, object) in objects.enumerated() { try object.setValue(.text(texts[i % texts.count]), forKey: "title") }
        try mine.save()
        #expect(try rows(at: path) == (1...Self.count).map { ["\($0)", texts[Int($0 - 1) % texts.count], "\($0)"] })
        for (i, object) in objects.enumerated() { try object.setValue(.text(texts[(i + 1) % texts.count] + "!"), forKey: "title") }
        #expect(try mine.save() == SaveSummary(inserted: 0, updated: Int(Self.count), deleted: 0))
        #expect(try rows(at: path) == (1...Self.count).map { ["\($0)", texts[Int($0) % texts.count] + "!", "\($0)"] })
    }

    /// The identity map forgets an object once nothing holds it (as a weak reference
    /// would, `IdentityMap.WeakObject`), while an object held stays the row's one object;
    /// the row read again is a new object with what the row holds now.
    @Test func anObjectNoLongerHeldIsForgottenAndReadAgain() throws {
        // Every object but the first let go once the file is made.
        let (path, mine, kept) = try { () throws -> (String, ObjectContext, ManagedObject) in
            let made = try file()
            return (made.path, made.mine, made.objects[0])
        }()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(mine.registeredObject(entity: "Item", primaryKey: 1) === kept)
        do {
            let second = try #require(try mine.object(entityName: "Item", primaryKey: 2))
            try second.setValue(.text("second"), forKey: "title")
            try mine.save()
        }
        try theirs("UPDATE Item SET title = 'theirs' WHERE _pk = 3", at: path)
        #expect(mine.registeredObject(entity: "Item", primaryKey: 2) == nil)
        #expect(mine.registeredObject(entity: "Item", primaryKey: 3) == nil)
        #expect(mine.registeredObject(entity: "Item", primaryKey: 1) === kept)
        #expect(try mine.object(entityName: "Item", primaryKey: 2)?.value(forKey: "title") == .text("second"))
        #expect(try mine.object(entityName: "Item", primaryKey: 3)?.value(forKey: "title") == .text("theirs"))
    }
}

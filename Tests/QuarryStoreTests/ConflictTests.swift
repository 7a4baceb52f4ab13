import Foundation
import GRDB
import QuarryModel
import QuarrySQLite
import QuarryStore
import QuarryStores
import Testing

/// Optimistic locking between two connections to one file.
@Suite struct ConflictTests {
    private func twoContexts() throws -> (ObjectContext, ObjectContext, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-conflict-\(UUID().uuidString).db").path
        let first = try OpenFileRequest.open(path: path)
        try first.define(
            EntityDescription(
                name: "Item",
                attributes: [
                    AttributeDescription(name: "title", type: .string), AttributeDescription(name: "n", type: .int64)
                ]))
        _ = try first.insert(into: "Item", values: ["title": .text("a"), "n": .integer(1)])
        try first.save()
        return (first, try OpenFileRequest.open(path: path), path)
    }

    @Test func aChangeUnderAnOpenContextIsAConflictAndNothingIsWritten() throws {
        let (mine, theirs, path) = try twoContexts()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let a = try #require(try mine.object(entityName: "Item", primaryKey: 1))
        let b = try #require(try theirs.object(entityName: "Item", primaryKey: 1))
        try b.setValue(.integer(100), forKey: "n")
        try theirs.save()
        try a.setValue(.text("mine"), forKey: "title")
        try a.setValue(.integer(5), forKey: "n")
        #expect(throws: StoreError.conflict([ConflictedObject(objectID: "Item/1", keys: ["n"], deleted: false)])) { try mine.save() }
        #expect(mine.hasChanges)
        #expect(try theirs.object(entityName: "Item", primaryKey: 1).map { try $0.value(forKey: "title") } == .text("a"))
    }

    /// A change under an open context to a key this one does not write is merged at the
    /// save, as `refresh()` merges it: their key kept, ours written, no conflict (it was
    /// one when first noticed at the save; issues 81 and 86).
    @Test func aChangeToAnotherKeyIsMergedAtTheSave() throws {
        let (mine, theirs, path) = try twoContexts()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let a = try #require(try mine.object(entityName: "Item", primaryKey: 1))
        let b = try #require(try theirs.object(entityName: "Item", primaryKey: 1))
        try b.setValue(.integer(100), forKey: "n")
        try theirs.save()
        try a.setValue(.text("mine"), forKey: "title")
        #expect(try mine.save() == SaveSummary(inserted: 0, updated: 1, deleted: 0))
        #expect(try !mine.hasChanges && a.value(forKey: "n") == .integer(100))
        let check = try OpenFileRequest.open(path: path)
        let row = try #require(try check.object(entityName: "Item", primaryKey: 1))
        #expect(try row.value(forKey: "title") == .text("mine") && row.value(forKey: "n") == .integer(100))
    }

    @Test func storeTrumpKeepsTheirKeysAndMineOverwrites() throws {
        let (mine, theirs, path) = try twoContexts()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let a = try #require(try mine.object(entityName: "Item", primaryKey: 1))
        let b = try #require(try theirs.object(entityName: "Item", primaryKey: 1))
        try b.setValue(.integer(100), forKey: "n")
        try b.setValue(.text("theirs"), forKey: "title")
        try theirs.save()
        try a.setValue(.text("mine"), forKey: "title")
        try a.setValue(.integer(7), forKey: "n")
        try mine.save(merge: .store)
        #expect(try a.value(forKey: "title") == .text("theirs") && a.value(forKey: "n") == .integer(100))

        try b.setValue(.integer(5), forKey: "n") // b read n = 100, still current: no conflict
        try theirs.save()
        try a.setValue(.integer(9), forKey: "n")
        try mine.save(merge: .mine)
        let check = try OpenFileRequest.open(path: path)
        #expect(try check.object(entityName: "Item", primaryKey: 1).map { try $0.value(forKey: "n") } == .integer(9))
    }

    /// A row another connection deleted: under either merge policy, the save writes the
    /// rest and the object is deleted here too, and listeners hear it (it stayed a live
    /// object with no row before: found by review).
    @Test(arguments: [MergePolicy.store, .mine])
    func anObjectWhoseRowWasDeletedElsewhereIsDeletedBySave(_ policy: MergePolicy) throws {
        let (mine, theirs, path) = try twoContexts()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let other = try mine.insert(into: "Item", values: ["title": .text("b"), "n": .integer(2)])
        try mine.save()
        let a = try #require(try mine.object(entityName: "Item", primaryKey: 1))
        let b = try #require(try theirs.object(entityName: "Item", primaryKey: 1))
        try theirs.delete(b)
        try theirs.save()
        try a.setValue(.text("mine"), forKey: "title")
        try other.setValue(.integer(20), forKey: "n")
        var heard: [String] = []
        let listener = mine.addChangeListener { changes in heard += changes.deleted.map(\.objectID) }
        defer { listener.cancel() }
        let summary = try mine.save(merge: policy)
        #expect(summary == SaveSummary(inserted: 0, updated: 1, deleted: 0))
        #expect(a.isDeleted && heard == ["Item/1"])
        #expect(try mine.object(entityName: "Item", primaryKey: 1) == nil)
        #expect(throws: StoreError.self) { try a.setValue(.text("again"), forKey: "title") }
        #expect(try OpenFileRequest.open(path: path).object(entityName: "Item", primaryKey: 2).map { try $0.value(forKey: "n") } == .integer(20))
    }

    /// A migration that fills nils with a new required attribute's default gives objects
    /// in use that default, and nothing else: a value another connection wrote before is
    /// still a change for `refreshFromStore` to report (found by review).
    @Test func aMigrationsDefaultIsTakenAndAnotherConnectionsValueIsHeard() throws {
        let (mine, _, path) = try twoContexts()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let item = EntityDescription(
            name: "Item",
            attributes: [
                AttributeDescription(name: "title", type: .string), AttributeDescription(name: "n", type: .int64),
                AttributeDescription(name: "note", type: .string, isOptional: true)
            ])
        try mine.define(item)
        _ = try mine.insert(into: "Item", values: ["title": .text("b"), "n": .integer(2)])
        try mine.save()
        try mine.startNoticingOtherConnections()
        let a = try #require(try mine.object(entityName: "Item", primaryKey: 1))
        let b = try #require(try mine.object(entityName: "Item", primaryKey: 2))
        #expect(try a.value(forKey: "note") == .null)
        // Another connection that knows the new column.
        let theirs = try OpenFileRequest.open(path: path)
        let other = try #require(try theirs.object(entityName: "Item", primaryKey: 2))
        try other.setValue(.text("theirs"), forKey: "note")
        try theirs.save()
        try mine.define(
            EntityDescription(
                name: "Item",
                attributes: Array(item.attributes.prefix(2)) + [
                    AttributeDescription(name: "note", type: .string, isOptional: false, defaultValue: .text("dflt"))
                ]))
        #expect(try a.value(forKey: "note") == .text("dflt"))
        #expect(try b.value(forKey: "note") == .null)
        var heard: [String] = []
        let listener = mine.addChangeListener { changes in heard += changes.updated.map { "\($0.object.objectID) \($0.keys.sorted())" } }
        defer { listener.cancel() }
        #expect(try mine.refreshFromStore())
        #expect(try b.value(forKey: "note") == .text("theirs") && heard == ["Item/2 [\"note\"]"], "\(heard)")
    }

    /// A save whose only change to an object is a link (many-to-many) checks that its row
    /// is still there: refused by default, and under a merge policy the object is deleted
    /// and no link to the missing row is written (found by review).
    @Test func aLinkToARowDeletedElsewhereIsNoLink() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-link-\(UUID().uuidString).db").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mine = try OpenFileRequest.open(path: path)
        try mine.define(
            EntityDescription(
                name: "Tag", attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [RelationshipDescription(name: "books", destination: "Book", inverse: "tags", isToMany: true)]))
        try mine.define(
            EntityDescription(
                name: "Book", attributes: [AttributeDescription(name: "title", type: .string)],
                relationships: [RelationshipDescription(name: "tags", destination: "Tag", inverse: "books", isToMany: true)]))
        let book = try mine.insert(into: "Book", values: ["title": .text("b")])
        let tag = try mine.insert(into: "Tag", values: ["name": .text("t")])
        try mine.save()
        let theirs = try OpenFileRequest.open(path: path)
        try theirs.delete(try #require(try theirs.object(entityName: "Book", primaryKey: 1)))
        try theirs.save()
        try mine.addRelated(tag, to: "tags", of: book)
        #expect(throws: StoreError.conflict([ConflictedObject(objectID: "Book/1", keys: [], deleted: true)])) { try mine.save() }
        try mine.save(merge: .mine)
        #expect(book.isDeleted && !mine.hasChanges)
        #expect(try mine.connection.rows("SELECT count(*) FROM quarry_link_Book_tags") == [[.integer(0)]])
    }
}

/// Journal modes: WAL for Quarry's files, untouched for others.
@Suite struct JournalModeTests {
    @Test func quarrysFilesUseWALAndOthersKeepTheirMode() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ours = dir.appendingPathComponent("ours.db").path
        do {
            let context = try OpenFileRequest.open(path: ours)
            try context.define(EntityDescription(name: "Item", attributes: [AttributeDescription(name: "n", type: .int64)]))
            #expect(try context.connection.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        }
        let theirs = dir.appendingPathComponent("theirs.db").path
        try DatabaseQueue(path: theirs).write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        let context = try OpenFileRequest.open(path: theirs)
        #expect(try context.connection.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
    }
}

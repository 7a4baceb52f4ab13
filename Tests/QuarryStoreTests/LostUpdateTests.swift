import Foundation
import QuarryModel
import QuarrySQLite
import QuarryStore
import QuarryStores
import Testing

/// A pending change to a value another connection changed since it was read is a
/// conflict at the save however the other commit was noticed: at the save, or before it
/// (`refreshFromStore`, as the REPL's prompt and `refresh()` notice it), which moved the
/// object's committed values under the change and let `save()` write over the other
/// connection's value without a word (issue 61 item 0).
@Suite struct LostUpdateTests {
    /// Two contexts on one file holding `Item/1` (title "a", n 1), the first noticing
    /// the other's commits.
    private func twoContexts() throws -> (mine: ObjectContext, theirs: ObjectContext, path: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-lost-\(UUID().uuidString).db").path
        let mine = try OpenFileRequest.open(path: path)
        try mine.define(
            EntityDescription(
                name: "Item",
                attributes: [AttributeDescription(name: "title", type: .string), AttributeDescription(name: "n", type: .int64)]))
        _ = try mine.insert(into: "Item", values: ["title": .text("a"), "n": .integer(1)])
        try mine.save()
        try mine.startNoticingOtherConnections()
        return (mine, try OpenFileRequest.open(path: path), path)
    }

    /// The other connection sets `values` on `Item/1` and saves.
    private func theirChange(_ theirs: ObjectContext, _ values: [String: Value]) throws {
        let object = try #require(try theirs.object(entityName: "Item", primaryKey: 1))
        for (key, value) in values { try object.setValue(value, forKey: key) }
        try theirs.save()
    }

    /// `Item/1`'s title set to "mine" here while the other connection saved "theirs" to
    /// it, that commit noticed before anything is saved here: what `body` does next meets
    /// the conflict.
    private func mineOverTheirs(_ body: (_ mine: ObjectContext, _ theirs: ObjectContext, _ item: ManagedObject, _ path: String) throws -> Void) throws
    {
        let (mine, theirs, path) = try twoContexts()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let item = try #require(try mine.object(entityName: "Item", primaryKey: 1))
        try item.setValue(.text("mine"), forKey: "title")
        try theirChange(theirs, ["title": .text("theirs")])
        #expect(try mine.refreshFromStore())
        try body(mine, theirs, item, path)
    }

    private func stored(_ path: String, _ key: String) throws -> Value? {
        try OpenFileRequest.open(path: path).object(entityName: "Item", primaryKey: 1)?.value(forKey: key)
    }

    @Test func aChangeNoticedBeforeTheSaveIsStillAConflict() throws {
        let (mine, theirs, path) = try twoContexts()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let item = try #require(try mine.object(entityName: "Item", primaryKey: 1))
        try item.setValue(.text("mine"), forKey: "title")
        try theirChange(theirs, ["title": .text("theirs"), "n": .integer(2)])
        #expect(try mine.refreshFromStore())
        // The other connection's value shows where nothing is pending; the change stays.
        #expect(try item.value(forKey: "n") == .integer(2) && item.value(forKey: "title") == .text("mine"))
        #expect(throws: StoreError.conflict([ConflictedObject(objectID: "Item/1", keys: ["title"], deleted: false)])) { try mine.save() }
        #expect(mine.hasChanges)
        #expect(try stored(path, "title") == .text("theirs"))
        // Noticed once more: still what the change was made against that counts.
        try theirChange(theirs, ["n": .integer(3)])
        #expect(try mine.refreshFromStore())
        #expect(throws: StoreError.conflict([ConflictedObject(objectID: "Item/1", keys: ["title"], deleted: false)])) { try mine.save() }
        try mine.save(merge: .store)
        #expect(try item.value(forKey: "title") == .text("theirs") && !mine.hasChanges)
        #expect(try stored(path, "title") == .text("theirs"))
    }

    @Test func mineWritesOverTheirsWhenAsked() throws {
        try mineOverTheirs { mine, _, item, path in
            try mine.save(merge: .mine)
            #expect(try stored(path, "title") == .text("mine"))
            // What the change was made against went with it: the next change is no conflict.
            try item.setValue(.text("again"), forKey: "title")
            try mine.save()
            #expect(try stored(path, "title") == .text("again"))
        }
    }

    @Test func aChangeToAnotherAttributeMergesSilently() throws {
        let (mine, theirs, path) = try twoContexts()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let item = try #require(try mine.object(entityName: "Item", primaryKey: 1))
        try item.setValue(.integer(10), forKey: "n")
        try theirChange(theirs, ["title": .text("theirs")])
        #expect(try mine.refreshFromStore())
        #expect(try mine.save() == SaveSummary(updated: 1))
        #expect(try stored(path, "title") == .text("theirs") && stored(path, "n") == .integer(10))
    }

    /// A change rolled back, or set back to the value it was made against, takes what the
    /// object shows now as its start: no conflict is left behind for the next change.
    @Test func aChangeGoneLeavesNoConflictBehind() throws {
        try mineOverTheirs { mine, theirs, item, path in
            mine.rollback()
            #expect(try item.value(forKey: "title") == .text("theirs"))
            try item.setValue(.text("mine"), forKey: "title")
            try mine.save()
            #expect(try stored(path, "title") == .text("mine"))

            try item.setValue(.text("mine again"), forKey: "title")
            try theirChange(theirs, ["title": .text("theirs again")])
            #expect(try mine.refreshFromStore())
            // Set to what the store holds now: nothing is pending, so nothing conflicts.
            try item.setValue(.text("theirs again"), forKey: "title")
            #expect(!mine.hasChanges)
            try item.setValue(.text("last"), forKey: "title")
            try mine.save()
            #expect(try stored(path, "title") == .text("last"))
        }
    }

    /// A pending delete of `Item/1` while the other connection saved "theirs" to its
    /// title, that commit noticed before anything is saved here.
    private func deleteOverTheirs(_ body: (_ mine: ObjectContext, _ item: ManagedObject, _ path: String) throws -> Void) throws {
        let (mine, theirs, path) = try twoContexts()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let item = try #require(try mine.object(entityName: "Item", primaryKey: 1))
        try mine.delete(item)
        try theirChange(theirs, ["title": .text("theirs")])
        #expect(try mine.refreshFromStore())
        try body(mine, item, path)
    }

    /// The delete was made against the row as it was: their change since is a conflict,
    /// as a change to the same key is, and nothing is deleted; `store` keeps their row
    /// and the object lives again with their values.
    @Test func aDeleteOfARowChangedSinceIsAConflict() throws {
        try deleteOverTheirs { mine, item, path in
            #expect(throws: StoreError.conflict([ConflictedObject(objectID: "Item/1", keys: ["title"], deleted: false)])) { try mine.save() }
            #expect(mine.hasChanges && item.isDeleted)
            #expect(try stored(path, "title") == .text("theirs"))
            try mine.save(merge: .store)
            #expect(!mine.hasChanges && !item.isDeleted && item.managedObjectContext === mine)
            #expect(try item.value(forKey: "title") == .text("theirs"))
            #expect(try stored(path, "title") == .text("theirs"))
            // Deleted again, against their values now: no conflict.
            try mine.delete(item)
            #expect(try mine.save() == SaveSummary(deleted: 1))
            #expect(try OpenFileRequest.open(path: path).object(entityName: "Item", primaryKey: 1) == nil)
        }
    }

    @Test func mineDeletesTheirChangedRowWhenAsked() throws {
        try deleteOverTheirs { mine, _, path in
            let summary = try mine.save(merge: .mine)
            #expect(summary == SaveSummary(deleted: 1))
            #expect(try OpenFileRequest.open(path: path).object(entityName: "Item", primaryKey: 1) == nil)
        }
    }

    /// A delete rolled back takes what the object shows now as its start: a change made
    /// next is no conflict.
    @Test func aDeleteRolledBackLeavesNoConflictBehind() throws {
        try deleteOverTheirs { mine, item, path in
            mine.rollback()
            #expect(try !item.isDeleted && item.value(forKey: "title") == .text("theirs"))
            try item.setValue(.text("mine"), forKey: "title")
            try mine.save()
            #expect(try stored(path, "title") == .text("mine"))
        }
    }
}

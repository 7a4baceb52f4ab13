import Foundation
import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryStore
import Testing

/// An object whose many-to-many links changed, or whose ordered members were placed, is
/// an updated object among the pending changes (`.changes`, the note at the end of a
/// batch run), as Core Data counts it, though none of its own values changed.
@Suite struct PendingRelationshipChangesTests {
    @Test func linksAddedOrRemovedUpdateBothEnds() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Tag" { name = "string" }
            entity "Item" { title = "string", tags = { many = "Tag", inverse = "items" } }
            i = Item:new{ title = "a" }; t = Tag:new{ name = "x" }; save()
            i.tags:add(t)
            """#)
        let pending = h.context.pendingChanges
        #expect(pending.inserted.isEmpty && pending.deleted.isEmpty)
        #expect(Set(pending.updated.map(\.entity.name)) == ["Item", "Tag"], "\(pending.updated.map(\.entity.name))")
        h.run("save()")
        #expect(h.context.pendingChanges.updated.isEmpty)
    }

    @Test func anOrderedMoveUpdatesTheOwner() throws {
        let photos = try CoreDataOrderedMoveTests.Photos()
        let album = try #require(
            try photos.sql.read { db in
                try Int64.fetchOne(db, sql: "SELECT Z_28ALBUMS FROM Z_28ASSETS GROUP BY Z_28ALBUMS HAVING count(*) >= 3 ORDER BY Z_28ALBUMS LIMIT 1")
            })
        let h = try photos.open()
        h.run(#"a = GenericAlbum:get("GenericAlbum/\#(album)"); a.assets:move(#a.assets, 1)"#)
        let updated = h.context.pendingChanges.updated
        #expect(updated.count == 1 && updated.first?.primaryKey == album, "\(updated.map(\.primaryKey))")
        h.run("a.assets:move(1, #a.assets)")
        #expect(h.context.pendingChanges.updated.isEmpty, "a move undone leaves no change")
    }
}

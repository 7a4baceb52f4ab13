import Foundation
import GRDB
import QuarryCoreData
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Issue 49, item 4, from Lua: a store with no model (its `Z_MODELCACHE` dropped from a
/// copy) reads its join tables as many-to-many relationships, where the inferred names
/// had none ("unknown key 'users' on entity Blueprint").
@Suite struct CoreDataInferredManyToManyTests {
    static func withoutModel(_ store: String) throws -> String {
        let path = try CoreDataFixtures.copyOfStore(store)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "DROP TABLE Z_MODELCACHE") }
        try queue.close()
        return path
    }

    /// `screentime/`'s `Z_2USERS(Z_2BLUEPRINTS, Z_16USERS)`: Blueprint/1 has CoreUser/1.
    @Test func screenTimesBlueprintUsersAreReadWithNoModel() throws {
        let path = try Self.withoutModel("screentime/RMAdminStore-Local.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(CoreDataStore.behind(h.context)?.modelSource == "inferred")
        h.run(#"bp = Blueprint:get("Blueprint/1"); u = CoreUser:get("CoreUser/1")"#)
        #expect(h.string("#bp.users .. ' ' .. bp.users[1]:objectID() .. ' ' .. #u.blueprints") == "1 CoreUser/1 1")
        #expect(h.string(#"count("Blueprint", "ANY users.dsid == %@", u.dsid)"#) == "1")
        #expect(h.string(#"count("Blueprint", "%@ IN users", u)"#) == "1")
        // Blueprint.organization, kept with its target's entity number (Z7_ORGANIZATION),
        // is a to-one to CoreOrganization that compares with its sub-entities' objects.
        h.run(#"cloud = CloudOrganization:get("CloudOrganization/2")"#)
        #expect(
            h.string(#"bp.organization:objectID() .. " " .. count("Blueprint", "organization == %@", cloud) .. " " .. #cloud.blueprints"#)
                == "CloudOrganization/2 1 1")
        // A link made and not saved: in memory, the same answer (saving is refused: the
        // store keeps persistent history, whose columns need the model's order).
        h.run(#"nb = Blueprint:new{ identifier = "issue49" }; nb.users:add(u)"#)
        #expect(h.string(#"predicate("%@ IN users", u):matches(nb)"#) == "true")
        #expect(h.string(#"#u.blueprints"#) == "2")
        #expect(h.error("save()").contains("persistent history"))
        // Reading it, and the refused save, changed none of its bytes.
        h.context.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let wal = FileManager.default.contents(atPath: path + "-wal")
        #expect(wal == nil || wal?.isEmpty == true)
    }

    /// `photos/`'s ordered `Z_28ASSETS` (`Z_FOK_3ASSETS`): Album/48's assets in the
    /// user's order (8 before 3), read with no model.
    @Test func photosAlbumAssetsKeepTheirOrderWithNoModel() throws {
        let path = try Self.withoutModel("photos/Photos.sqlite")
        let order = try DatabaseQueue(path: path).read { db in
            try Int64.fetchAll(db, sql: "SELECT Z_3ASSETS FROM Z_28ASSETS WHERE Z_28ALBUMS = 48 ORDER BY Z_FOK_3ASSETS")
        }
        #expect(order == [8, 3])
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(
            h.string(
                #"(function() local t = {} for _, a in ipairs(Album:get("Album/48").assets) do t[#t + 1] = a:objectID() end return table.concat(t, " ") end)()"#
            )
                == "Asset/8 Asset/3")
        #expect(h.string(#"#Asset:get("Asset/8").albums"#) == "3")
    }

    /// `authors/`'s `Z_1BOOKS(Z_1AUTHORS, Z_2BOOKS)`, which keeps no history: links made
    /// through the inferred names are saved into the join table's columns.
    @Test func linksThroughInferredNamesAreSavedToTheJoinTable() throws {
        let path = try Self.withoutModel("authors/TestModel.sqlite")
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(CoreDataStore.behind(h.context)?.modelSource == "inferred")
        h.run(
            #"""
            a = Author:new{ firstname = "Ursula", lastname = "Le Guin" }
            b = Book:new{ title = "The Dispossessed" }
            a.books:add(b)
            save()
            """#)
        let rows = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT ZAUTHOR.ZLASTNAME, ZBOOK.ZTITLE FROM Z_1BOOKS JOIN ZAUTHOR ON ZAUTHOR.Z_PK = Z_1AUTHORS JOIN ZBOOK ON ZBOOK.Z_PK = Z_2BOOKS"
            ).map { "\($0)" }
        }
        #expect(rows == [#"[ZLASTNAME:"Le Guin" ZTITLE:"The Dispossessed"]"#])
        #expect(h.string(#"count("Book", "ANY authors.lastname == 'Le Guin'")"#) == "1")
    }
}

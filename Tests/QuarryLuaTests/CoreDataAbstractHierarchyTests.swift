import Foundation
import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Issue 49, items 2 and 3, on Apple's Screen Time store (`screentime/`): the abstract
/// CoreOrganization > Cloud/Family/LocalOrganization share `ZCOREORGANIZATION`, whose
/// siblings keep their `settings` in `ZSETTINGS` (Cloud, entity 8) and `ZSETTINGS1`
/// (Local, 10); Blueprint's `organization` is a to-one to the abstract CoreOrganization,
/// with the target's entity number in `Z7_ORGANIZATION`. Blueprint/1's organization is
/// CloudOrganization/2 (checked with plain SQL below).
@Suite struct CoreDataAbstractHierarchyTests {
    struct Fixture {
        let path: String
        let sql: DatabaseQueue

        init() throws {
            path = try CoreDataFixtures.copyOfStore("screentime/RMAdminStore-Local.sqlite")
            sql = try DatabaseQueue(path: path)
            let facts = try sql.read { db in
                try Row.fetchAll(db, sql: "SELECT Z_PK, Z_ENT, ZSETTINGS, ZSETTINGS1 FROM ZCOREORGANIZATION ORDER BY Z_PK").map { "\($0)" }
                    + Row.fetchAll(db, sql: "SELECT Z_PK, ZORGANIZATION, Z7_ORGANIZATION FROM ZBLUEPRINT").map { "\($0)" }
            }
            #expect(
                facts == [
                    "[Z_PK:1 Z_ENT:10 ZSETTINGS:NULL ZSETTINGS1:1]", "[Z_PK:2 Z_ENT:8 ZSETTINGS:2 ZSETTINGS1:NULL]",
                    "[Z_PK:1 ZORGANIZATION:2 Z7_ORGANIZATION:8]"
                ])
        }

        func open() throws -> Harness { try Harness(context: try StoreOpener.open(path)) }
    }

    /// Item 2: a to-one whose destination is abstract compares with an instance of any of
    /// its sub-entities, in SQL and in memory alike (==, !=, IN, ANY, nil, SELF).
    @Test func aToOneToAnAbstractEntityComparesWithItsSubentitiesObjects() throws {
        let f = try Fixture()
        let h = try f.open()
        h.run(
            #"""
            cloud = CloudOrganization:get("CloudOrganization/2")
            loc = LocalOrganization:get("LocalOrganization/1")
            bp = Blueprint:get("Blueprint/1")
            """#)
        let cases: [(String, String, String)] = [
            ("organization == %@", "cloud", "1"), ("organization == %@", "loc", "0"),
            ("organization != %@", "cloud", "0"), ("organization != %@", "loc", "1"),
            ("organization IN %@", "{cloud, loc}", "1"), ("organization IN %@", "{loc}", "0")
        ]
        for (format, argument, expected) in cases {
            #expect(h.string(#"count("Blueprint", "\#(format)", \#(argument))"#) == expected, "\(format) \(argument)")
            // The same answer in memory.
            #expect(h.string(#"predicate("\#(format)", \#(argument)):matches(bp)"#) == (expected == "1" ? "true" : "false"), "\(format) \(argument)")
        }
        #expect(h.string(#"count("Blueprint", "organization == nil")"#) == "0")
        #expect(h.string(#"count("CoreUser", "ANY blueprints.organization == %@", cloud)"#) == "1")
        #expect(h.string(#"count("CoreUser", "ANY blueprints.organization == %@", loc)"#) == "0")
        #expect(h.string(#"count("CoreOrganization", "SELF IN %@", {cloud, loc})"#) == "2")
        #expect(h.string(#"count("CoreOrganization", "SELF == %@", cloud)"#) == "1")
        // Objects of no entity of the destination's family are still refused.
        #expect(
            h.error(#"count("Blueprint", "organization == %@", CoreUser:get("CoreUser/1"))"#)
                .contains("'organization' holds CoreOrganization objects, not CoreUser"))
        #expect(
            h.error(#"count("LocalOrganizationSettings", "organization == %@", cloud)"#)
                .contains("'organization' holds LocalOrganization objects, not CloudOrganization"))
        // An unsaved blueprint of the local organization: in memory, then in SQL after
        // saving, whose row keeps the target's entity number as Core Data does.
        h.run(
            #"""
            nb = Blueprint:new{ identifier = "issue49", organization = loc }
            assert(#fetch("Blueprint", "organization == %@", loc) == 1)
            assert(predicate("organization == %@", loc):matches(nb))
            save()
            """#)
        #expect(h.string(#"count("Blueprint", "organization == %@", loc)"#) == "1")
        let written = try f.sql.read { db in
            try Row.fetchOne(db, sql: "SELECT ZORGANIZATION, Z7_ORGANIZATION FROM ZBLUEPRINT WHERE ZIDENTIFIER = 'issue49'").map { "\($0)" }
        }
        #expect(written == "[ZORGANIZATION:1 Z7_ORGANIZATION:10]")
    }

    /// Item 3: an object met first through its abstract parent has its own entity's
    /// relationships, read from the columns its entity uses (`ZSETTINGS1` for Local), and
    /// keeps them when its own entity is fetched after.
    @Test func anObjectReadThroughItsParentHasItsOwnEntitysColumns() throws {
        let f = try Fixture()
        let h = try f.open()
        h.run(
            #"""
            got = {}
            for _, o in ipairs(fetch("CoreOrganization")) do got[o:objectID()] = o.settings and o.settings:objectID() or "nil" end
            """#)
        #expect(h.string(#"got["LocalOrganization/1"]"#) == "LocalOrganizationSettings/1")
        #expect(h.string(#"got["CloudOrganization/2"]"#) == "CloudOrganizationSettings/2")
        #expect(h.string(#"fetch("LocalOrganization")[1].settings:objectID()"#) == "LocalOrganizationSettings/1")
        // The settings' parent likewise: Local's organization and user are in ZORGANIZATION2 and ZUSER2.
        h.run(
            #"""
            for _, s in ipairs(fetch("CoreOrganizationSettings")) do got[s:objectID()] = s.organization:objectID() .. " " .. s.user:objectID() end
            """#)
        #expect(h.string(#"got["LocalOrganizationSettings/1"]"#) == "LocalOrganization/1 CoreUser/1")
        #expect(h.string(#"got["CloudOrganizationSettings/2"]"#) == "CloudOrganization/2 CoreUser/1")
        // A predicate over the parent reads each row's own column, in SQL.
        #expect(h.string(#"count("CoreOrganization", "settings != nil")"#) == "2")
        #expect(h.string(#"count("CoreOrganization", "settings == %@", LocalOrganizationSettings:get("LocalOrganizationSettings/1"))"#) == "1")
        #expect(h.string(#"predicate("settings != nil"):matches(LocalOrganization:get("LocalOrganization/1"))"#) == "true")
        // Deleting the object met through the parent cascades to the settings read from its column.
        h.run(
            #"""
            fetch("CoreOrganization", "SELF == %@", LocalOrganization:get("LocalOrganization/1"))[1]:delete()
            save()
            """#)
        let after = try f.sql.read { db in
            try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZCOREORGANIZATION UNION ALL SELECT -Z_PK FROM ZCOREORGANIZATIONSETTINGS")
        }
        #expect(after == [2, -2])
    }

    /// Item 3 on every hierarchy of the real stores: each object first met through an
    /// ancestor's fetch (a fresh context per ancestor) shows the same attributes and
    /// to-ones as when it is fetched as its own entity.
    @Test(arguments: ["screentime/RMAdminStore-Local.sqlite", "photos/Photos.sqlite", "cars/SampleModel_V1.sqlite", "books2/SampleModel2_V2.sqlite"])
    func everyObjectReadThroughAnAncestorIsAsReadAsItself(store: String) throws {
        let path = try CoreDataFixtures.copyOfStore(store)
        let collect = #"""
            function collect(name, own)
              local t = {}
              for _, o in ipairs(fetch(name)) do
                if (o:entity().name == name) == own then t[#t + 1] = o:objectID() .. " " .. tostring(o) end
              end
              return table.concat(t, "\n")
            end
            """#
        let own = try Harness(context: try StoreOpener.open(path))
        own.run(collect)
        let entities = own.context.entities
        var asItself: [String: String] = [:]
        for entity in entities {
            for line in (own.string(#"collect("\#(entity.name)", true)"#) ?? "").split(separator: "\n") {
                asItself[String(line.prefix { $0 != " " })] = String(line)
            }
        }
        let ancestors = Set(entities.compactMap(\.parent))
        #expect(!ancestors.isEmpty)
        var compared = 0
        for ancestor in ancestors.sorted() {
            let h = try Harness(context: try StoreOpener.open(path))
            h.run(collect)
            for line in (h.string(#"collect("\#(ancestor)", false)"#) ?? "").split(separator: "\n") {
                let id = String(line.prefix { $0 != " " })
                #expect(asItself[id] == String(line), "through \(ancestor)")
                compared += 1
            }
        }
        #expect(compared > 0)
    }
}

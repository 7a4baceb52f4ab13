import Foundation
import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Issue 49, item 1: a SwiftData composite reads as a Lua table (`c.author.person`), nil
/// when all its elements are; key paths into it filter and sort in SQL; it is written back
/// element by element. On a store built to a real store's format (`SwiftDataCompositeStore`);
/// every check of the file is plain SQL.
@Suite struct SwiftDataCompositeLuaTests {
    struct Fixture {
        let path: String
        let sql: DatabaseQueue

        init() throws {
            path = try CoreDataFixtures.temporaryFolder().appendingPathComponent("default.store").path
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: try SwiftDataCompositeStore.sql()) }
            try queue.close()
            sql = try DatabaseQueue(path: path)
        }

        func open() throws -> Harness { try Harness(context: try StoreOpener.open(path)) }

        func text(_ query: String) throws -> String? { try sql.read { db in try String.fetchOne(db, sql: query) } }
    }

    @Test func aCompositeIsATableAndAnAbsentOneIsNil() throws {
        let f = try Fixture()
        let h = try f.open()
        h.run(#"a = Cocktail:get("Cocktail/1"); g = Cocktail:get("Cocktail/2"); b = Cocktail:get("Cocktail/3")"#)
        // The cocktail's own id is ZID1; its author's is ZID.
        #expect(h.string("a.id") == "E2C6D91B-98ED-43F2-9110-C68BA68578CA")
        #expect(h.string("a.author.id") == "3D7AD64F-92DA-41EF-8FBF-F7DB08A70B6A")
        #expect(h.string("a.author.person") == "G. Selmer Foughner")
        #expect(h.string("a.author.place") == "nil")
        #expect(h.string("type(a.author)") == "table")
        #expect(h.string("g.author") == "nil")
        #expect(h.string("g.id") == "9A8B7F4E-E03E-4BA8-9B04-11464B65D799")
        // Nested, and two composites' elements of one name in their own columns.
        #expect(h.string("a.origin.coords.lat") == "40.75")
        #expect(h.string("a.origin.place") == "Algonquin Hotel")
        #expect(h.string("b.author.place") == "Fred's Club, London")
        #expect(h.string("b.origin") == "nil")
        // Enums: a raw value reads as itself; one without, as the table of its case.
        #expect(h.string("a.glasswareType") == "Martini")
        #expect(h.string("a.collection") == "3")
        #expect(h.string("a.historicSpec.algonquin") == "algonquin")
        #expect(h.string("b.historicSpec.alaska") == "alaska")
        #expect(h.string("g.historicSpec") == "nil")
    }

    @Test func keyPathsIntoACompositeFilterAndSortInSQL() throws {
        let f = try Fixture()
        let h = try f.open()
        #expect(h.string(#"count("Cocktail", "author.person == %@", "Dick Bradsell")"#) == "1")
        let withPerson = try f.text("SELECT count(*) FROM ZCOCKTAIL WHERE ZPERSON IS NOT NULL")
        #expect(h.string(#"count("Cocktail", "author.person != nil")"#) == withPerson)
        #expect(h.string(#"count("Cocktail", "origin.coords.lat > 40")"#) == "1")
        #expect(h.string(#"count("Cocktail", "id == %@", "9A8B7F4E-E03E-4BA8-9B04-11464B65D799")"#) == "1")
        #expect(h.string(#"count("Cocktail", "author.id == %@", "9A8B7F4E-E03E-4BA8-9B04-11464B65D799")"#) == "0")
        // A whole composite compares with nil only: nil is every element nil.
        #expect(h.string(#"count("Cocktail", "author == nil")"#) == "1")
        #expect(h.string(#"count("Cocktail", "author != nil")"#) == "2")
        #expect(h.string(#"count("Cocktail", "origin == nil AND historicSpec != nil")"#) == "1")
        #expect(h.error(#"count("Cocktail", "author == 'x'")"#).contains("'author' is a composite"))
        h.run(
            #"names = {}; for _, c in ipairs(fetch{ "Cocktail", predicate = "author.year != nil", sort = "author.year" }) do names[#names + 1] = c.cocktailName end"#
        )
        #expect(h.string("table.concat(names, ',')") == "Algonquin,Bramble")
        // Grouped by an element, as SQL groups its column.
        h.run(
            #"g = fetch{ "Cocktail", result = "dictionaries", properties = { "author.year", "count(*)" }, group = { "author.year" }, sort = { "author.year" } }"#
        )
        let years = try f.text("SELECT count(DISTINCT ifnull(ZYEAR, '~')) FROM ZCOCKTAIL")
        #expect(h.string("#g") == years)
        #expect(h.string(#"g[3]["author.year"] .. '=' .. g[3]["count(*)"]"#) == "1984=1")
    }

    @Test func aCompositeIsWrittenElementByElement() throws {
        let f = try Fixture()
        let h = try f.open()
        h.run(
            #"""
            g = Cocktail:get("Cocktail/2")
            g.author = {person = "Dale DeGroff", year = "1990s"}
            a = Cocktail:get("Cocktail/1")
            a.author = nil
            a.origin = {city = "Paris", coords = {lat = 48.85}}
            n = Cocktail:new{cocktailName = "Negroni", glasswareType = "Rocks", id = "0D0D0D0D-0D0D-4D0D-8D0D-0D0D0D0D0D0D", author = {person = "Camillo"}}
            save()
            """#)
        #expect(
            try f.text(
                "SELECT ZPERSON || '|' || ZYEAR || '|' || ifnull(ZPLACE, 'nil') || '|' || ifnull(nullif(hex(ZID), ''), 'nil') FROM ZCOCKTAIL WHERE Z_PK = 2"
            ) == "Dale DeGroff|1990s|nil|nil")
        // A nil composite is every element nil; the cocktail's own id is untouched.
        #expect(
            try f.text("SELECT count(*) FROM ZCOCKTAIL WHERE Z_PK = 1 AND ZID IS NULL AND ZPERSON IS NULL AND ZPLACE IS NULL AND ZYEAR IS NULL")
                == "1")
        #expect(try f.text("SELECT hex(ZID1) FROM ZCOCKTAIL WHERE Z_PK = 1") == "E2C6D91B98ED43F29110C68BA68578CA")
        #expect(
            try f.text("SELECT ZCITY || '|' || ZLAT || '|' || ifnull(ZLON, 'nil') || '|' || ifnull(ZPLACE1, 'nil') FROM ZCOCKTAIL WHERE Z_PK = 1")
                == "Paris|48.85|nil|nil")
        #expect(
            try f.text("SELECT ZPERSON || '|' || ZGLASSWARETYPE || '|' || hex(ZID1) FROM ZCOCKTAIL WHERE ZCOCKTAILNAME = 'Negroni'")
                == "Camillo|Rocks|0D0D0D0D0D0D4D0D8D0D0D0D0D0D0D0D")
        #expect(try f.text("PRAGMA integrity_check") == "ok")
        // A field the composite does not have is refused, and nothing of it is set.
        let message = h.error(#"g.author = {persn = "X"}"#)
        #expect(message.contains("Cocktail.author has no element 'persn'") && message.contains("person"), "\(message)")
        #expect(h.string("g.author.person") == "Dale DeGroff")
        #expect(h.error(#"g.author = 5"#).contains("composite"))
    }
}

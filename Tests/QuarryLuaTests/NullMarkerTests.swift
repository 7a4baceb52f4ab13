import QuarryLua
import QuarrySQLite
import Testing

/// `null` (`quarry.null`) stands for nil where a Lua table cannot hold nil: in `new{}`,
/// in `updateall`'s values and inside json values (the contract's "Objects" section).
@Suite struct NullMarkerTests {
    @Test func nullIsNilInNewUpdateallAndJSON() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "I" { title = "string?", n = "int64?", j = "json?" }
            local o = I:new{ title = null, n = quarry.null, j = { a = null, b = 1 } }
            assert(o.title == nil and o.n == nil and o.j.b == 1)
            save()
            assert(count("I", "title == nil") == 1)
            local p = I:new{ title = "x", n = 2 }; save()
            assert(I:updateall("title == 'x'", {}, { title = null }) == 1)
            assert(count("I", "title == nil") == 2)
            """#)
        // The json value keeps the key whose value is null.
        #expect(h.string(#"I:first().j.b"#) == "1")
        #expect(
            try h.context.connection.database.read { db in try String.fetchOne(db, sql: "SELECT j FROM I WHERE j IS NOT NULL") }?.contains(
                "\"a\":null") == true)
    }
}

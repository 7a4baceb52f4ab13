import Testing

/// `count{}` takes the table form of a request, and with `properties`, `group`, `having`
/// or `distinct` it counts the rows that request makes, as `#fetch{}` does, in SQL: it
/// counted the matching objects instead, so `count{ "moz_places", properties = {
/// "rev_host" }, distinct = true }` said 2466 where there are 307 hosts (trial 24).
@Suite struct CountShapedRowsTests {
    @Test func aCountOfDistinctOrGroupedRowsCountsTheRows() throws {
        let h = try Harness()
        h.run(
            #"entity "Item" { title = "string?", n = "int64" }; for i = 1, 6 do Item:new{ title = ({ "a", "b", "a", nil, "b", "a" })[i], n = i } end; save()"#
        )
        let distinct = #""Item", properties = { "title" }, distinct = true"#
        #expect(h.string("#fetch{ \(distinct) }") == "3")
        #expect(h.string("count{ \(distinct) }") == "3")
        #expect(h.string(#"Item:count{ properties = { "title" }, distinct = true }"#) == "3")
        let grouped = #""Item", result = "dictionaries", properties = { "title", "count(*)" }, group = { "title" }"#
        #expect(h.string("count{ \(grouped) }") == "3")
        #expect(h.string("count{ \(grouped), having = \"count > 1\" }") == "2")
        #expect(h.string(#"count{ "Item", "n > 2", properties = { "title" }, group = { "title" } }"#) == "3")
        #expect(h.string(#"count{ "Item", "n >= 3", properties = { "title" }, distinct = true }"#) == "3")
        #expect(h.string(#"count{ "Item", "n != 4", properties = { "title" }, distinct = true }"#) == "2")
        // Objects are counted as before: every row that matches, each distinct already.
        #expect(h.string(#"count{ "Item", "title == %@", "a" }"#) == "3")
        #expect(h.string(#"count{ "Item", distinct = true }"#) == "6")
    }
}

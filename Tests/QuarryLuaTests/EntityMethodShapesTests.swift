import Testing

/// `Item:fetch{}` is fetch{} with the entity filled in, as the contract says: it gave
/// objects whatever `result`, `properties`, `group` or `distinct` asked, without a word
/// (`moz_places:fetch{ properties = { "rev_host", "count(*)" }, group = { "rev_host" } }`
/// listed places, not hosts; trial 24). `Item:first{}` gives an object, and refuses a
/// shape of rows rather than dropping it.
@Suite struct EntityMethodShapesTests {
    @Test func theMethodFetchGivesTheShapeAsked() throws {
        let h = try Harness()
        h.run(
            #"entity "Item" { title = "string?", n = "int64" }; for i = 1, 6 do Item:new{ title = ({ "a", "b", "a", nil, "b", "a" })[i], n = i } end; save()"#
        )
        #expect(h.string(#"#Item:fetch{ properties = { "title" }, distinct = true }"#) == "3")
        #expect(h.string(#"#Item:fetch{ "n > 1", properties = { "title", "count(*)" }, group = { "title" } }"#) == "3")
        #expect(
            h.string(#"Item:fetch{ properties = { "title", "count(*) AS k" }, group = { "title" }, having = "k == 3" }[1].title"#) == "a")
        #expect(h.string(#"Item:fetch{ result = "count" }"#) == "6")
        #expect(h.string(#"Item:fetch{ "n > 4", result = "count" }"#) == "2")
        #expect(h.string(#"type(Item:fetch{ result = "ids" }[1])"#) == "string")
        // The results of objects, as before.
        #expect(h.string(#"quarry.typeof(Item:fetch{ "n > 1", sort = "-n" })"#) == "results")
        #expect(h.string(#"Item:fetch("n > %@", 4)[1].n"#) == "5")
    }

    @Test func theMethodFirstRefusesAShapeOfRows() throws {
        let h = try Harness()
        h.run(#"entity "Item" { title = "string?", n = "int64" }; Item:new{ title = "a", n = 1 }; Item:new{ title = "b", n = 2 }; save()"#)
        for call in [
            #"Item:first{ properties = { "title" }, group = { "title" } }"#, #"Item:first{ result = "ids" }"#,
            #"Item:first{ properties = { "title" }, distinct = true }"#
        ] {
            let message = h.error("local _ = \(call)")
            #expect(
                message.contains("first: it gives the first object") && message.contains("Item:fetch{ ..., limit = 1 }[1]"), "\(call): \(message)")
        }
        #expect(h.string(#"Item:first{ "n > 1" }.title"#) == "b")
        #expect(h.string(#"Item:first{ sort = "-n" }.title"#) == "b")
    }
}

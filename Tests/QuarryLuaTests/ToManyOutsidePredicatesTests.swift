import Testing

/// A key path through a to-many relationship where one value a row goes (a group, a
/// property, a section, a sort key) is refused with what that option takes: ANY, ALL and
/// NONE are a predicate's, and the group refused with "write ANY …" refused ANY too.
@Suite struct ToManyOutsidePredicatesTests {
    @Test func eachOptionSaysWhatItTakes() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Cat" { name = "string", films = { many = "Film", inverse = "cats" } }
            entity "Film" { title = "string", cats = { many = "Cat", inverse = "films" } }
            local f = Film:new{ title = "a" }; f.cats = { Cat:new{ name = "x" } }; save()
            """#)
        for (option, request) in [
            ("group", #"group = "cats.name", properties = { "count(*)" }"#), ("properties", #"properties = { "cats.name" }"#),
            ("section", #"section = "cats.name""#), ("sort", #"sort = "-cats.name""#)
        ] {
            let message = h.error(#"local _ = fetch{ "Film", "# + request + " }")
            #expect(
                message.contains("\(option): 'cats.name' crosses the to-many relationship 'cats', several values to a row where \(option) takes one")
                    && message.contains("cats.@count") && !message.contains("ANY"), "\(option): \(message)")
        }
        // A predicate is still told of ANY, which it takes.
        #expect(h.error(#"local _ = count("Film", "cats.name == 'x'")"#).contains("write ANY cats.name"))
        #expect(h.string(#"count("Film", "ANY cats.name == 'x'")"#) == "1")
    }
}

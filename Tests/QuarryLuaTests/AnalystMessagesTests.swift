import Testing

/// Issue 32's "errors that mislead": each names the option the person wrote.
@Suite struct AnalystMessagesTests {
    @Test func sqlErrorsNameSQL() throws {
        let h = try Harness()
        #expect(h.error(#"sql("SELEC 1")"#) == #"t:1: sql: near "SELEC": syntax error"#)
        #expect(h.error(#"sql("SELECT * FROM nowhere")"#) == "t:1: sql: no such table: nowhere")
    }

    @Test func havingErrorsNameHaving() throws {
        let h = try Harness()
        h.run(#"entity "I" { n = "int64" }; I:new{ n = 1 }; save()"#)
        let request = #"fetch{ "I", result = "dictionaries", properties = { "n", "count(*)" }, group = { "n" }, having = %@ }"#
        #expect(h.error(request.replacingOccurrences(of: "%@", with: #""count > %@""#)) == "t:1: having: %@ has no argument (0 given) at column 9")
        #expect(h.error(request.replacingOccurrences(of: "%@", with: #""cnt > 1""#)).hasPrefix("t:1: having: unknown key path 'cnt'"))
        #expect(h.error(request.replacingOccurrences(of: "%@", with: #"{ "count >" }"#)).hasPrefix("t:1: having: "))
        #expect(h.error(#"fetch{ "I", sort = "nope" }"#).hasPrefix("t:1: sort: unknown key 'nope'"))
    }

    /// Options guessed after the arguments (`fetch("I", nil, { sort = "-n" })`) were a
    /// list of nothing, dropped without a word: the rows came back unsorted. Extra values
    /// are still dropped, as NSPredicate drops what its format does not take.
    @Test func optionsAfterTheArgumentsAreRefused() throws {
        let h = try Harness()
        h.run(#"entity "I" { n = "int64" }; I:new{ n = 1 }; I:new{ n = 2 }; save()"#)
        #expect(
            h.error(#"fetch("I", nil, { sort = "-n" })"#).hasPrefix(
                "t:1: bad argument #3 to 'fetch' (a table of named options is no predicate argument"))
        #expect(h.error(#"count("I", "n > 0", { limit = 1 })"#).hasPrefix("t:1: bad argument #3 to 'count' (a table of named options"))
        #expect(h.error(#"fetch("I", nil, 1, { limit = 1 })"#).hasPrefix("t:1: bad argument #4 to 'fetch' (a table of named options"))
        #expect(h.error(#"fetch("I", "n IN %@", { 1, sort = "n" })"#).hasPrefix("t:1: bad argument #3 to 'fetch' (a table of named options"))
        #expect(h.string(#"tostring(#fetch("I", "n IN %@", { 1, 2 }))"#) == "2")
        // A section with properties was dropped, the rows flat.
        #expect(
            h.error(#"fetch{ "I", section = "n", properties = { "n" } }"#)
                == #"t:1: fetch: section = "n" groups objects into sections; rows of properties or another result have none (group = { "n" } groups dictionary rows)"#
        )
        #expect(h.error(#"fetch{ "I", section = "n", result = "ids" }"#).hasPrefix(#"t:1: fetch: section = "n" groups objects"#))
        #expect(h.string(#"tostring(#fetch{ "I", section = "n" })"#) == "2")
    }
}

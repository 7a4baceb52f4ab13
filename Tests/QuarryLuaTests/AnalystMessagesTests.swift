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
}

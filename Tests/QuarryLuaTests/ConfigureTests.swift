import Testing

/// `r:configure{ ... }` (issue 32): a predicate with more `%@` than the old arguments
/// comes with its arguments, every key applies at once, observers hear one event, and
/// a refused configuration leaves `r` as it was.
@Suite struct ConfigureTests {
    private func harness() throws -> Harness {
        let h = try Harness()
        h.run(
            #"""
            entity "T" { n = "int64", g = "string" }
            for i = 1, 10 do T:new{ n = i, g = i % 2 == 0 and "even" or "odd" } end
            save()
            """#)
        return h
    }

    @Test func aPredicateWithMoreArgumentsThanBeforeComesWithThem() throws {
        let h = try harness()
        h.run(#"r = fetch("T", "n > %@", 5)"#)
        // Assigned alone, the new predicate is parsed with the old arguments and fails.
        #expect(h.error(#"r.predicate = "n > %@ AND n < %@""#).contains("predicate"))
        #expect(h.string("#r") == "5")
        h.run(#"r:configure{ predicate = "n > %@ AND n < %@", args = { 2, 6 } }"#)
        #expect(h.string("#r") == "3")
        #expect(h.string("r.predicate") == "n > %@ AND n < %@")
        #expect(h.string("table.concat(r.args, ',')") == "2,6")
        // Arguments alone, and the table form of the predicate, as r.predicate takes it.
        h.run(#"r:configure{ args = { 7, 10 } }"#)
        #expect(h.string("#r") == "2")
        h.run(#"r:configure{ predicate = { "g == %@ AND n > %@", "odd", 4 } }"#)
        #expect(h.string("#r") == "3")
        #expect(h.string("table.concat(r.args, ',')") == "odd,4")
    }

    @Test func everyKeyAtOnceGivesObserversOneEvent() throws {
        let h = try harness()
        h.run(
            #"""
            r = fetch("T", "n > %@", 5)
            events, last = 0, nil
            observe(r, function(ev) events = events + 1; last = ev end)
            r:configure{ predicate = "n >= %@ AND g == %@", args = { 2, "even" }, sort = "-n", limit = 3, offset = 1 }
            """#)
        #expect(h.string("events") == "1")
        // Rows 8, 6, 4 (10 skipped by the offset): the event turns old into new.
        #expect(h.string("r[1].n .. ',' .. r[2].n .. ',' .. r[3].n .. ',' .. #r") == "8,6,4,3")
        #expect(h.string("#last.inserted + #last.moved + #last.deleted > 0") == "true")
        #expect(h.string("r.sort[1] .. ' ' .. r.limit .. ' ' .. r.offset") == "-n 3 1")
        // false clears what a table cannot hold as nil: one more event.
        h.run(#"r:configure{ predicate = false, sort = false, limit = false, offset = false }"#)
        #expect(h.string("events") == "2")
        #expect(h.string("#r") == "10")
        #expect(h.string("r.predicate") == "nil")
        #expect(h.string("r.limit") == "nil")
        // Sections: #r counts them.
        h.run(#"r:configure{ section = "g" }"#)
        #expect(h.string("#r .. ' ' .. r.section .. ' ' .. events") == "2 g 3")
    }

    @Test func unknownKeysAndBadValuesLeaveTheResultsAsTheyWere() throws {
        let h = try harness()
        h.run(
            #"""
            r = fetch("T", "n > %@", 5)
            events = 0
            observe(r, function() events = events + 1 end)
            """#)
        let unknown = h.error(#"r:configure{ predicat = "n > 1" }"#)
        #expect(unknown.contains("r:configure: unknown option 'predicat' (did you mean 'predicate'?)"), "\(unknown)")
        // A bad limit after a good predicate: nothing applies.
        let limit = h.error(#"r:configure{ predicate = "n < %@", args = { 3 }, limit = "x" }"#)
        #expect(limit.contains("limit must be an integer or false"), "\(limit)")
        let both = h.error(#"r:configure{ predicate = { "n < %@", 3 }, args = { 4 } }"#)
        #expect(both.contains("not both"), "\(both)")
        let parse = h.error(#"r:configure{ predicate = "n < %@ AND n > %@", args = { 3 } }"#)
        #expect(parse.contains("predicate"), "\(parse)")
        let sort = h.error(#"r:configure{ sort = "nope" }"#)
        #expect(sort.contains("nope"), "\(sort)")
        #expect(h.error("r:configure(3)").contains("table expected"))
        #expect(h.string("#r .. ' ' .. r.predicate .. ' ' .. r.args[1] .. ' ' .. events") == "5 n > %@ 5 0")
    }

    @Test func aPredicateObjectHoldsItsArguments() throws {
        let h = try harness()
        h.run(#"r = fetch("T")"#)
        h.run(#"r:configure{ predicate = predicate("n <= %@", 4), limit = 2 }"#)
        #expect(h.string("#r") == "2")
        #expect(h.error(#"r:configure{ args = { 1 } }"#).contains("holds its arguments"))
        h.run(#"r:configure{ predicate = "n == %@", args = { 9 } }"#)
        #expect(h.string("#r .. ' ' .. r[1].n") == "1 9")
    }

    @Test func wrongTypesGetOneLineEach() throws {
        let h = try harness()
        h.run(#"r = fetch("T", "n > %@", 5)"#)
        let cases = [
            (#"r:configure{ predicate = { 1 } }"#, "needs the format string first"),
            (#"r:configure{ predicate = true }"#, "predicate must be"),
            (#"r:configure{ args = "x" }"#, "args must be a table"),
            (#"r:configure{ 3 }"#, "options are named"),
            (#"r:configure{ section = 3 }"#, "section must be"),
            (#"r:configure{ limit = 1.5 }"#, "limit must be an integer"),
            (#"r:configure{ sort = 4 }"#, "sort must be"),
            (#"r.configure(3, {})"#, "results expected")
        ]
        for (code, expected) in cases {
            let message = h.error(code)
            #expect(message.contains(expected) && !message.contains("\n"), "\(code): \(message)")
        }
        #expect(h.string("#r .. ' ' .. r.predicate") == "5 n > %@")
    }
}

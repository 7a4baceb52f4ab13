import QuarryLua
import Testing

/// Tab completion as the REPL asks for it: the text before the word and the word.
struct CompletionTests {
    private func harness() throws -> Harness {
        let h = try Harness()
        h.run(
            """
            entity "Airline" { carrier = "string", name = "string" }
            entity "Flight" { carrier = "string", dep_delay = "double?", airline = { one = "Airline", inverse = "flights" } }
            """)
        return h
    }

    @Test func theFirstStringOfAFetchTakesEntityNamesOnly() throws {
        let h = try harness()
        #expect(h.runtime.completions(before: "fetch(\"", word: "Fl") == ["Flight"])
        #expect(h.runtime.completions(before: "count('", word: "") == ["Airline", "Flight"])
        #expect(h.runtime.completions(before: "fetch{ \"", word: "A") == ["Airline"])
        #expect(h.runtime.completions(before: "fetch{ entity = \"", word: "") == ["Airline", "Flight"])
        // Not globals, keywords or Lua names: "fetch" would be a wrong answer here.
        #expect(h.runtime.completions(before: "fetch(\"", word: "f").isEmpty)
    }

    @Test func predicateStringsOfferKeysThroughRelationships() throws {
        let h = try harness()
        #expect(h.runtime.completions(before: "count(\"Flight\", \"", word: "dep") == ["dep_delay"])
        #expect(h.runtime.completions(before: "count(\"Flight\", \"airline.", word: "") == ["carrier", "flights", "name"])
        #expect(h.runtime.completions(before: "Flight:fetch(\"dep_delay > 3 AND airline.", word: "na") == ["name"])
        #expect(h.runtime.completions(before: "fetch(\"Flight\", \"airline.flights.", word: "dep") == ["dep_delay"])
        #expect(h.runtime.completions(before: "count(\"Flight\", \"nothing.", word: "").isEmpty)
        // Quotes inside the predicate do not end it; one to-one relationship goes on to
        // its keys with its dot (a to-many, ended by ANY or @count, does not).
        #expect(h.runtime.completions(before: "count(\"Flight\", \"carrier == 'UA' AND ", word: "air") == ["airline."])
        #expect(h.runtime.completions(before: "count(\"Airline\", \"", word: "fli") == ["flights"])
    }

    @Test func sortStringsOfferTheEntitysKeys() throws {
        let h = try harness()
        #expect(h.runtime.completions(before: "fetch{ \"Flight\", sort = { \"", word: "dep") == ["dep_delay"])
        #expect(h.runtime.completions(before: "fetch{ \"Flight\", sort = { \"carrier\", \"-", word: "airline") == ["airline."])
        #expect(h.runtime.completions(before: "fetch{ \"Flight\", sort = \"airline.", word: "") == ["carrier", "flights", "name"])
    }

    /// A key named as a predicate word is offered as the string reads it as the key (issue
    /// 80): `#size` in a predicate, `size` in a sort key, a property or a group, and `size`
    /// after a `#` already typed.
    @Test func aReservedWordKeyIsOfferedInTheFormTheStringReads() throws {
        let h = try Harness()
        h.run(#"entity "Doc" { first = "string", size = "int64", title = "string" }"#)
        #expect(h.runtime.completions(before: #"count("Doc", ""#, word: "si") == ["#size"])
        #expect(h.runtime.completions(before: #"Doc:fetch("title == 'a' AND "#, word: "") == ["#first", "#size", "title"])
        #expect(h.runtime.completions(before: ##"count("Doc", "#"##, word: "fi") == ["first"])
        #expect(h.runtime.completions(before: #"fetch{ "Doc", sort = "-"#, word: "fi") == ["first"])
        #expect(h.runtime.completions(before: #"fetch{ "Doc", sort = { "title", ""#, word: "si") == ["size"])
        #expect(h.runtime.completions(before: #"fetch{ "Doc", properties = { "first", "sum("#, word: "si") == ["size"])
        #expect(h.runtime.completions(before: #"fetch{ "Doc", group = { ""#, word: "fi") == ["first"])
        #expect(h.runtime.completions(before: #"fetch{ "Doc", having = ""#, word: "si") == ["size"])
        #expect(h.runtime.completions(before: #"fetch{ "Doc", predicate = ""#, word: "si") == ["#size"])
    }

    /// `Flight.` offers the entity's attributes and relationships, as the contract's REPL
    /// section says, with the handle's own fields (issue 63 item 6).
    @Test func anEntityHandleOffersItsKeysFieldsAndMethods() throws {
        let h = try harness()
        #expect(h.runtime.completions(before: "Flight.", word: "") == ["airline", "attributes", "carrier", "dep_delay", "name"])
        #expect(h.runtime.completions(before: "Flight:", word: "fe") == ["fetch"])
        h.run("o = Flight:new{ carrier = 'UA' }")
        #expect(h.runtime.completions(before: "o.", word: "dep") == ["dep_delay"])
        #expect(h.runtime.completions(before: "", word: "Fli") == ["Flight"])
    }

    /// In the query of `sql("` (or `{ sql = "`), the tables the entities are read from.
    @Test func anSQLStringOffersTables() throws {
        let h = try harness()
        #expect(h.runtime.completions(before: #"sql("SELECT * FROM "#, word: "Fl") == ["Flight"])
        #expect(h.runtime.completions(before: #"export({ sql = "SELECT * FROM Flight JOIN "#, word: "") == ["Airline", "Flight"])
        #expect(h.runtime.completions(before: #"mysql("SELECT * FROM "#, word: "Fl") == [])
    }
}

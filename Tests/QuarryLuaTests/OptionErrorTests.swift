import QuarryLua
import QuarryModel
import QuarryStore
import Testing

/// "option X must be Y": one error shape for every options table, whose line reads as the
/// bindings wrote it before they shared `OptionError`, and whose value keeps its parts.
@Suite struct OptionErrorTests {
    private func harness() throws -> Harness {
        let h = try Harness()
        h.run(
            #"""
            entity "Tag" { name = "string" }
            entity "Item" { title = "string", n = "int64", tags = { many = "Tag" } }
            Item:new{ title = "a", n = 1 }
            save()
            """#)
        return h
    }

    /// Each call's message as a script catching it sees it, position and all.
    @Test func messagesThroughPcallAreTheSentencesTheyWere() throws {
        let h = try harness()
        let cases: [(code: String, message: String)] = [
            (#"fetch{ "Item", batch = -1 }"#, "t:1: fetch: batch must be 0 or more, got -1"),
            (#"fetch{ "Item", sort = 42 }"#, "t:1: fetch: sort must be a key, or a table of keys"),
            // A key path a sort or a section cannot take is named by that option, not as a predicate's.
            // A to-many's count is computed in properties, which the message shows how to write.
            (
                #"fetch{ "Item", sort = "-tags.@count" }"#,
                #"t:1: sort: 'tags.@count' is computed over a to-many, not an attribute, so sort does not take it; compute it in properties (fetch{ "Item", properties = { "title", "tags.@count AS n" }, sort = "-n" }) or in a grouped fetch"#
            ),
            (
                #"fetch{ "Item", section = "tags.@count" }"#,
                #"t:1: section: 'tags.@count' is computed over a to-many, not an attribute, so section does not take it; compute it in properties (fetch{ "Item", properties = { "title", "tags.@count AS n" }, sort = "-n" }) or in a grouped fetch"#
            ),
            // A text's length likewise, which a predicate takes: it was "does not name an attribute" (trial 22).
            (
                #"fetch{ "Item", sort = "-title.length" }"#,
                #"t:1: sort: 'title.length' is computed from an attribute, not an attribute, so sort does not take it; compute it in properties (fetch{ "Item", properties = { "title", "title.length AS n" }, sort = "-n" })"#
            ),
            (#"fetch{ "Item", result = "dictionaries", properties = { "title", 5 } }"#, "t:1: fetch: properties[2] must be a string"),
            (#"fetch{ "Item", predicate = "title == %@", args = { function() end } }"#, "t:1: fetch: args[1] must be a value or a list of values"),
            (
                #"fetch{ "Item", sort = { { "title", compare = "weird" } } }"#,
                #"t:1: sort: compare must be "binary", "caseInsensitive", "localized" or "localizedStandard", got 'weird'"#
            ),
            (#"local r = fetch("Item"); r:configure{ limit = 1.5 }"#, "t:1: r:configure: limit must be an integer or false"),
            (#"local r = fetch("Item"); r.args = { function() end }"#, "t:1: r.args[1] must be a value or a list of values"),
            (#"save{ merge = "bogus" }"#, #"t:1: save: merge must be "store" or "mine", got 'bogus'"#),
            ("save{ author = 42 }", "t:1: save: author must be a string, got number"),
            (#"summarize(Item, { exact = "yes" })"#, "t:1: summarize: exact must be true or false, got string"),
            (
                #"entity "R2" { owner = { one = "Tag", delete = "explode" } }"#,
                "t:1: entity R2: 'owner': delete must be nullify, cascade, deny or noaction, got 'explode'"
            ),
            (#"Item:new{ title = "b", tags = { 1 } }"#, "t:1: Item.tags[1] must be a Tag object, got number"),
            (#"histogram(Item, "n", { bins = 0 })"#, "t:1: histogram: bins must be from 1 to 1000, got 0")
        ]
        for (code, message) in cases {
            let caught = h.string("select(2, pcall(load(\(luaQuoted(code)), \"=t\")))")
            #expect(caught == message, "\(code)")
        }
    }

    /// What a failure keeps is the option's parts, not only their sentence.
    @Test func theThrownValueCarriesOptionExpectedAndGiven() throws {
        let h = try harness()
        let batch = try #require(h.runtime.run(#"fetch{ "Item", batch = -1 }"#, chunkName: "=t"))
        #expect(batch.message == "t:1: fetch: batch must be 0 or more, got -1")
        #expect(batch.error as? OptionError == OptionError("batch", mustBe: "0 or more", got: "-1", operation: "fetch"))

        let merge = try #require(h.runtime.run(#"save{ merge = "bogus" }"#, chunkName: "=t"))
        let mergeError = try #require(merge.error as? OptionError)
        #expect(mergeError.option == "merge" && mergeError.expected == #""store" or "mine""# && mergeError.given == "'bogus'")
        #expect(mergeError.operation == "save")

        // No value given: the sentence ends at what it must be.
        let section = try #require(h.runtime.run(#"fetch{ "Item", section = 5 }"#, chunkName: "=t"))
        #expect(section.message == "t:1: fetch: section must be a key path string")
        let sectionError = try #require(section.error as? OptionError)
        #expect(sectionError.option == "section" && sectionError.expected == "a key path string" && sectionError.given == nil)

        // An option of an attribute names the attribute in front.
        let delete = try #require(h.runtime.run(#"entity "R2" { owner = { one = "Tag", delete = "explode" } }"#, chunkName: "=t"))
        let deleteError = try #require(delete.error as? OptionError)
        #expect(deleteError.owner == "'owner'" && deleteError.option == "delete" && deleteError.given == "'explode'")
        #expect(deleteError.operation == "entity R2")

        // A fetch request's own check (QuarryFetch) throws the same shape.
        let bins = try #require(h.runtime.run(#"histogram(Item, "n", { bins = 5000 })"#, chunkName: "=t"))
        #expect(bins.message == "t:1: histogram: bins must be from 1 to 1000, got 5000")
        #expect(bins.error as? OptionError == OptionError("bins", mustBe: "from 1 to 1000", got: "5000", operation: "histogram"))
    }

    /// The renderer adds the suggestion and the remedy around the sentence, as for any error.
    @Test func suggestionAndRemedyFollowTheSentence() {
        let error = OptionError(
            "'zip'", mustBe: "a type name", got: "'strng'", in: "types", operation: "import",
            suggestion: "string", remedy: "types: string, int64")
        #expect(error.description == "import: types: 'zip' must be a type name, got 'strng' (did you mean 'string'?); types: string, int64")
    }

    private func luaQuoted(_ code: String) -> String {
        "\"" + code.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

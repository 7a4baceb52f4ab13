import QuarryTestSupport
import Testing

/// `r.predicate = "name CONTAINS %@"` re-runs the request at once, before `r.args = {...}`
/// can follow (a trial, issue 80): the refusal says how to give both at once.
@Suite struct ReconfigureArgumentsTests {
    @Test func aPredicateAssignedWithoutItsArgumentsSaysHowToGiveThem() throws {
        let h = try Harness()
        h.run(
            """
            entity "Item" { name = "string" }
            Item:new{ name = "oak" } Item:new{ name = "elm" } save()
            r = Item:fetch()
            """)
        let text = h.error(#"r.predicate = "name CONTAINS %@""#)
        #expect(
            text.hasSuffix(
                "%@ has no argument (0 given) at column 15; give its arguments with it: r.predicate = { format, args... }, or r:configure{ predicate = ..., args = { ... } }"
            ), "\(text)")
        #expect(!text.contains("\n"), "\(text)")
        // What it says works, and the request was left as it was by the refusal.
        #expect(h.string("#r") == "2")
        h.run(#"r.predicate = { "name CONTAINS %@", "z" }"#)
        #expect(h.string("#r") == "0")
        h.run(#"r:configure{ predicate = "name CONTAINS %@", args = { "o" } }"#)
        #expect(h.string("#r") == "1")
    }
}

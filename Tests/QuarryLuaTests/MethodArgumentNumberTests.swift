import Foundation
import Testing

/// A method called with `:` numbers its arguments as Lua's own do, from the first after the
/// colon (`("x"):rep()` is `bad argument #1 to 'rep'`), not counting `self` (issue 80).
@Suite struct MethodArgumentNumberTests {
    @Test func argumentsAfterTheColonCountFromOne() throws {
        let h = try Harness()
        h.run(#"entity "Item" { title = "string", n = "int64" }; Item:new{ title = "a", n = 1 }; save()"#)
        // Lua's own numbering, for comparison.
        #expect(h.error(#"("x"):rep()"#).contains("bad argument #1 to 'rep'"))
        // The values table is the third argument after the colon.
        let update = h.error(#"Item:updateall("n == 1", {}, 5)"#)
        #expect(update.contains("bad argument #3 to 'updateall' (table expected, got number)"), "\(update)")
        #expect(h.error("Item:get(1.5)").contains("bad argument #1 to 'get'"))
        #expect(h.error("predicate('n > 0'):matches(42)").contains("bad argument #1 to 'matches'"))
        // Called with a dot, self is the first argument, as Lua counts it.
        #expect(h.error("Item.get(Item, 1.5)").contains("bad argument #2 to 'get'"))
        #expect(h.error("Item.get(1.5)").contains("calling 'get' on bad self"))
    }
}

import QuarryPredicates
import Testing

@testable import QuarryLua

/// A predicate error a script catches and raises again with `error(e)` (Lua adds the
/// position of that call) is still that error, so the REPL shows its caret.
@Suite struct ReraisedErrorTests {
    @Test func anErrorRaisedAgainWithItsPositionKeepsItsValue() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64" }"#)
        let again = try #require(h.runtime.run("local ok, e = pcall(fetch, \"Item\", \"n ==\")\nerror(e)", chunkName: "=t"))
        #expect(again.message == "t:2: t:1: predicate: expected a key path or a value, found the end of the predicate at column 5")
        let error = try #require(again.error as? PredicateTextError)
        #expect(error.format == "n ==" && error.error.column == 5)
    }

    @Test func anErrorWrappedInOtherTextHasNoValue() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64" }"#)
        let wrapped = try #require(h.runtime.run(#"local ok, e = pcall(fetch, "Item", "n ==") error(e .. " (while loading)")"#, chunkName: "=t"))
        #expect(wrapped.error == nil)
    }
}

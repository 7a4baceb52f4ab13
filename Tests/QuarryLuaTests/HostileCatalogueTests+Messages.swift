import Foundation
import QuarryLua
import QuarryPredicates
import QuarryShell
import QuarryStore
import Testing

/// The second hostile review's findings that fit the catalogue's rows: messages that gave
/// two positions, none, or SQLite's words instead of Quarry's.
extension HostileCase {
    static let roundTwo: [HostileCase] = [
        HostileCase(
            name: "round two: an error through coroutine.wrap names its position once",
            code: #"coroutine.wrap(function() fetch("Nope") end)()"#,
            expected: ["unknown entity 'Nope'"], absent: ["t:1: t:1:"]),
        HostileCase(
            name: "round two: error() through coroutine.wrap names its position once",
            code: #"coroutine.wrap(function() error("plain") end)()"#,
            expected: ["t:1: plain"], absent: ["t:1: t:1:"]),
        HostileCase(
            name: "round two: a NUL byte in an entity name",
            code: #"entity "A\0B" { n = "int64" }"#,
            expected: ["holds a NUL byte"], pending: false, absent: ["unrecognized token"]),
        HostileCase(
            name: "round two: a NUL byte in an attribute name",
            code: #"entity "A" { ["n\0x"] = "int64" }"#,
            expected: ["holds a NUL byte"], pending: false, absent: ["unrecognized token"]),
        HostileCase(
            name: "round two: a NUL byte in a relationship name",
            code: #"entity "Person" { name = "string", ["it\0ems"] = { many = "Item", inverse = "owner" } }"#,
            expected: ["holds a NUL byte"], pending: false, absent: ["unrecognized token"]),
        HostileCase(
            name: "round two: a NUL byte in a JSON string value says so",
            code: #"import("$DIR/n.json", { entity = "N" })"#,
            expected: ["element 1: 's' expects string, got string with a NUL byte"],
            files: ["n.json": Array(#"[{"s": "a\u0000b"}]"#.utf8)])
    ]
}

@Suite struct HostileMemoryAndClosedStoreTests {
    /// Past --memory, the error says where the script was, not only "not enough memory".
    @Test func runningOutOfMemoryNamesThePosition() throws {
        let h = try Harness(memoryLimit: 2 << 20)
        let message = h.error("local t = {}\nfor i = 1, 1e7 do t[i] = i end")
        #expect(message.hasPrefix("t:2: not enough memory"), "\(message)")
        #expect(message.contains("--memory limit (2 MB)"), "\(message)")
        // Caught by pcall like any memory error, and the state goes on working.
        h.run("local ok = pcall(function() local t = {} for i = 1, 1e7 do t[i] = i end end); assert(not ok)")
        #expect(h.string("1 + 1") == "2")
        // A library call that asks for too much at once is refused too, and says why.
        let inside = h.error("local s = string.rep('x', 1e8)")
        #expect(inside.contains("not enough memory") && inside.contains("--memory limit (2 MB)"), "\(inside)")
    }

    /// Garbage alone passing the limit is collected, not an error.
    @Test func garbageOverTheLimitIsCollected() throws {
        let h = try Harness(memoryLimit: 4 << 20)
        h.run("for i = 1, 3000 do local x = string.rep('y', 10000) .. i end")
    }

    /// After `.open` (the runtime given another context), an object of the closed store is
    /// refused as a predicate argument instead of matching the row with its key there.
    @Test func anObjectOfAClosedStoreIsRefusedInPredicates() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64" }; Item:new{ n = 1 }; save(); old = Item:first()"#)
        let other = try StoreOpener.open(nil)
        h.runtime.use(other)
        h.run(#"entity "Item" { n = "int64" }; Item:new{ n = 7 }; save()"#)
        let message = h.error(#"return count("Item", "SELF == %@", old)"#)
        #expect(message.contains("comes from another store"), "\(message)")
        #expect(message.contains("at column 9"), "\(message)")
        let listed = h.error(#"return count("Item", "SELF IN %@", { old })"#)
        #expect(listed.contains("comes from another store"), "\(listed)")
        // This store's own objects still work.
        #expect(h.string(#"count("Item", "SELF == %@", Item:first())"#) == "1")
    }
}

import Foundation
import Testing

/// What a new user read wrong in a trial: a diff row shown alone put `new` before `old`.
@Suite struct NewUserReadingTests {
    private func sqlite3(_ sandbox: Sandbox, _ file: String, _ sql: String) async throws -> String {
        let result = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(file), sql])
        try #require(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// A diff row reads old before new wherever it is shown: its table, `.mode line`, and
    /// one row alone at the prompt (whose keys were sorted by name: `new` first).
    @Test func aDiffRowReadsOldBeforeNewAlsoWhenShownAlone() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "a.db", "-e", #"entity "Item" { name = "string", price = "double" }; Item:new{ name = "pen", price = 1 }; save()"#
        ])
        try #require(made.status == 0, "\(made)")
        try FileManager.default.copyItem(atPath: sandbox.path("a.db"), toPath: sandbox.path("b.db"))
        let changed = try await sandbox.quarry(["b.db", "-e", #"Item:get(1).price = 9; Item:new{ name = "mug", price = 4 }; save()"#])
        try #require(changed.status == 0, "\(changed)")
        let repl = try await TmuxSession(sandbox, arguments: ["a.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"d = diff(open("b.db"))"#)
        #expect(try await repl.enter("=d[1]") == [#"{change = "~", entity = "Item", key = 1, property = "price", old = 1.0, new = 9.0}"#])
        #expect(try await repl.enter("=d[2]") == [#"{change = "+", entity = "Item", key = 2, new = "name = \"mug\", price = 4.0"}"#])
        // The table as ever: old, then new.
        let header = try await repl.enter("=d").first ?? ""
        let old = header.range(of: "| old")?.lowerBound
        let new = header.range(of: "| new")?.lowerBound
        #expect(old.flatMap { o in new.map { o < $0 } } == true, "\(header)")
        // Other tables keep their keys by name.
        #expect(try await repl.enter(#"={ new = 2, old = 1 }"#) == ["{new = 2, old = 1}"])
    }
}

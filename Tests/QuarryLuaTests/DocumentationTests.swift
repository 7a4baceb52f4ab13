import Foundation
import QuarryLua
import Testing

/// docs/lua-api.md is generated from the same table `help(fn)` prints, and every example
/// in it runs.
@Suite struct DocumentationTests {
    private var docsPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/lua-api.md").path
    }

    @Test func theReferenceFileMatchesTheHelpTable() throws {
        if ProcessInfo.processInfo.environment["QUARRY_WRITE_DOCS"] == "1" {
            try FunctionHelp.markdown.write(toFile: docsPath, atomically: true, encoding: .utf8)
        }
        let file = try String(contentsOfFile: docsPath, encoding: .utf8)
        #expect(file == FunctionHelp.markdown, "docs/lua-api.md is stale: run the tests with QUARRY_WRITE_DOCS=1")
    }

    /// Examples that need what the test's store has not: a model file, a Core Data store.
    /// Each must fail for that reason alone (so it still parses and names its function
    /// rightly).
    static let needingMore: [String: String] = [
        "model": "App.xcdatamodeld",
        // Positions are kept only by a Core Data store's ordered relationships.
        "set:insert": "is not ordered", "set:move": "is not ordered"
    ]

    private func itemStore() throws -> Harness {
        let h = try Harness()
        // As at the prompt: help returns its text and prints nothing itself.
        h.runtime.settings.atPrompt = true
        h.run(#"entity "Item" { title = "string", n = "int64", when = "date?" }; for i = 1, 3 do Item:new{ title = "t" .. i, n = i } end; save()"#)
        return h
    }

    @Test(arguments: FunctionHelp.all.map(\.name))
    func everyExampleRuns(_ name: String) throws {
        let h = try itemStore()
        let example = FunctionHelp.named(name)!.example
        if let reason = Self.needingMore[name] {
            #expect(h.error(example).contains(reason), "\(name): \(example)")
        } else {
            h.run(example)
        }
        // By value, through `quarry`, which holds every function (show and repr only there).
        #expect(h.string("help(quarry.\(name))")?.hasPrefix(FunctionHelp.named(name)!.usage) == true)
    }

    @Test(arguments: FunctionHelp.methods.indices)
    func everyMethodsExampleRuns(_ index: Int) throws {
        let h = try itemStore()
        let method = FunctionHelp.methods[index]
        if let reason = Self.needingMore["\(method.kind ?? ""):\(method.name)"] {
            #expect(h.error(method.example).contains(reason), "\(method.name): \(method.example)")
        } else {
            h.run(method.example)
        }
        #expect(h.string(#"help("\#(method.kind ?? ""):\#(method.name)")"#)?.contains(method.usage) == true, "\(method.name)")
    }
}

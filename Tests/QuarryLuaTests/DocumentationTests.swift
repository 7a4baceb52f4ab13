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

    @Test(arguments: FunctionHelp.all.map(\.name))
    func everyExampleRuns(_ name: String) throws {
        let h = try Harness()
        h.run(#"entity "Item" { title = "string", n = "int64", when = "date?" }; for i = 1, 3 do Item:new{ title = "t" .. i, n = i } end; save()"#)
        h.run(FunctionHelp.named(name)!.example)
        #expect(h.string("help(\(name))")?.hasPrefix(FunctionHelp.named(name)!.usage) == true)
    }
}

import Foundation
import QuarryLua
import QuarryShell
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

    /// Files examples name as a person types them (in the current directory), each given a
    /// path in a folder of the test's own: the text the file holds before, or nil for one
    /// the example writes (which must exist after, with something in it).
    static let files: [String: [String: String?]] = [
        "import": ["people.csv": "name,age\nAda,36\nNA,NA\n"],
        "export": ["items.csv": nil]
    ]

    /// `example` with the files it names moved to a fresh folder, and the paths written.
    private func placingFiles(of name: String, in example: String) throws -> (code: String, written: [String]) {
        guard let files = Self.files[name] else { return (example, []) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var code = example
        var written: [String] = []
        for (file, text) in files {
            let path = folder.appendingPathComponent(file).path
            #expect(code.contains("\"\(file)\""), "\(name)'s example no longer names \(file)")
            code = code.replacingOccurrences(of: "\"\(file)\"", with: "\"\(path)\"")
            if let text { try text.write(toFile: path, atomically: true, encoding: .utf8) } else { written.append(path) }
        }
        return (code, written)
    }

    private func itemStore() throws -> Harness {
        let h = try Harness(console: ConsoleAndFailureTests.RecordingConsole())
        // open() as the shell's session opens another store (the examples open in memory).
        h.runtime.settings.openStore = { opening in
            (try StoreOpener.open(opening.location == ":memory:" ? nil : opening.location, readOnly: opening.readOnly), opening.location)
        }
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
            let placed = try placingFiles(of: name, in: example)
            h.run(placed.code)
            for path in placed.written {
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                #expect(size > 0, "\(name)'s example wrote nothing to \(path)")
            }
        }
        // By value, through `quarry`, which holds every function (show and repr only there).
        #expect(h.help("quarry.\(name)")?.hasPrefix(FunctionHelp.named(name)!.usage) == true)
    }

    /// Every key of fetch{} has an entry whose example runs, and help("key") prints it
    /// (after a function's or method's of the same name: predicate, section).
    @Test(arguments: FunctionHelp.options.indices)
    func everyFetchKeysExampleRuns(_ index: Int) throws {
        let h = try itemStore()
        let option = FunctionHelp.options[index]
        if option.name == "template" {
            // The test's store carries no template: refused by the name it was given.
            #expect(h.error(option.example).contains("recent"), "\(option.example)")
        } else {
            h.run(option.example)
        }
        #expect(option.example.contains(option.name), "\(option.name)'s example uses it")
        let text = try #require(h.help(#""\#(option.name)""#), "\(option.name) has help")
        #expect(text.contains(option.usage) && text.contains("help(fetch)"), "\(option.name): \(text)")
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
        #expect(h.help(#""\#(method.kind ?? ""):\#(method.name)""#)?.contains(method.usage) == true, "\(method.name)")
    }
}

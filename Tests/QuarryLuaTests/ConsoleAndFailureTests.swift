import Foundation
import QuarryLua
import QuarryModel
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarrySwiftInput
import Testing

/// The runtime writes through the console it is handed (no terminal code of its own), and
/// a failure keeps the value a Swift function threw, so the REPL reads a predicate's
/// column from it rather than from the message.
@Suite struct ConsoleAndFailureTests {
    /// A console that records what the runtime asks of it.
    final class RecordingConsole: Console {
        var written: [String] = []
        var notes: [String] = []
        var progressLines: [String?] = []
        let showsProgress: Bool
        init(showsProgress: Bool = false) { self.showsProgress = showsProgress }

        func write(_ text: String) { written.append(text) }
        func note(_ text: String) { notes.append(text) }
        func progress(_ line: String?) { progressLines.append(line) }
        func page(_ text: String) -> Bool { false }
        var isTerminal: Bool { false }
        var size: ConsoleSize { ConsoleSize(columns: 80, rows: 24) }
        func makeScreen() -> any ConsoleScreen { Screen(console: self) }
        func readingKeys<T>(_ body: () throws -> T) rethrows -> T { try body() }
        func readKey(waiting milliseconds: Int32) -> ConsoleKey? { nil }
        func plain(_ text: String) -> String { text }

        final class Screen: ConsoleScreen {
            let console: RecordingConsole
            init(console: RecordingConsole) { self.console = console }
            func show(_ text: String) { console.write(text + "\n") }
            func clear() {}
        }
    }

    @Test func watchNoticesAndProgressGoThroughTheConsole() throws {
        let console = RecordingConsole(showsProgress: true)
        let runtime = try QuarryRuntime(context: try StoreOpener.open(nil), console: console, swiftReader: InProcessSwiftReader())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = "name,n\n" + (1...3).map { "x\($0),\($0)" }.joined(separator: "\n") + "\n"
        try csv.write(to: folder.appendingPathComponent("rows.csv"), atomically: true, encoding: .utf8)
        let failure = runtime.run(
            """
            assert(import("\(folder.path)/rows.csv", { entity = "Row" }) == 3)
            watch(fetch("Row"))
            local r = fetch{ "Row", section = "name" }
            """)
        #expect(failure == nil, "\(failure?.message ?? "")")
        // Not a terminal: the watch shows its table once, written through the console.
        #expect(console.written.count == 1 && console.written[0].contains("(3 objects)"), "\(console.written)")
        #expect(console.notes == ["note: sorting by 'name' first, so that sections do not repeat"], "\(console.notes)")
        // Progress, when shown, ends cleared.
        if let last = console.progressLines.last { #expect(last == nil) }
    }

    @Test func aFailureKeepsThePredicateErrorItWas() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64" }"#)
        let failure = try #require(h.runtime.run(#"fetch("Item", "n ==")"#, chunkName: "=t"))
        #expect(failure.message == "t:1: predicate: expected a key path or a value, found the end of the predicate at column 5")
        let error = try #require(failure.error as? PredicateTextError)
        #expect(error.format == "n ==" && error.error.column == 5)
        #expect(error.pointer == PredicateError.pointer(to: 5, in: "n =="))
        // Raised again as it is, by the script: still that error.
        let again = try #require(h.runtime.run(#"local ok, e = pcall(fetch, "Item", "n ==") error(e, 0)"#, chunkName: "=t"))
        #expect(again.error is PredicateTextError)
    }

    @Test func anotherErrorAfterACaughtOneHasNoValue() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64" }"#)
        let failure = try #require(h.runtime.run(#"pcall(fetch, "Item", "n ==") error("something else")"#, chunkName: "=t"))
        #expect(failure.message == "t:1: something else")
        #expect(failure.error == nil)
        // A store error is kept as the store's value.
        let store = try #require(h.runtime.run(#"fetch("Nope")"#, chunkName: "=t"))
        #expect(store.error is StoreError, "\(String(describing: store.error))")
    }
}

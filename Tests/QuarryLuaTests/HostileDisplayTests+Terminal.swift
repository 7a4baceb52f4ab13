import Foundation
import QuarryLua
import QuarryPredicates
import QuarryShell
import QuarryStore
import Testing

extension HostileDisplayTests {
    /// Results, objects, sections, summarize() rows and sql() headers and cells print
    /// with their control characters escaped (no clear screen, title or clipboard
    /// escape reaches the terminal); CSV output keeps the bytes.
    @Test func printedTablesAndObjectsEscapeControlCharacters() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "T" { s = "string" }
            T:new{ s = "a\27]52;c;cHduZWQ=\7b\27[2J\27]0;title\7" }
            save()
            """#)
        // Rows print as the REPL shows them (quarry.show, to a file as `.once` sends it);
        // the end-to-end test drives print() itself.
        func shown(_ expression: String) throws -> String {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-round-four-\(UUID().uuidString).txt").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            h.run("quarry.__once = '\(path)'; quarry.show(\(expression))")
            return try String(contentsOfFile: path, encoding: .utf8)
        }
        for expression in [
            #"fetch("T")"#, "T:first()", #"fetch{ "T", section = "s" }"#, #"fetch{ "T", section = "s" }[1]"#,
            #"summarize("T")"#, #"sql("SELECT s AS \"h\27[2J\", s FROM T")"#
        ] {
            for text in [h.string(expression) ?? "", try shown(expression)] {
                #expect(!text.unicodeScalars.contains("\u{1B}") && !text.unicodeScalars.contains("\u{07}"), "\(expression): \(text)")
                #expect(text.contains(#"\27]52;c;cHduZWQ=\7b\27[2J"#) || text.hasPrefix("table: "), "\(expression): \(text)")
            }
        }
        #expect(try shown(#"sql("SELECT s AS \"h\27[2J\" FROM T")"#).contains(#"h\27[2J"#))
        h.runtime.settings.format.mode = .csv
        #expect(try shown(#"sql("SELECT s FROM T")"#).unicodeScalars.contains("\u{1B}"))
    }

    /// Names from a file (a table and a column holding escape sequences) print escaped
    /// in results' headers, objects, entities and explain()'s SQL and plan.
    @Test func namesFromAFileAreEscapedWhereverTheyPrint() throws {
        let path = try foreignFile(
            """
            CREATE TABLE "t\u{1B}[2J" (id INTEGER PRIMARY KEY, "c\u{1B}]0;x\u{07}" TEXT);
            INSERT INTO "t\u{1B}[2J" VALUES (1, 'v');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("e = entities()[1]; r = fetch(e.name)")
        for expression in ["e", "r", "r[1]", "explain(r)"] {
            let text = h.string(expression) ?? ""
            #expect(!text.unicodeScalars.contains("\u{1B}") && !text.unicodeScalars.contains("\u{07}"), "\(expression): \(text)")
            #expect(text.contains(#"t\27[2J"#), "\(expression): \(text)")
        }
        #expect(h.string("explain(r)")?.contains("\nplan:") == true, "explain keeps its lines")
    }
}

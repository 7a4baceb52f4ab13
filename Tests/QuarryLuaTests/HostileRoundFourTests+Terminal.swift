import Foundation
import QuarryLua
import QuarryStore
import Testing

extension HostileRoundFourTests {
    /// Results, objects, sections, summarize() rows and sql() headers and cells print
    /// with their control characters escaped (no clear screen, title or clipboard
    /// escape reaches the terminal); CSV output keeps the bytes.
    @Test func printedTablesAndObjectsEscapeControlCharacters() throws {
        let h = try Harness()
        h.run(#"""
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
        for expression in [#"fetch("T")"#, "T:first()", #"fetch{ "T", section = "s" }"#, #"fetch{ "T", section = "s" }[1]"#,
                           #"summarize("T")"#, #"sql("SELECT s AS \"h\27[2J\", s FROM T")"#] {
            for text in [h.string(expression) ?? "", try shown(expression)] {
                #expect(!text.unicodeScalars.contains("\u{1B}") && !text.unicodeScalars.contains("\u{07}"), "\(expression): \(text)")
                #expect(text.contains(#"\27]52;c;cHduZWQ=\7b\27[2J"#) || text.hasPrefix("table: "), "\(expression): \(text)")
            }
        }
        #expect(try shown(#"sql("SELECT s AS \"h\27[2J\" FROM T")"#).contains(#"h\27[2J"#))
        h.runtime.settings.format.mode = .csv
        #expect(try shown(#"sql("SELECT s FROM T")"#).unicodeScalars.contains("\u{1B}"))
    }
}

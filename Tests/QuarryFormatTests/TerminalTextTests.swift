import Foundation
import QuarryFormat
import QuarryStore
import Testing

/// Issue 48: text from files drawn for a terminal has its control characters escaped
/// (clear screen, window title, OSC 52 clipboard); CSV and JSON keep the bytes.
@Suite struct TerminalTextTests {
    /// Cells, headers, section titles and every aligned mode escape control characters;
    /// CSV and JSON write the bytes as they are.
    @Test func controlCharactersAreEscapedForTheTerminalOnly() {
        let hostile = "a\u{1B}]52;c;cHduZWQ=\u{07}b\u{1B}[2J\r\nc\u{9B}d"
        let table = TextTable(headers: ["h\u{1B}[2J"], values: [[.text(hostile)]])
        var format = TableFormat()
        for mode in [OutputMode.table, .box, .markdown, .line] {
            format.mode = mode
            let text = table.render(format, maxWidth: 200)
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, "\(mode): \(text)")
            #expect(text.contains(#"a\27]52;c;cHduZWQ=\7b\27[2J\r\nc\u{9b}d"#) && text.contains(#"h\27[2J"#), "\(mode): \(text)")
        }
        #expect(table.render(mode: .csv).contains(hostile))
        #expect(table.render(mode: .json).contains("\\u001b]52"))
        let record = TextTable.record(headers: ["id", "s"], values: [.text("T/1"), .text(hostile)], format: TableFormat())
        #expect(!record.unicodeScalars.contains("\u{1B}") && !record.unicodeScalars.contains("\u{07}"), "\(record)")
    }
}

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

    /// Wide characters (Han, kana, Hangul, fullwidth forms, emoji) take two columns of a
    /// terminal: a table pads and cuts by columns, so rows of Chinese folder titles line up
    /// with Latin ones (they took one each, and the rows were misaligned).
    @Test func wideCharactersTakeTwoColumns() {
        /// Columns as a terminal draws them, counted here without the code under test.
        func columns(_ line: Substring) -> Int {
            line.unicodeScalars.reduce(0) { sum, s in
                let v = s.value
                let wide =
                    (0x4E00...0x9FFF).contains(v) || (0x3041...0x30FF).contains(v) || (0xAC00...0xD7A3).contains(v)
                    || (0xFF01...0xFF60).contains(v) || (0x1F300...0x1F64F).contains(v)
                return sum + (wide ? 2 : 1)
            }
        }
        let table = TextTable(
            headers: ["title", "n"],
            values: [[.text("数据结构"), .integer(1)], [.text("Notes"), .integer(22)], [.text("カタカナ한글"), .integer(3)], [.text("ｆｕｌｌ🙂"), .integer(4)]])
        var format = TableFormat()
        for mode in [OutputMode.table, .box] {
            format.mode = mode
            let lines = table.render(format, maxWidth: 200).split(separator: "\n").filter { !$0.hasPrefix("(") }
            // Every row ends its first column at one terminal column: where the separator is.
            let bar = mode == .box ? "│" : "|"
            let ends = Set(
                lines.compactMap { line in line.range(of: " \(bar) ", options: mode == .box ? .backwards : []).map { columns(line[..<$0.lowerBound]) }
                })
            #expect(ends.count == 1, "\(mode):\n\(lines.joined(separator: "\n"))")
        }
        // Cut to a width, a wide character is never split, and the cell fits the column.
        let cut = TextTable(headers: ["t"], values: [[.text(String(repeating: "数", count: 30))], [.text("x")]]).render(TableFormat(), maxWidth: 9)
        let widths = Set(cut.split(separator: "\n").map { columns($0) })
        #expect(cut.contains("数数数数…") && widths.max() ?? 0 <= 9, "\(cut)")
    }
}

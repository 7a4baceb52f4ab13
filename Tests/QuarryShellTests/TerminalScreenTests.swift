import Foundation
import Testing

@testable import QuarryShell

/// How a watch counts the rows of what it drew, which it goes back up by to draw again
/// (issue 63 item 6: a redraw left the top of the previous table on the screen).
@Suite struct TerminalScreenTests {
    @Test func rowsAreCountedAsTheTerminalDrawsThem() {
        // Colours take no cells: a bold header as wide as the terminal is one row.
        #expect(TerminalColumns.rows(of: "\u{1B}[1m" + String(repeating: "a", count: 10) + "\u{1B}[0m", columns: 10) == 1)
        // Wide characters take two: twenty CJK characters are four rows of ten cells.
        #expect(TerminalColumns.rows(of: String(repeating: "漢", count: 20), columns: 10) == 4)
        #expect(TerminalColumns.width(of: "T/1 | 🙂 | é") == 12)
        // A line exactly as wide as the terminal is one row; an empty line is one.
        #expect(TerminalColumns.rows(of: "0123456789\n\nx", columns: 10) == 3)
    }

    /// A drawing taller than the terminal is cut, with a line saying how much is not
    /// shown: the cursor cannot go back up past the top of the screen.
    @Test func aDrawingTallerThanTheTerminalIsCut() {
        let text = (1...30).map { "line \($0)" }.joined(separator: "\n")
        let fitted = TerminalScreen.fitted(text, columns: 80, rows: 10)
        let lines = fitted.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 9 && lines[0] == "line 1" && lines[7] == "line 8", "\(lines)")
        #expect(lines.last == "… 22 more lines: the terminal is too short to show them", "\(lines)")
        #expect(TerminalScreen.fitted("a\nb", columns: 80, rows: 10) == "a\nb")
    }
}

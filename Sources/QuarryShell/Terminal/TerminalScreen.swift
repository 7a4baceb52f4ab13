import Foundation
import QuarryLua

/// What a watch has on the screen, redrawn in place: the cursor goes back up by the rows
/// the previous drawing took, and everything below is cleared.
final class TerminalScreen: ConsoleScreen {
    private let console: TerminalConsole
    private var shown = ""

    init(console: TerminalConsole) {
        self.console = console
    }

    /// `text` over the previous drawing; nothing is written when it is the same.
    func show(_ text: String) {
        let size = console.size
        let text = Self.fitted(text, columns: size.columns, rows: size.rows)
        guard text != shown else { return }
        console.write(back(size) + text + "\n")
        shown = text
    }

    /// The drawing taken off the screen, the cursor where it started: what is written
    /// next (an observer's print, a note) stays above the next drawing. Written below
    /// the drawing instead, it moved the cursor, so that the next one went back up too
    /// few rows and drew itself under the top of the previous one.
    func clear() {
        console.write(back(console.size))
        shown = ""
    }

    /// Back to the first row of what is shown, and the rest of the screen cleared. The
    /// rows are counted at the terminal's width now: a terminal narrowed since has
    /// wrapped the lines again (as tmux and most terminals do).
    private func back(_ size: ConsoleSize) -> String {
        guard !shown.isEmpty else { return "" }
        let rows = TerminalColumns.rows(of: shown, columns: size.columns)
        return "\u{1B}[\(rows)A\r\u{1B}[J"
    }

    /// `text` cut to the terminal's height, less the row the cursor rests on: the cursor
    /// cannot go back up past the top of the screen, so a taller drawing was redrawn
    /// under what had scrolled away of it.
    static func fitted(_ text: String, columns: Int, rows height: Int) -> String {
        let room = max(2, height - 1)
        guard TerminalColumns.rows(of: text, columns: columns) > room else { return text }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let total = lines.count
        var rows = lines.reduce(0) { $0 + TerminalColumns.rows(ofLine: $1, columns: columns) }
        // One row is kept for the line that says how much is not shown.
        while rows > room - 1, lines.count > 1 {
            rows -= TerminalColumns.rows(ofLine: lines.removeLast(), columns: columns)
        }
        let hidden = total - lines.count
        let note = "… \(hidden) more \(hidden == 1 ? "line" : "lines"): the terminal is too short to show them"
        return lines.joined(separator: "\n") + "\n" + String(note.prefix(max(1, columns)))
    }
}

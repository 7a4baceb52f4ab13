import Foundation
import QuarryLua

/// What a watch has on the screen, redrawn in place.
final class TerminalScreen: ConsoleScreen {
    private let console: TerminalConsole
    private var lines = 0
    private var shown = ""

    init(console: TerminalConsole) {
        self.console = console
    }

    /// `text` over the previous drawing; nothing is written when it is the same.
    func show(_ text: String) {
        guard text != shown else { return }
        // Back to the table's first line and clear below it, then the new table. A line
        // wider than the terminal (resized since) took several rows of it.
        let back = lines > 0 ? "\u{1B}[\(lines)A\r\u{1B}[J" : ""
        console.write(back + text + "\n")
        let width = max(1, console.size.columns)
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { $0 + max(1, ($1.count + width - 1) / width) }
        shown = text
    }
}

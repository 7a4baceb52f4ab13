import Foundation
import QuarryLua
import QuarryModel
import QuarryStore

/// The shell's console: standard output and error of a terminal when they are one.
/// Progress lines are redrawn with `\r` and cleared with an erase-line code, a watch's
/// table is drawn over itself (`TerminalScreen`) and its keys are read raw
/// (`TerminalKeys`). Where a stream is not a terminal it is written plainly.
final class TerminalConsole: Console {
    private var keys: TerminalKeys?
    /// The pager long output goes through, while the REPL runs (nil: none).
    var pager: Pager?
    /// Under `--safe` the pager runs without its commands that write files or start a shell.
    private let settings: SessionSettings

    init(settings: SessionSettings) {
        self.settings = settings
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func note(_ text: String) {
        // After what Lua has written so far, not ahead of it.
        fflush(nil)
        FileHandle.standardError.write(Data((ErrorRendering.escaped(text) + "\n").utf8))
    }

    func progress(_ line: String?) {
        // Back to the start of the line: the next line overwrites it, nil erases it.
        FileHandle.standardError.write(Data(("\r" + (line ?? "\u{1B}[K")).utf8))
    }

    func page(_ text: String) -> Bool {
        // Ctrl-C in the pager is the pager's, not an interrupt of the result it shows.
        QuarryRuntime.outsideTheStatement { pager?.show(text, secure: settings.safe) ?? false }
    }

    var showsProgress: Bool { isatty(STDERR_FILENO) != 0 }
    var isTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    var size: ConsoleSize {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return ConsoleSize(columns: 80, rows: 24) }
        return ConsoleSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    func makeScreen() -> any ConsoleScreen { TerminalScreen(console: self) }

    func readingKeys<T>(_ body: () throws -> T) rethrows -> T {
        let keys = TerminalKeys()
        let outer = self.keys
        self.keys = keys
        defer {
            keys.restore()
            self.keys = outer
        }
        return try body()
    }

    func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    func readKey(waiting milliseconds: Int32) -> ConsoleKey? {
        guard let keys else {
            usleep(useconds_t(milliseconds) * 1000)
            return nil
        }
        return keys.next(waiting: milliseconds)
    }
}

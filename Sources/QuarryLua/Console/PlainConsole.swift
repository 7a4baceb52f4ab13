import Foundation
import QuarryModel
import QuarryStore

/// A console that is no terminal: text to standard output and notes to standard error,
/// plainly; no progress line, no redrawing, no keys. A runtime made without a shell
/// (a test, an embedding) gets this one; the shell hands its terminal's.
public final class PlainConsole: Console {
    public init() {}

    public func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    public func note(_ text: String) {
        // After what Lua has written so far, not ahead of it.
        fflush(nil)
        FileHandle.standardError.write(Data((ErrorRendering.escaped(text) + "\n").utf8))
    }

    public func progress(_ line: String?) {}
    public func page(_ text: String) -> Bool { false }
    public var showsProgress: Bool { false }
    public var isTerminal: Bool { false }
    public var size: ConsoleSize { ConsoleSize(columns: 80, rows: 24) }
    public func makeScreen() -> any ConsoleScreen { PlainScreen(console: self) }
    public func readingKeys<T>(_ body: () throws -> T) rethrows -> T { try body() }

    public func readKey(waiting milliseconds: Int32) -> ConsoleKey? {
        usleep(useconds_t(milliseconds) * 1000)
        return nil
    }

    /// Nothing is coloured here (`TableFormat.colors` is the shell's, for its terminal).
    public func plain(_ text: String) -> String { text }

    /// Each new drawing below the last.
    private final class PlainScreen: ConsoleScreen {
        let console: PlainConsole
        private var shown = ""
        init(console: PlainConsole) { self.console = console }

        func show(_ text: String) {
            guard text != shown else { return }
            console.write(text + "\n")
            shown = text
        }

        /// Nothing to take off: each drawing is below what came before.
        func clear() {}
    }
}

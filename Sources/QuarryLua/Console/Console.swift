/// Where the runtime's own output goes and where a watch reads its keys, as the shell
/// provides them: the runtime says what to show, the console knows the terminal
/// (escape codes, raw mode, its size). Lua's `print` and `io.write` are Lua's own and go
/// to standard output as ever; this is for what Swift writes.
public protocol Console: AnyObject {
    /// Text for standard output, as it is.
    func write(_ text: String)
    /// A line for standard error, apart from the data on standard output (a notice, an
    /// observer's failure). It quotes user and file names, so it is escaped as errors are.
    func note(_ text: String)
    /// A status line on standard error that the next one replaces; nil clears it. Shown
    /// only when `showsProgress`.
    func progress(_ line: String?)
    /// Shows text too long for the terminal through a pager (what the REPL prints); false
    /// when it did not, and the caller prints it.
    func page(_ text: String) -> Bool
    /// Whether a long import or summary shows its progress (standard error is a terminal).
    var showsProgress: Bool { get }
    /// Whether standard output is a terminal a watch can redraw in place (else a watch
    /// prints its table once, as print would).
    var isTerminal: Bool { get }
    /// The terminal's size (a sensible default when it cannot be read).
    var size: ConsoleSize { get }
    /// A surface that shows a drawing over the one it showed before (a watch's table).
    func makeScreen() -> any ConsoleScreen
    /// Runs `body` with the keys read one at a time, without echo or waiting for Enter;
    /// the terminal is put back as it was after.
    func readingKeys<T>(_ body: () throws -> T) rethrows -> T
    /// A key pressed within `milliseconds` (inside `readingKeys`), else nil.
    func readKey(waiting milliseconds: Int32) -> ConsoleKey?
    /// `text` as a file gets it (`.once FILE`): without the colour codes that output
    /// to this terminal carries.
    func plain(_ text: String) -> String
}

/// A terminal's size in character cells.
public struct ConsoleSize: Equatable, Sendable {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// What a watch draws on: each drawing replaces the previous one.
public protocol ConsoleScreen: AnyObject {
    /// `text` over the previous drawing; nothing is written when it is the same.
    func show(_ text: String)
    /// Takes the drawing off the screen before other output (an observer's print), which
    /// then stays above the next drawing.
    func clear()
}

/// A key pressed in a watch: a plain character, or one of the keys whose escape
/// sequence is read whole (so its digits are never taken for sort keys).
public enum ConsoleKey: Equatable, Sendable {
    case character(UInt8)
    case pageUp, pageDown, home, end
    case other
}

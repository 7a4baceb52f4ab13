import Foundation

/// The terminal's height in rows when both ends are a terminal, as the pager needs them
/// (0 otherwise: output is not paged).
func terminalRows() -> Int {
    var size = winsize()
    guard isatty(STDOUT_FILENO) != 0, isatty(STDIN_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return 0 }
    return Int(size.ws_row)
}

/// The terminal's width in columns (0 when stdout is not a terminal).
func terminalWidth() -> Int {
    var size = winsize()
    guard isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return 0 }
    return Int(size.ws_col)
}

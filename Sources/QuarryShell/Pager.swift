import Foundation

/// Long output in the REPL goes through a pager, as psql and git do: when stdout is a
/// terminal and the text has more lines than the terminal, it is piped to `$PAGER`
/// (`QUARRY_PAGER` first; an empty value means none), else to `less`. Like git, `LESS`
/// defaults to `FRSX` when unset: whole lines (`-S` scrolls sideways instead of
/// wrapping), colours kept, gone at once when it fits, the text left on the screen.
/// A pager that cannot run or fails hands the text back to be printed. `.pager off`;
/// `.pager always` (psql's `\pset pager always`) pages every table, laid out whole, so
/// one wider than the terminal can be scrolled sideways though it is short (less's `-F`
/// still quits at once when a text fits, chopped lines keep it open).
final class Pager {
    var enabled = true
    /// Every output through the pager, not only what is longer than the terminal.
    var always = false
    /// `.pager auto` chose `on` (only what does not fit), named as it was typed.
    var saysAuto = false
    /// What `.show` and `.pager` say of it.
    var setting: String { !enabled ? "off" : always ? "always" : saysAuto ? "auto" : "on" }
    private let command: String?
    /// Long output would go through a pager (one is on and can run).
    var isAvailable: Bool { enabled && command != nil }

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        if let chosen = environment["QUARRY_PAGER"] ?? environment["PAGER"] {
            let program = chosen.split(separator: " ").first.map(String.init) ?? ""
            command = !program.isEmpty && Pager.runnable(program, path: path) ? chosen : nil
        } else {
            command = Pager.runnable("less", path: path) ? "less" : nil
        }
    }

    /// Shows `text` through the pager when it is too long for the terminal; false when
    /// the caller should print it itself. Under `--safe` (`secure`) less runs without
    /// its commands that write files or start a shell.
    func show(_ text: String, secure: Bool) -> Bool {
        guard enabled, let command, isatty(STDOUT_FILENO) != 0, isatty(STDIN_FILENO) != 0 else { return false }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return false }
        // Output that fits the screen (the prompt after it may scroll one line away, as
        // a 20-row table does on a 24-line terminal) is printed as it is.
        let lines = text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        guard always || lines > Int(size.ws_row) else { return false }
        fflush(nil)
        setenv("LESS", "FRSX", 0)
        if secure { setenv("LESSSECURE", "1", 1) }
        defer { if secure { unsetenv("LESSSECURE") } }
        guard let pipe = popen(command, "w") else { return false }
        // The user may quit the pager before reading everything: the write then fails
        // with EPIPE instead of SIGPIPE ending the session.
        let previous = signal(SIGPIPE, SIG_IGN)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, pipe) }
        let status = pclose(pipe)
        signal(SIGPIPE, previous)
        // Quitting early is a success (the pager showed what was read); a pager that
        // failed has not shown the text, so it is printed after all.
        return status == 0
    }

    private static func runnable(_ program: String, path: String) -> Bool {
        if program.contains("/") { return access(program, X_OK) == 0 }
        return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }
}

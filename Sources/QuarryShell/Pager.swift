import Foundation

/// Long output in the REPL goes through a pager, as psql and git do: when stdout is a
/// terminal and the text has more lines than the terminal, it is piped to `$PAGER`
/// (`QUARRY_PAGER` first; an empty value means none), else to `less -SRFX`: whole lines
/// (`-S` scrolls sideways instead of wrapping), colours kept, gone at once when it fits,
/// and the text left on the screen afterwards. `.pager off` turns it off.
final class Pager {
    var enabled = true
    private let command: String?

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let chosen = environment["QUARRY_PAGER"] ?? environment["PAGER"] {
            command = chosen.trimmingCharacters(in: .whitespaces).isEmpty ? nil : chosen
        } else {
            command = Pager.onPath("less") ? "less -SRFX" : nil
        }
    }

    /// Shows `text` through the pager when it is too long for the terminal; false when
    /// the caller should print it itself.
    func show(_ text: String) -> Bool {
        guard enabled, let command, isatty(STDOUT_FILENO) != 0, isatty(STDIN_FILENO) != 0 else { return false }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return false }
        // Output that fits the screen (the prompt after it may scroll one line away, as
        // a 20-row table does on a 24-line terminal) is printed as it is.
        let lines = text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        guard lines > Int(size.ws_row) else { return false }
        fflush(stdout)
        guard let pipe = popen(command, "w") else { return false }
        // The user may quit the pager before reading everything: the write then fails
        // with EPIPE instead of SIGPIPE ending the session.
        let previous = signal(SIGPIPE, SIG_IGN)
        text.utf8CString.withUnsafeBufferPointer { bytes in
            _ = fwrite(bytes.baseAddress, 1, bytes.count - 1, pipe)
        }
        pclose(pipe)
        signal(SIGPIPE, previous)
        return true
    }

    private static func onPath(_ program: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }
}

import Foundation

/// A yes-or-no question asked on the terminal while a statement runs, as pgcli asks before
/// a destructive statement: the question on stdout, the answer one line typed (readline's
/// handler is out of the way while a line runs, so the terminal echoes as usual).
enum TerminalQuestion {
    /// Whether the answer to `question` (shown with `[y/N]`) starts with y; no at the end
    /// of input, at Ctrl-C, or when stdin is no terminal.
    static func ask(_ question: String) -> Bool {
        guard isatty(STDIN_FILENO) != 0 else { return false }
        print(question + " [y/N] ", terminator: "")
        fflush(nil)
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1, byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") {
            answer.append(byte)
        }
        let text = String(decoding: answer, as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
        return text == "y" || text == "yes"
    }
}

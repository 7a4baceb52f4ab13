/// REPL input piped in as a script (`quarry db - < session.quarry`): Lua with dot-commands
/// on lines of their own, as the sqlite3 shell takes `.mode csv` in a piped file. A line
/// is a command when it starts with a dot and a letter and the Lua before it is not cut
/// off mid-statement (so a long string or an expression continued on a line `.5` stays
/// Lua). The Lua between two commands is one chunk, padded with the lines before it so
/// its errors name the line of the input.
enum PipedScript {
    enum Part: Equatable {
        case lua(String)
        /// A command and its line in the input (from 1).
        case command(String, line: Int)
    }

    static func parts(_ text: String, isFinished: (String) -> Bool) -> [Part]? {
        var parts: [Part] = []
        var stretch: [Substring] = []
        var stretchStart = 0
        // "\r\n" is one Character in Swift: lines end at either, so CRLF input splits too.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        func flush(upTo line: Int) {
            if stretch.contains(where: { !$0.allSatisfy(\.isWhitespace) }) {
                parts.append(.lua(String(repeating: "\n", count: stretchStart) + stretch.joined(separator: "\n")))
            }
            stretch = []
            stretchStart = line + 1
        }
        for (number, line) in lines.enumerated() {
            let isCommand =
                line.first == "." && line.dropFirst().first?.isLetter == true
                && isFinished(stretch.joined(separator: "\n"))
            if isCommand {
                flush(upTo: number)
                parts.append(.command(String(line), line: number + 1))
            } else {
                stretch.append(line)
            }
        }
        flush(upTo: lines.count)
        return parts.contains(where: { if case .command = $0 { return true } else { return false } }) ? parts : nil
    }
}

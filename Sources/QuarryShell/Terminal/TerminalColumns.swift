import QuarryFormat

/// How many cells of a terminal a text takes, as the terminal draws it: an escape
/// sequence (a colour) takes none, an East Asian wide or fullwidth character or an emoji
/// two, anything else one. A watch moves back over its previous drawing by the rows it
/// took; counting characters instead left a table with colours, CJK text or emoji
/// partly on the screen under the next one.
enum TerminalColumns {
    /// The cells `line` takes (no newline in it).
    static func width(of line: Substring) -> Int {
        var cells = 0
        var escape = EscapeState.none
        for character in line {
            switch escape {
            case .started:
                escape = character == "[" ? .parameters : .none
                continue
            case .parameters:
                // Parameters and intermediates until the final byte (@ to ~).
                if let scalar = character.unicodeScalars.first, (0x40...0x7E).contains(scalar.value) { escape = .none }
                continue
            case .none:
                break
            }
            if character == "\u{1B}" {
                escape = .started
                continue
            }
            cells += TerminalWidth.of(character)
        }
        return cells
    }

    /// The rows `text` takes on a terminal `columns` wide, each line wrapped there.
    static func rows(of text: String, columns: Int) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { $0 + rows(ofLine: $1, columns: columns) }
    }

    /// The rows one line takes, wrapped at `columns` (an empty line takes one).
    static func rows(ofLine line: Substring, columns: Int) -> Int {
        let columns = max(1, columns)
        return max(1, (width(of: line) + columns - 1) / columns)
    }

    private enum EscapeState { case none, started, parameters }
}

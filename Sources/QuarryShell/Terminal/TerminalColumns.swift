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
            guard let scalar = character.unicodeScalars.first else { continue }
            cells += isWide(scalar) ? 2 : 1
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

    /// East Asian wide and fullwidth blocks (Unicode's EastAsianWidth W and F, by block),
    /// and characters shown as emoji by default.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x2FFFD,
            0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

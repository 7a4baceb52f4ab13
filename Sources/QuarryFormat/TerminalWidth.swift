/// How many terminal columns text takes: a character of the East Asian wide and
/// fullwidth ranges (Han, kana, Hangul, fullwidth forms) or an emoji takes two, as
/// terminals draw them (`wcwidth`); any other character one. Tables are aligned by it,
/// so rows of Chinese titles line up with rows of Latin ones, and a watch counts the
/// rows it drew by it (`TerminalColumns`).
package enum TerminalWidth {
    /// Markus Kuhn's `wcwidth` ranges of width 2 (Unicode's EastAsianWidth W and F), and
    /// the emoji blocks terminals draw two columns wide besides the characters shown as
    /// emoji by default.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF,
        0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF,
        0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD
    ]

    /// Columns one character takes: its first scalar decides (a combining mark or a
    /// variation selector after it adds none).
    package static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first, scalar.value >= 0x1100 else { return 1 }
        if scalar.properties.isEmojiPresentation { return 2 }
        let v = scalar.value
        var low = 0
        var high = wide.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if v < wide[mid].lowerBound {
                high = mid - 1
            } else if v > wide[mid].upperBound {
                low = mid + 1
            } else {
                return 2
            }
        }
        return 1
    }

    /// Columns `text` takes.
    static func of(_ text: String) -> Int {
        // ASCII, most cells, counts by its bytes: each character is one column, "\r\n"
        // being one character of two bytes. Walking it by characters costs a table of
        // numbers and dates more than everything else of printing it.
        var count = 0
        var previous: UInt8 = 0
        for byte in text.utf8 {
            guard byte < 0x80 else { return text.reduce(0) { $0 + of($1) } }
            if !(previous == 13 && byte == 10) { count += 1 }
            previous = byte
        }
        return count
    }

    /// The longest start of `text` that fits `columns`.
    static func prefix(_ text: String, columns: Int) -> String {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let width = of(text[index])
            if used + width > columns { break }
            used += width
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    /// `text` in lines of at most `columns`, each broken after the last blank that leaves
    /// it at least half full (else where the columns end), the blanks kept: the lines
    /// joined are `text`.
    static func wrapped(_ text: String, columns: Int) -> [String] {
        guard columns > 0, of(text) > columns else { return [text] }
        var lines: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            var used = 0
            var end = rest.startIndex
            var lastBlank: String.Index?
            for index in rest.indices {
                let width = of(rest[index])
                if used + width > columns { break }
                used += width
                end = rest.index(after: index)
                if rest[index] == " ", used * 2 >= columns { lastBlank = end }
            }
            // A character wider than the whole line still goes on one.
            if end == rest.startIndex { end = rest.index(after: end) }
            if end < rest.endIndex, let lastBlank { end = lastBlank }
            lines.append(String(rest[..<end]))
            rest = rest[end...]
        }
        return lines
    }
}

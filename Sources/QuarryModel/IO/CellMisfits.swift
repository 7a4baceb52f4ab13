/// For each type an imported column's cells might all have had (an integer, a double, a
/// boolean, a date): how many cells fit it, how many did not, and the first that did not
/// (its line and text), so that a column made text by a few cells (`1`, `2`, `n/a`, `4`)
/// can say which, as the import's note does (`ColumnType.madeTextBy`): a person then fixes
/// that row, or lists its text among the nulls, instead of finding the column text later.
package struct CellMisfits: Sendable {
    /// One candidate type's tally.
    package struct Tally: Sendable {
        package var fits = 0
        package var misfits = 0
        package var firstLine = 0
        /// The first misfit's text, clipped to 40 characters (`…` after).
        package var firstText = ""
        /// Dropped once most cells do not fit: the column is text of its own, and no more
        /// parsing is spent on it.
        package var dropped = false
    }

    /// Why a column is text: the type its other cells have, and the cells that do not.
    package struct Cause: Equatable, Sendable {
        package var type: AttributeType
        package var count: Int
        package var firstLine: Int
        package var firstText: String
    }

    /// The candidates, narrowest first, as `ColumnType` chooses among them.
    static let candidates: [AttributeType] = [.int64, .double, .bool, .date]
    package private(set) var tallies = Array(repeating: Tally(), count: candidates.count)

    /// Counts one non-nil cell read on `line` (1-based, as an editor numbers a file's lines).
    mutating func tally(_ b: UnsafeBufferPointer<UInt8>, line: Int) {
        let integer = ColumnType.integer(b)
        let leadingZero = ColumnType.hasLeadingZero(b)
        for i in tallies.indices where !tallies[i].dropped {
            let fits: Bool
            switch Self.candidates[i] {
            case .int64: fits = integer != nil && !leadingZero
            case .double: fits = !leadingZero && (integer.map { Double(exactly: $0) != nil } ?? (ColumnType.double(b) != nil))
            case .bool: fits = ColumnType.bool(b) != nil
            default: fits = Value.parseISO8601(bytes: b) != nil
            }
            if fits {
                tallies[i].fits += 1
                continue
            }
            tallies[i].misfits += 1
            // The earliest line: a header-less file's first record is observed last.
            if tallies[i].misfits == 1 || line < tallies[i].firstLine {
                tallies[i].firstLine = line
                let text = String(decoding: b, as: UTF8.self)
                tallies[i].firstText = text.count > 40 ? String(text.prefix(39)) + "…" : text
            }
            // Mostly not this type: a column of words, not numbers with a slip.
            if tallies[i].misfits >= 64, tallies[i].misfits > tallies[i].fits { tallies[i].dropped = true }
        }
    }

    /// The type most cells fit and the fewest did not (narrowest on a tie), when some
    /// cells did not and more did: nil for a column of words, and for one no cell kept
    /// from a type (made text for another reason).
    var cause: Cause? {
        let kept = tallies.indices.filter { i in !tallies[i].dropped && tallies[i].misfits > 0 && tallies[i].misfits < tallies[i].fits }
        // `min(by:)` keeps the first of equals: the narrowest type.
        guard let best = kept.min(by: { tallies[$0].misfits < tallies[$1].misfits }) else { return nil }
        let t = tallies[best]
        return Cause(type: Self.candidates[best], count: t.misfits, firstLine: t.firstLine, firstText: t.firstText)
    }
}

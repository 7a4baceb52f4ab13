/// What an imported column holds, narrowed cell by cell: every column starts as "any
/// type", and each non-nil cell removes the types it does not fit.
package struct ColumnType {
    package init() {}

    package private(set) var canBeInteger = true
    package private(set) var canBeDouble = true
    package private(set) var canBeBool = true
    package private(set) var canBeDate = true
    package private(set) var sawNil = false
    package private(set) var sawValue = false
    /// An integer a double cannot hold exactly (beyond 2^53, or beyond Int64) was seen.
    package private(set) var sawInexactInteger = false
    /// The type the person gave for the column (`import(..., { types = { zip = "string" } })`):
    /// it is the column's type whatever the cells look like, and a cell it cannot take is
    /// an error of that row, not a reason to widen.
    package var declared: AttributeType?
    /// Whether a quoted cell is text whatever it spells (`"5467"`), as Quarry's export
    /// quotes text that would read as a number, a boolean or a date. False in a file that
    /// quotes every name of its header, whose quotes say nothing of types (R's write.csv,
    /// QUOTE_ALL writers).
    package var quotedIsText = false
    /// A quoted cell was read as text (`quotedIsText`), and how many of them spell another
    /// type (`"89.90"`): the column is text, and the import says so (`typeIfUnquoted`).
    package private(set) var sawQuotedText = false
    package private(set) var quotedNonText = 0
    /// How many cells kept the column from each type a few did not fit (`CellMisfits`).
    package private(set) var misfits = CellMisfits()

    /// Whether text written unquoted would be read back as another type than a string (a
    /// number, a boolean, a date): the export quotes it, so it stays text (`quotedIsText`).
    static func readsAsNonText(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        integer(b) != nil || double(b) != nil || bool(b) != nil || Value.parseISO8601(bytes: b) != nil
    }

    /// The texts read as nil (`import`'s `nulls`).
    package var nulls = NullTexts.standard

    /// Narrows the column by one cell of a CSV file, read on `line` (0: not known).
    package mutating func observe(_ b: UnsafeBufferPointer<UInt8>, quoted: Bool, line: Int = 0) {
        // A quoted empty field (`""`) is the empty text in a text column and nil in any
        // other (`CSVImport.value`): it says nothing of the type, and may be nil.
        if nulls.contains(b, quoted: quoted) || (b.isEmpty && nulls.readsEmpty) {
            sawNil = true
            return
        }
        sawValue = true
        // A quoted cell makes the column text (`attributeType`), and narrows the flags as
        // any cell does, so `typeIfUnquoted` can say what the quotes alone changed.
        if quoted, quotedIsText {
            sawQuotedText = true
            if Self.readsAsNonText(b) { quotedNonText += 1 }
        }
        if declared == nil { misfits.tally(b, line: line) }
        // Digits with a leading zero (a ZIP code, an account number) are text, as DuckDB
        // and VisiData take them: as a number the zeros would be lost.
        if Self.hasLeadingZero(b) {
            canBeInteger = false
            canBeDouble = false
        }
        if canBeInteger || canBeDouble {
            let integer = Self.integer(b)
            if integer == nil { canBeInteger = false }
            if canBeDouble, !Self.isExactDouble(b, integer) { sawInexactInteger = true }
            if canBeDouble, !canBeInteger, integer == nil, Self.double(b) == nil { canBeDouble = false }
        }
        if canBeBool, Self.bool(b) == nil { canBeBool = false }
        if canBeDate, Value.parseISO8601(bytes: b) == nil { canBeDate = false }
    }

    /// The same narrowing for a value read from JSON.
    package mutating func observe(_ value: Value) {
        switch value {
        case .null:
            sawNil = true
            return
        case .integer(let i):
            canBeBool = false
            canBeDate = false
            if Double(exactly: i) == nil { sawInexactInteger = true }
        // A JSON number with more digits than a double keeps is a decimal (`JSONArrayReader`): a number still.
        case .real, .decimal:
            canBeInteger = false
            canBeBool = false
            canBeDate = false
        case .bool:
            canBeInteger = false
            canBeDouble = false
            canBeDate = false
        case .text(let s):
            canBeInteger = false
            canBeDouble = false
            canBeBool = false
            if canBeDate, Value.parseISO8601(s) == nil { canBeDate = false }
        default:
            canBeInteger = false
            canBeDouble = false
            canBeBool = false
            canBeDate = false
        }
        sawValue = true
    }

    /// Whether the column `before` was would be made another way now: another type, or
    /// optional where it was not.
    package func differs(from before: ColumnType) -> Bool {
        isOptional != before.isOptional || attributeType != before.attributeType
    }

    /// Whether a cell fits the type inferred so far without observing it: cheaper than
    /// `observe` (one parse for the column's own type), and false only where `observe`
    /// may change the type or make the column optional. A cell that fits leaves the
    /// type as it is; flags it would have cleared for wider types can only make a later
    /// widening pick a type that a new pass then widens again.
    package func fits(_ b: UnsafeBufferPointer<UInt8>, quoted: Bool) -> Bool {
        if nulls.contains(b, quoted: quoted) || (b.isEmpty && nulls.readsEmpty) { return isOptional }
        if declared != nil { return true }
        if quoted, quotedIsText, attributeType != .string { return false }
        switch attributeType {
        case .int64: return Self.integer(b) != nil && !Self.hasLeadingZero(b)
        case .double where Self.hasLeadingZero(b): return false
        case .double:
            if let i = Self.integer(b) { return Double(exactly: i) != nil }
            return Self.isExactDouble(b, nil) && Self.double(b) != nil
        case .bool: return Self.bool(b) != nil
        case .date: return Value.parseISO8601(bytes: b) != nil
        default: return sawValue
        }
    }

    /// Whether the attribute made for this column may be nil.
    package var isOptional: Bool { sawNil || !sawValue }

    /// The attribute type: the narrowest that every value fits exactly.
    package var attributeType: AttributeType {
        if let declared { return declared }
        guard sawValue, !sawQuotedText else { return .string }
        return typeOfTheCells
    }

    /// The type the cells would make were quotes no sign of text: what a column made text
    /// only by quoted cells that spell numbers, booleans or dates would be (nil when the
    /// quotes changed nothing), for the note that names `types = { col = ... }`.
    package var typeIfUnquoted: AttributeType? {
        guard declared == nil, sawQuotedText, quotedNonText > 0 else { return nil }
        let type = typeOfTheCells
        return type == .string ? nil : type
    }

    /// Why a column the cells made text is text, when most of its cells are of one type
    /// and a few are not (`1`, `n/a`, `3`): that type, how many cells, and the first;
    /// nil for a declared type, quoted text (`typeIfUnquoted` says that) or a column of words.
    package var madeTextBy: CellMisfits.Cause? {
        guard declared == nil, !sawQuotedText, attributeType == .string else { return nil }
        return misfits.cause
    }

    /// The narrowest type every value fits exactly, quotes aside.
    private var typeOfTheCells: AttributeType {
        if canBeInteger { return .int64 }
        // Integers past 2^53 beside fractions (9007199254740993 and 1.5): a double would
        // keep 9007199254740992, and decimal is stored as a double too, so the column is
        // text, which keeps every value as written; refusing the file would leave the
        // user no way to import it but editing it. Text sorts and compares as text, which
        // `fetch` can still convert where a number is needed.
        if canBeDouble, !sawInexactInteger { return .double }
        if canBeBool { return .bool }
        if canBeDate { return .date }
        return .string
    }

    /// Whether the cell is a whole number written with a leading zero (`0171`, `-007`;
    /// not `0`, `0.5` or `0e3`).
    package static func hasLeadingZero(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        if i < b.count, b[i] == 45 || b[i] == 43 { i += 1 }
        guard b.count - i >= 2, b[i] == 48 else { return false }
        return b[(i + 1)...].allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    package static func integer(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        var negative = false
        if i < b.count, b[i] == 45 || b[i] == 43 {
            negative = b[i] == 45
            i += 1
        }
        guard i < b.count else { return nil }
        var value: Int64 = 0
        while i < b.count {
            let d = Int64(b[i]) - 48
            guard d >= 0, d <= 9 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
            guard !o1, !o2 else { return nil }
            value = s
            i += 1
        }
        return value
    }

    /// Whether a cell a double column would read (given its `integer` value, if any)
    /// comes back as written: false for an integer beyond 2^53 that a double rounds, and
    /// for integer digits beyond Int64 (which only a double could take, rounded).
    package static func isExactDouble(_ b: UnsafeBufferPointer<UInt8>, _ integer: Int64?) -> Bool {
        if let integer { return Double(exactly: integer) != nil }
        var digits = b[...]
        if let first = digits.first, first == 45 || first == 43 { digits = digits.dropFirst() }
        return digits.isEmpty || !digits.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// An optional sign, digits and at most one point, with a digit: decimal text every
    /// engine reads as written (an exponent, or anything else, takes the slow path).
    package static func isPlainDecimal(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var digits = b[...]
        if let first = digits.first, first == 45 || first == 43 { digits = digits.dropFirst() }
        var sawDigit = false
        var sawPoint = false
        for c in digits {
            if c >= 48 && c <= 57 {
                sawDigit = true
            } else if c == 46 && !sawPoint {
                sawPoint = true
            } else {
                return false
            }
        }
        return sawDigit
    }

    package static func double(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        // Only plain decimal notation: "nan", "inf" and hex floats stay strings.
        guard b.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 45 || $0 == 43 || $0 == 101 || $0 == 69 }) else { return nil }
        guard let d = Double(String(decoding: b, as: UTF8.self)), d.isFinite else { return nil }
        return d
    }

    package static func bool(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard b.count == 4 || b.count == 5 else { return nil }
        switch String(decoding: b, as: UTF8.self).lowercased() {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }
}

/// The fields an import reads as nil (`import(..., { nulls = { "", "NA" } })`): by default
/// the empty field and `NA`, as R and the sqlite3 shell's users expect; `{ "" }` keeps
/// the text `NA` (Namibia's code), as psql's `\copy ... csv` does. A listed text is nil
/// only unquoted, so a text value "NA" that Quarry's export quoted comes back as "NA"; and
/// so the empty field: unquoted it is nil (when `""` is listed), quoted (`""`) it is the
/// empty text, as PostgreSQL's `COPY ... CSV` and DuckDB write and read the two, and as
/// Quarry's export writes them. Where quotes tell nothing (`quotedEmptyIsNil`), a quoted
/// empty field is nil too.
package struct NullTexts: Equatable, Sendable {
    package let texts: [[UInt8]]
    /// Whether the empty field is listed.
    package let readsEmpty: Bool
    /// Whether a quoted empty field is nil as an unquoted one is: in a file that quotes
    /// every name of its header, as a writer quoting every field does (Python's
    /// `QUOTE_ALL` writes None as `""`), a quote says nothing of the value.
    package var quotedEmptyIsNil = false

    package init(_ texts: [String]) {
        self.texts = texts.map { Array($0.utf8) }.filter { !$0.isEmpty }
        readsEmpty = texts.contains("")
    }

    package static let standard = NullTexts(["", "NA"])

    @inline(__always) package func contains(_ b: UnsafeBufferPointer<UInt8>, quoted: Bool) -> Bool {
        if b.isEmpty { return readsEmpty && (!quoted || quotedEmptyIsNil) }
        guard !quoted else { return false }
        for text in texts where text.count == b.count && text.elementsEqual(b) { return true }
        return false
    }
}

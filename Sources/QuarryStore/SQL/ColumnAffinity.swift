import QuarryModel

/// The affinity SQLite gives a column of a file Quarry did not create, as Quarry reads the
/// column (its attribute's type and `EntityStorage.takesText`/`untyped`). A link that
/// `relate()` made may join columns of two affinities (`Survey.taken INTEGER` to
/// `Visited.id TEXT`): SQLite stores a value in the link column converted to that column's
/// affinity, and its join compares the two columns after converting one of them. A link
/// set in memory follows both rules, so the object reads the value the saved row holds and
/// the relationship names the row the join names, before and after the save.
package enum ColumnAffinity: Equatable, Sendable {
    case integer, real, numeric, text, none

    /// The affinity of `attribute`'s column, nil where its values hold their type anyway (a
    /// server's table, Quarry's own file) or where Quarry writes them in a layout of the
    /// column's own (dates, booleans, decimals, UUIDs, JSON).
    package init?(of attribute: AttributeDescription, in storage: EntityStorage) {
        guard storage.layout == .foreignTable, storage.keepsAnyType else { return nil }
        let name = attribute.name
        switch attribute.type {
        case .int16, .int32, .int64: self = .integer
        case .double: self = storage.takesText.contains(name) ? .real : .numeric
        case .string where storage.untyped.contains(name): self = storage.takesText.contains(name) ? .numeric : .none
        case .string: self = .text
        case .binary: self = .none
        default: return nil
        }
    }

    private var isNumeric: Bool { self == .integer || self == .real || self == .numeric }

    /// `value` as SQLite keeps it in a column of this affinity (its `applyAffinity`): a
    /// number in a TEXT column is its text (`900` → `'900'`); a text that spells a number
    /// in a numeric column is that number, an integer where it has no fraction (`'900'`,
    /// `'900.0'` → `900`); a REAL column's integer is a real. Anything else as it is.
    package func stored(_ value: Value) -> Value {
        switch (self, value) {
        case (.text, .integer), (.text, .real):
            return NumericAffinity.text(of: value).map(Value.text) ?? value
        case (.integer, .text(let text)), (.numeric, .text(let text)), (.real, .text(let text)):
            let number = NumericAffinity.numeric(text)
            guard case .text = number else { return stored(number) }
            return value
        case (.integer, .real(let d)), (.numeric, .real(let d)):
            return Int64(exactly: d).map(Value.integer) ?? value
        case (.real, .integer(let i)):
            return .real(Double(i))
        default:
            return value
        }
    }

    /// The placeholder that compares a destination column of affinity `target` with
    /// `value`, held by an owner column of this affinity, as SQLite's join `target = owner`
    /// compares the two columns: a bound value has no affinity, so where the join would
    /// convert the destination column (numeric against TEXT, TEXT against none) the
    /// placeholder is given the owner column's affinity by a CAST, which leaves the value
    /// itself as it is (it is already what the column stores: `stored`).
    package func placeholder(against target: ColumnAffinity?, for value: Value) -> String {
        guard let target else { return "?" }
        switch value {
        case .integer, .real:
            if isNumeric, !target.isNumeric { return "CAST(? AS NUMERIC)" }
        case .text:
            if self == .text, target == .none { return "CAST(? AS TEXT)" }
        default: break
        }
        return "?"
    }

    /// True where SQLite's join `target = owner`, with an owner column of this affinity,
    /// converts the destination column's values before it compares: a numeric column
    /// against a TEXT or untyped one. Then several of its values may equal one owner value
    /// (`'10'` and `'010'` both equal 10) however unique the column is as stored, so the
    /// link is not known to match one row. Two columns of which neither is numeric (TEXT
    /// and untyped) are compared as stored: '10' does not equal 10.
    package func convertsInJoin(_ target: ColumnAffinity?) -> Bool {
        guard let target else { return false }
        return isNumeric && !target.isNumeric
    }

    /// Whether SQLite's `target = owner` holds for an owner column of affinity `ownAffinity`
    /// holding `owner` and a destination column of affinity `targetAffinity` holding
    /// `target` (each as its column stores it): numeric affinity is given to the side
    /// that has none of its own against a numeric column, TEXT affinity to an untyped
    /// side against a TEXT column; then numbers compare as numbers, text by `collation`
    /// (NOCASE folds ASCII letters, RTRIM leaves out trailing spaces), and values of
    /// different kinds, or NULL, are not equal.
    package static func joinEquals(
        _ owner: Value, _ ownAffinity: ColumnAffinity?, _ target: Value, _ targetAffinity: ColumnAffinity?, collation: String?
    ) -> Bool {
        var (l, r) = (target, owner)
        if let ownAffinity, let targetAffinity {
            if ownAffinity.isNumeric, !targetAffinity.isNumeric {
                l = ColumnAffinity.numeric.stored(l)
            } else if targetAffinity.isNumeric, !ownAffinity.isNumeric {
                r = ColumnAffinity.numeric.stored(r)
            } else if ownAffinity == .text, targetAffinity == .none {
                l = ColumnAffinity.text.stored(l)
            } else if targetAffinity == .text, ownAffinity == .none {
                r = ColumnAffinity.text.stored(r)
            }
        }
        switch (l, r) {
        case (.integer(let a), .integer(let b)): return a == b
        case (.integer(let a), .real(let b)): return Double(a) == b
        case (.real(let a), .integer(let b)): return a == Double(b)
        case (.real(let a), .real(let b)): return a == b
        case (.text, .text):
            let (a, b) = collation.map { (SQLiteCollation.collated(l, $0), SQLiteCollation.collated(r, $0)) } ?? (l, r)
            // Byte for byte, as SQLite compares: not by Unicode equivalence, as String's ==.
            guard case .text(let x) = a, case .text(let y) = b else { return false }
            return x.utf8.elementsEqual(y.utf8)
        case (.blob(let a), .blob(let b)): return a == b
        default: return false
        }
    }

    /// The row number a link column's value names when the destination is known by its
    /// rowid (an INTEGER affinity): SQLite's join converts the link's text to a number
    /// (`'900'` names row 900) and compares a real with the integer (`900.0` names it too).
    package static func rowNumber(_ value: Value) -> Int64? {
        switch value {
        case .integer(let key): return key
        case .real(let d): return Int64(exactly: d)
        case .text(let text):
            let number = NumericAffinity.numeric(text)
            if case .text = number { return nil }
            return rowNumber(number)
        default: return nil
        }
    }
}

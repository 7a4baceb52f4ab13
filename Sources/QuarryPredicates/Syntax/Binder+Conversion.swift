import QuarryModel
import QuarryStore

/// Constants converted to the type of the attribute they meet, as the column reads them
/// (text a number column takes, a column of no declared type), refused with the way
/// forward where they cannot be.
extension Binder {
    /// Whether `operand` reads a number column of a SQLite file that holds text as well
    /// (`EntityStorage.takesText`): `owner` is the entity it is bound against, `outer` the
    /// one an ANY/ALL/NONE ranges from.
    /// A string column of NUMERIC affinity (`YEAR`, `ENUM`) is listed too: it is read as
    /// stored, as a column of no type is (`untyped`), and takes a text as SQLite's numeric
    /// affinity makes it.
    func takesText(_ operand: BoundPredicate.Operand, _ owner: EntityDescription, outer: EntityDescription?) -> Bool {
        reads(operand, owner, outer: outer, of: [.int16, .int32, .int64, .double, .decimal, .string], in: { $0.takesText })
    }

    /// Whether `operand` reads a string column of a SQLite file that declares no type
    /// (`EntityStorage.untyped`), arguments as `takesText`.
    func untyped(_ operand: BoundPredicate.Operand, _ owner: EntityDescription, outer: EntityDescription?) -> Bool {
        reads(operand, owner, outer: outer, of: [.string], in: { $0.untyped })
    }

    /// Whether `operand` reads an attribute of one of `types` that its entity's storage
    /// lists in `columns`. A closure, not a key path: a key path to another module's type
    /// is resolved by its mangled name at its first use (0.46M instructions of a run that
    /// binds one comparison).
    func reads(
        _ operand: BoundPredicate.Operand, _ owner: EntityDescription, outer: EntityDescription?, of types: [AttributeType],
        in columns: (EntityStorage) -> Set<String>
    ) -> Bool {
        switch operand {
        case .attribute(let a):
            return types.contains(a.type) && owner.attribute(named: a.name) != nil && columns(storage(of: owner)).contains(a.name)
        case .path(let steps, let a):
            guard let last = steps.last, types.contains(a.type), last.destination.attribute(named: a.name) != nil else { return false }
            return columns(last.destinationStorage).contains(a.name)
        case .outer(let o): return outer.map { reads(o, $0, outer: nil, of: types, in: columns) } ?? false
        default: return false
        }
    }

    /// `takesText`: the attribute's column is a SQLite file's number column that holds text
    /// as well; a text there is what SQLite's numeric affinity makes of it (`'42'` is 42,
    /// `'apple'` stays text, ordered after every number), as SQLite compares it.
    /// `owner`: the entity whose attribute it is, for a refusal that names it; `op`: the
    /// comparison, for the SQL a refusal offers.
    func convert(
        _ value: Value, to attribute: AttributeDescription, at expression: Expression, takesText: Bool = false, untyped: Bool = false,
        owner: EntityDescription? = nil, op: ComparisonOperator? = nil
    ) throws -> Value {
        if case .null = value { return value }
        if takesText, case .text(let text) = value {
            let read = NumericAffinity.numeric(text)
            // A text that spells no number orders after every number in SQLite, so `duration
            // < 'sixty'` would hold for every row: compared so only where the column holds
            // text (Anki's `sfld`); in a column of numbers it is a mistake, refused below as
            // on Quarry's own stores. A text spelling a number (`'60'`) is that number, as
            // SQLite's affinity reads what Core Data binds.
            let numbers: [AttributeType] = [.int16, .int32, .int64, .double, .decimal]
            guard case .text = read, numbers.contains(attribute.type), let owner, context?.columnHoldsText(owner, attribute.name) == false else {
                return read
            }
        }
        // NaN is nil, as SQLite binds and stores it: else SQL (`d IS NULL`) and `matches`
        // (NaN equals nothing) would answer `d == $nan` two ways.
        if case .real(let d) = value, d.isNaN { return .null }
        // A column with no type keeps numbers as numbers and compares them so, as SQLite
        // does with no affinity to convert them (`value > 1` over a key-value table).
        if untyped {
            switch value {
            case .integer, .real: return value
            case .bool(let b): return .integer(b ? 1 : 0)
            default: break
            }
        }
        if attribute.type == .bool, case .integer(let i) = value, i == 0 || i == 1 { return .bool(i == 1) }
        // `qty == YES`: Foundation's booleans are NSNumbers, 1 and 0.
        if case .bool(let b) = value, [.int16, .int32, .int64, .double, .decimal].contains(attribute.type) {
            return try convert(.integer(b ? 1 : 0), to: attribute, at: expression)
        }
        // `n < 2.5` on an integer attribute compares numerically, as SQLite and Foundation do;
        // so does `n < %@` with `math.huge`, which every integer is below (`< 1e999` in sqlite3).
        if [.int16, .int32, .int64].contains(attribute.type), case .real(let d) = value, !d.isFinite || d != d.rounded() || abs(d) >= 9.2e18 {
            return value
        }
        switch attribute.type.coerce(value) {
        case .success(let v): return v
        case .failure:
            let shown: String
            var why = ""
            if case .text(let s) = value {
                shown = "string \"\(s)\""
                // A string attribute holds no NUL byte (SQLite's text API would cut it there): say so.
                if attribute.type == .string, s.utf8.contains(0) { why = " (a string attribute holds no NUL bytes)" }
            } else {
                shown = value.described
            }
            // A number column of times (Chrome's microseconds since 1601) is a date once its
            // unit is declared: the way there, not epoch arithmetic in Lua.
            if case .date = value, [.int16, .int32, .int64, .double, .decimal].contains(attribute.type) {
                why = timeUnitHint(attribute, owner)
            }
            // `loaned_on > 2024-06-01` is arithmetic (2017): a date is written quoted. A number
            // given for a date (`os.time()`) is made one by date(...), as text is.
            if attribute.type == .date, case .integer(let n) = value {
                let parts = Self.text(expression).split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) }
                let written = parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
                let day = written ? parts : ["2024", "06", "01"]
                why =
                    "; a date is written quoted, as '" + day.enumerated().map { $0 == 0 || $1.count > 1 ? $1 : "0" + $1 }.joined(separator: "-") + "'"
                    + (written ? "" : ", or given as date(...) (date(\(n)) for \(n) seconds since 1970)")
            }
            // `occurred_at > '2016'`: text that reads as no date. The forms that do, and a
            // year's comparison through its part, rather than a refusal to puzzle over.
            if attribute.type == .date, case .text(let s) = value {
                let year = s.count == 4 && s.allSatisfy(\.isNumber)
                why =
                    year
                    ? "; a year is compared through the date's part: \(attribute.name).year > \(s)"
                    : "; a date is written as ISO 8601 text ('2016-01-01', '2016-01-01T08:00:00Z') or date(...)"
            }
            // Another program's text of ISO 8601 times: a date once `format()` says so.
            var remedy: String?
            if case .date = value, attribute.type == .string, let owner, let hint = context?.isoTextHint(owner, attribute.name) {
                remedy = hint
            } else if case .date = value, attribute.type == .string, let owner, let form = context?.textDateForm(owner, attribute.name) {
                // Dates in another form (`31/12/2021`): no format() reads them, and which of
                // day and month comes first is said as the values show it, never guessed.
                why = "; its text holds \(form.described), which no format() reads; sql() can put its parts in ISO order with substr()"
            }
            // Another program's text column of numbers (GTFS's `stop_sequence`): the SQL that
            // reads them as numbers, as no format() makes text a number. REAL, whatever the
            // value compared: INTEGER would cut the column's `100.5` to 100 and miscount.
            // The comparison as written (`status == 2000` offered `> 2000`), and said of a
            // column that holds numbers: a column of words (`sent`) has none to read.
            if attribute.type == .string, value.isNumber, let owner, let context, context.mapped(owner).isForeign {
                let symbol: String
                switch op {
                case .equal?, nil: symbol = "="
                case .notEqual?: symbol = "<>"
                case let other?: symbol = other.isOrdering && other != .between ? other.rawValue : "="
                }
                // An id kept as text (OpenFlights' `routes.airline_id`) is found as its text,
                // as SQLite's TEXT affinity compares `airline_id = 24`.
                var asText = ""
                if case .integer(let n) = value, op == .equal || op == .notEqual || op == nil {
                    asText = " (\(attribute.name) \(op == .notEqual ? "!=" : "==") '\(n)' compares its text)"
                }
                why =
                    "; a text column compares as text here\(asText); where it holds numbers, sql() reads them as numbers: sql('SELECT count(*) FROM "
                    + "\(writtenIdentifier(owner.name)) WHERE CAST(\(writtenIdentifier(attribute.name)) AS REAL) \(symbol) \(value.displayString)')"
                // Text with a number inside (`(40.68514, -73.95976)`): that CAST reads 0
                // there and would count nothing, so it is not offered.
                if let inside = context.textWithANumberInside(owner, attribute.name) {
                    let shown = inside.count > 40 ? String(inside.prefix(39)) + "…" : inside
                    why =
                        "; its text holds more than a number ('\(shown)'), which CAST(\(writtenIdentifier(attribute.name)) AS REAL) reads as the number it "
                        + "starts with, 0 for none: sql() can take the number out with substr() or replace() first"
                }
            }
            var error = PredicateError(
                .typeMismatch, "'\(attribute.name)' is \(attribute.type.rawValue) and cannot be compared with \(shown)\(why)",
                column: expression.column)
            error.remedy = remedy
            throw error
        }
    }
}

extension Value {
    /// An integer, real or decimal.
    fileprivate var isNumber: Bool {
        switch self {
        case .integer, .real, .decimal: return true
        default: return false
        }
    }
}

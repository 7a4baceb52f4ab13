/// The type of an attribute, as the schema names it.
public enum AttributeType: String, Encodable, CaseIterable, Sendable {
    case string, int16, int32, int64, double, decimal, bool, date, uuid, binary, json

    /// Parses a type name from a schema (`"int"` is `int64`).
    public init?(name: String) {
        if name == "int" {
            self = .int64
            return
        }
        self.init(rawValue: name)
    }

    var integerRange: ClosedRange<Int64>? {
        switch self {
        case .int16: return Int64(Int16.min)...Int64(Int16.max)
        case .int32: return Int64(Int32.min)...Int64(Int32.max)
        case .int64: return Int64.min...Int64.max
        default: return nil
        }
    }

    /// Converts `value` to this type's canonical form, or explains why it cannot be.
    /// The message names the expected type and what was given, for the caller to place.
    public func coerce(_ value: Value) -> Result<Value, CoercionFailure> {
        let fail = Result<Value, CoercionFailure>.failure(CoercionFailure(expected: rawValue, given: value))
        switch (self, value) {
        case (_, .null): return .success(.null)
        // SQLite's text API stops at NUL, so such a string would come back cut; binary holds bytes.
        case (.string, .text(let s)): return s.utf8.contains(0) ? fail : .success(value)
        // Text that is not UTF-8 (a Lua string is bytes) is kept as it is, byte for byte,
        // NULs too: it is bound and read with its length, never as a C string.
        case (.string, .textBytes): return .success(value)
        case (.int16, _), (.int32, _), (.int64, _):
            let range = integerRange!
            switch value {
            case .integer(let i): return range.contains(i) ? .success(value) : fail
            case .real(let d):
                guard d == d.rounded(), d >= -9.2e18, d <= 9.2e18, range.contains(Int64(d)) else { return fail }
                return .success(.integer(Int64(d)))
            // A whole decimal (`12.00`) is its integer.
            case .decimal(let s):
                guard let i = DecimalText.integer(s), range.contains(i) else { return fail }
                return .success(.integer(i))
            default: return fail
            }
        case (.double, .real), (.decimal, .decimal): return .success(value)
        // A number given to a decimal is the decimal it reads as (its shortest text), as
        // the store gives it back.
        case (.decimal, .real(let d)): return ExactDecimal(double: d).map { .success(.decimal($0.description)) } ?? fail
        case (.decimal, .integer(let i)): return .success(.decimal(String(i)))
        // A decimal given to a double: its nearest double, as Core Data's
        // `NSDecimalNumber.doubleValue`.
        case (.double, .decimal(let s)): return Double(s).map { .success(.real($0)) } ?? fail
        case (.double, .integer(let i)): return .success(.real(Double(i)))
        case (.bool, .bool): return .success(value)
        case (.date, .date(let d)): return Value.dateRange.contains(d) ? .success(value) : fail
        case (.date, .text(let s)):
            // The same range as a date value: text must not bring in a date Quarry cannot show.
            guard let seconds = Value.parseISO8601(s), Value.dateRange.contains(seconds) else { return fail }
            return .success(.date(seconds))
        case (.uuid, .text(let s)):
            return isUUID(s) ? .success(.text(s.uppercased())) : fail
        case (.binary, .blob): return .success(value)
        case (.binary, .text(let s)): return .success(.blob(Array(s.utf8)))
        case (.binary, .textBytes(let b)): return .success(.blob(b))
        case (.json, .text(let s)): return s.utf8.contains(0) ? fail : .success(value)
        default: return fail
        }
    }

    /// Reads a column as this type: SQLite's storage class is not trusted to match
    /// (a foreign file may keep dates as text, booleans as integers).
    public func decode(_ value: Value) -> Value {
        switch (self, value) {
        case (.bool, .integer(let i)): return .bool(i != 0)
        case (.bool, .real(let d)): return .bool(d != 0)
        case (.date, .real(let d)): return .date(d)
        case (.date, .integer(let i)): return .date(Double(i))
        // ISO 8601's basic form too (`20180903`), as SQL reads a file's date column: to
        // the millisecond, as SQLite compares it (`Value.parseISO8601Milliseconds`).
        case (.date, .text(let s)): return (Value.parseISO8601Milliseconds(s) ?? Value.parseISO8601Basic(s)).map(Value.date) ?? value
        // Booleans kept as text ('Y'/'N', 'true'/'false'), as Quarry writes them there.
        case (.bool, .text(let s)): return booleanTexts[s.lowercased()].map(Value.bool) ?? value
        // A double attribute's cell that SQLite holds as an integer (a `numeric(10,2)`
        // column of another program's file keeps 227600.00 as 227600) reads as that
        // integer, as sqlite3 shows it: a table, `print` and `=expr` show 227600, where a
        // float would gain Lua's `.0`. Quarry's own columns are REAL, which give floats.
        // A decimal always reads as one (the contract): SQLite keeps it as a double, whose
        // shortest text is the decimal (0.1 reads as 0.1), or as an integer when whole.
        // Before, it read as a Lua number after reopening, where the run that saved it
        // read a decimal, and `o.price == decimal("0.1")` turned false.
        case (.decimal, .integer(let i)): return .decimal(String(i))
        case (.decimal, .real(let d)): return ExactDecimal(double: d).map { .decimal($0.description) } ?? value
        // PostgreSQL's numeric arrives as its text (`PostgresRows`): exact, as written.
        case (.decimal, .text(let s)) where DecimalText.isDecimal(s): return .decimal(s)
        // A numeric the server computed for a double or an integer (`avg(integer)` is
        // numeric there): read as the type asks, as SQLite's answer reads.
        case (.double, .decimal(let s)): return .real(DecimalText.double(s))
        case (.int16, .decimal(let s)), (.int32, .decimal(let s)), (.int64, .decimal(let s)):
            return DecimalText.integer(s).map(Value.integer) ?? .real(DecimalText.double(s))
        default: return value
        }
    }
}

/// Why a value does not fit an attribute type.
public struct CoercionFailure: Error, Sendable {
    public let expected: String
    public let given: Value

    /// What a date attribute takes, said after a string it could not read as one
    /// (`"July 1 2015"`): the forms `parseISO8601` reads, and `date(...)`; empty otherwise.
    public var accepted: String {
        guard expected == AttributeType.date.rawValue, case .text = given else { return "" }
        return #" (a date is date(...) or ISO 8601 text: "2015-07-01", "2015-07-01 09:30", "2015-07-01T09:30:00Z", "2015-07-01T09:30:00+02:00")"#
    }
}

/// The texts a file may keep booleans as, in lower case (see `ColumnFormat`).
package let booleanTexts: [String: Bool] = [
    "true": true, "false": false, "t": true, "f": false, "yes": true, "no": false,
    "y": true, "n": false, "on": true, "off": false
]

private func isUUID(_ s: String) -> Bool {
    let hex = Set("0123456789abcdefABCDEF")
    let groups = s.split(separator: "-", omittingEmptySubsequences: false)
    return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(hex.contains) }
}

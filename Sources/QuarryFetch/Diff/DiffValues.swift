import QuarryModel

/// Values as `diff` orders and compares them: as the store holds them. Keys are ordered as
/// SQLite orders values (NULL, numbers, text by its bytes, blobs by their bytes), the order
/// the reads' `ORDER BY` gives, so two sorted streams merge; attribute values are equal
/// when SQL's `IS` would say so (1 and 1.0 alike, text byte for byte, a decimal digit for
/// digit), or, for an attribute given a tolerance, when two numbers are that close.
enum DiffValues {
    private static func rank(_ v: Value) -> Int {
        switch v {
        case .null: return 0
        case .integer, .real, .bool, .date, .decimal: return 1
        case .text, .textBytes: return 2
        case .blob: return 3
        }
    }

    private static func number(_ v: Value) -> Double {
        switch v {
        case .integer(let i): return Double(i)
        case .real(let d), .date(let d): return d
        case .bool(let b): return b ? 1 : 0
        case .decimal(let s): return Double(s) ?? 0
        default: return 0
        }
    }

    private static func bytes(_ v: Value) -> [UInt8] {
        switch v {
        case .text(let s): return Array(s.utf8)
        case .textBytes(let b), .blob(let b): return b
        default: return []
        }
    }

    /// -1, 0 or 1 as `a` sorts before, with or after `b`.
    static func compare(_ a: Value, _ b: Value) -> Int {
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb ? -1 : 1 }
        switch ra {
        case 0: return 0
        case 1:
            // Two integers compare exactly (a double holds no more than 2^53 exactly).
            if case .integer(let x) = a, case .integer(let y) = b { return x < y ? -1 : (x == y ? 0 : 1) }
            let (x, y) = (number(a), number(b))
            return x < y ? -1 : (x == y ? 0 : 1)
        default:
            let (x, y) = (bytes(a), bytes(b))
            return x.lexicographicallyPrecedes(y) ? -1 : (x == y ? 0 : 1)
        }
    }

    /// Keys of several columns, column after column.
    static func compare(_ a: ArraySlice<Value>, _ b: ArraySlice<Value>) -> Int {
        for (x, y) in zip(a, b) {
            let c = compare(x, y)
            if c != 0 { return c }
        }
        return 0
    }

    /// Whether two stored values are the same; `tolerance`: numbers this close are.
    static func equal(_ a: Value, _ b: Value, tolerance: Double?) -> Bool {
        // Two decimals compare digit for digit (a server's numeric), not as doubles.
        if case .decimal(let x) = a, case .decimal(let y) = b, tolerance == nil {
            if let dx = DecimalText.value(x), let dy = DecimalText.value(y) { return dx == dy }
            return x == y
        }
        if let tolerance, rank(a) == 1, rank(b) == 1 { return abs(number(a) - number(b)) <= tolerance }
        return compare(a, b) == 0
    }

    /// A stored value as its attribute reads it, for showing: a date kept as seconds as a
    /// date, a boolean kept as a number as true or false. Other values as they are.
    static func shown(_ v: Value, as type: AttributeType?) -> Value {
        switch (type, v) {
        case (.date?, .integer(let i)): return .date(Double(i))
        case (.date?, .real(let d)): return .date(d)
        case (.bool?, .integer(let i)): return .bool(i != 0)
        default: return v
        }
    }

    /// A value as one line of text (a composite key's part, an object's reference).
    static func text(_ v: Value) -> String {
        switch v {
        case .null: return "nil"
        case .integer(let i): return String(i)
        case .real(let d), .date(let d): return String(d)
        case .bool(let b): return String(b)
        case .decimal(let s): return s
        case .text(let s): return s
        case .textBytes(let b): return String(decoding: b, as: UTF8.self)
        case .blob(let b): return "<\(b.count) bytes>"
        }
    }
}

/// What an imported column holds, narrowed cell by cell: every column starts as "any
/// type", and each non-nil cell removes the types it does not fit.
struct ColumnType {
    private(set) var canBeInteger = true
    private(set) var canBeDouble = true
    private(set) var canBeBool = true
    private(set) var canBeDate = true
    private(set) var sawNil = false
    private(set) var sawValue = false

    /// Empty fields and `NA` are nil, as R and the sqlite3 shell's users expect.
    static func isNil(_ b: UnsafeBufferPointer<UInt8>, quoted: Bool) -> Bool {
        b.isEmpty || (!quoted && b.count == 2 && b[0] == 78 && b[1] == 65)
    }

    mutating func observe(_ b: UnsafeBufferPointer<UInt8>, quoted: Bool) {
        if Self.isNil(b, quoted: quoted) { sawNil = true; return }
        sawValue = true
        if canBeInteger, Self.integer(b) == nil { canBeInteger = false }
        if canBeDouble, !canBeInteger, Self.double(b) == nil { canBeDouble = false }
        if canBeBool, Self.bool(b) == nil { canBeBool = false }
        if canBeDate, Value.parseISO8601(bytes: b) == nil { canBeDate = false }
    }

    /// The same narrowing for a value read from JSON.
    mutating func observe(_ value: Value) {
        switch value {
        case .null: sawNil = true; return
        case .integer: canBeBool = false; canBeDate = false
        case .real: canBeInteger = false; canBeBool = false; canBeDate = false
        case .bool: canBeInteger = false; canBeDouble = false; canBeDate = false
        case .text(let s):
            canBeInteger = false; canBeDouble = false; canBeBool = false
            if canBeDate, Value.parseISO8601(s) == nil { canBeDate = false }
        default: canBeInteger = false; canBeDouble = false; canBeBool = false; canBeDate = false
        }
        sawValue = true
    }

    /// The attribute type: the narrowest that every value fits.
    var attributeType: AttributeType {
        guard sawValue else { return .string }
        if canBeInteger { return .int64 }
        if canBeDouble { return .double }
        if canBeBool { return .bool }
        if canBeDate { return .date }
        return .string
    }

    static func integer(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        var negative = false
        if i < b.count, b[i] == 45 || b[i] == 43 { negative = b[i] == 45; i += 1 }
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

    static func double(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        // Only plain decimal notation: "nan", "inf" and hex floats stay strings.
        guard b.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 45 || $0 == 43 || $0 == 101 || $0 == 69 }) else { return nil }
        guard let d = Double(String(decoding: b, as: UTF8.self)), d.isFinite else { return nil }
        return d
    }

    static func bool(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard b.count == 4 || b.count == 5 else { return nil }
        switch String(decoding: b, as: UTF8.self).lowercased() {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }
}

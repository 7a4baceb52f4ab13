import QuarryEngine

/// The order of Foundation's `localizedStandardCompare(_:)` (`SortDescriptor`'s
/// `.localizedStandard`, Finder's order) as a key compared by its code points: the text
/// folded as `[cd]` folds it, each run of ASCII digits replaced by a code that orders by
/// the number's value (`Item 2` before `Item 10`). SQLite sorts by the same key
/// (`quarry_standard_key`) that memory computes here, so both put rows in one order.
/// Foundation's collation beyond that (width, punctuation weights) is not repeated.
public enum StandardOrder {
    static let function = "quarry_standard_key"

    /// The sort key of `text`.
    public static func key(_ text: String) -> String {
        numericRuns(PredicateFunctions.fold(text, [.caseInsensitive, .diacriticInsensitive]))
    }

    /// `text` with each run of ASCII digits written as its length's code and the digits
    /// without leading zeros, so that runs compare by value and the rest as it is.
    /// The code stays in the digits' range, so a number sorts where a digit would among
    /// other characters (before letters, after spaces).
    static func numericRuns(_ text: String) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.contains(where: isDigit) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 8)
        var i = 0
        while i < utf8.count {
            guard isDigit(utf8[i]) else {
                out.append(utf8[i])
                i += 1
                continue
            }
            var end = i
            while end < utf8.count, isDigit(utf8[end]) { end += 1 }
            var start = i
            while start < end, utf8[start] == UInt8(ascii: "0") { start += 1 }
            out += lengthCode(end - start)
            out += utf8[start..<end]
            i = end
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A code for `length` that no other length's code begins (so what follows a number
    /// is never compared with a digit of a longer one) and that orders as the lengths
    /// do: "0" for no digits (a run of zeros), "1"..."8", then "9" before the code of
    /// `length - 8` ("91" for 9 digits, "98" for 16, "991" for 17).
    static func lengthCode(_ length: Int) -> [UInt8] {
        guard length > 0 else { return [UInt8(ascii: "0")] }
        let nines = (length - 1) / 8
        return [UInt8](repeating: UInt8(ascii: "9"), count: nines) + [UInt8(ascii: "0") + UInt8(length - 8 * nines)]
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

extension StandardOrder {
    /// `expression`'s key in SQL: folded as `[cd]` folds, then its digit runs coded by
    /// Quarry's function, which `key(_:)` repeats in memory.
    public static func sql(_ expression: String, dialect: any SQLDialect) -> String {
        if let key = dialect.fold(expression, caseInsensitive: true, diacriticInsensitive: true, digitRuns: true) { return key }
        return dialect.call(function, [PredicateFunctions.sqlFold(expression, [.caseInsensitive, .diacriticInsensitive], dialect: dialect)])
    }
}

import QuarryModel

/// The server's refusals of a number past a bound, said in one line: `numeric`
/// arithmetic past the type's digits ("value overflows numeric format") as Quarry's
/// decimals refuse the same result (`ExactDecimal.Failure.overflow`), and a `numeric`
/// made a double that no double holds, which the server says by quoting all of its
/// digits (131,072 of them at the bound: the line was a page long), by its magnitude.
enum PostgresNumericBounds {
    /// The line for the server's primary message of a 22003 refusal; nil for another.
    static func said(_ primary: String) -> String? {
        if primary == "value overflows numeric format" { return ExactDecimal.Failure.overflow.description }
        let suffix = "\" is out of range for type double precision"
        guard primary.hasPrefix("\""), primary.hasSuffix(suffix) else { return nil }
        let number = primary.dropFirst().dropLast(suffix.count)
        guard let magnitude = magnitude(of: number) else { return nil }
        return "a decimal of about \(magnitude) is past what a double holds, and this statement computes it as one "
            + "(PostgreSQL refuses it where SQLite reads it as 0 or an infinity)"
    }

    /// `1e131071` for a number of 131,072 digits before the point, `1e-16383` for one whose
    /// first digit is the 16,383rd after it: a power of ten, sign kept; nil for text that
    /// is not a plain decimal.
    static func magnitude(of number: Substring) -> String? {
        var digits = number
        let sign = digits.first == "-" ? "-" : ""
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        let integer = whole.drop { $0 == "0" }
        if !integer.isEmpty { return "\(sign)1e\(integer.count - 1)" }
        guard parts.count == 2 else { return nil }
        let zeros = parts[1].prefix { $0 == "0" }.count
        guard zeros < parts[1].count else { return nil }
        return "\(sign)1e-\(zeros + 1)"
    }
}

/// A cursor over text's bytes that reads SQLite's number syntax as `sqlite3AtoF` does
/// (spaces, a sign, digits, a point, an exponent): the pieces `NumericAffinity.numeric`
/// and `SQLOrdering.numericPrefix` both read, each deciding what the pieces make.
package struct NumberSyntaxScanner {
    package let bytes: [UInt8]
    package var i = 0

    package init(_ text: String) { bytes = Array(text.utf8) }

    /// C's `isspace` in the C locale, as `sqlite3Isspace` (vertical tab included).
    package static let spaces: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D]

    package var isAtEnd: Bool { i >= bytes.count }

    package mutating func skipSpaces() {
        while i < bytes.count, Self.spaces.contains(bytes[i]) { i += 1 }
    }

    /// Reads the digits here; how many.
    package mutating func digits() -> Int {
        let from = i
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
        return i - from
    }

    /// Reads `a` or `b` here, if one is; which.
    package mutating func take(_ a: UInt8, or b: UInt8) -> UInt8? {
        guard i < bytes.count, bytes[i] == a || bytes[i] == b else { return nil }
        defer { i += 1 }
        return bytes[i]
    }

    package func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
}

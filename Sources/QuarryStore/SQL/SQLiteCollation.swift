import QuarryModel

/// How SQLite's built-in collations compare text, for the comparisons Quarry makes in
/// memory (unsaved objects, observers) that SQLite makes by a column's collation.
package enum SQLiteCollation {
    /// Text as `collation` compares it: NOCASE folds ASCII letters only, RTRIM leaves out
    /// trailing spaces; any other value, or collation, as it is.
    package static func collated(_ value: Value, _ collation: String) -> Value {
        guard case .text(let text) = value else { return value }
        var bytes = Array(text.utf8)
        switch collation {
        case "NOCASE": bytes = bytes.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 }
        case "RTRIM": while bytes.last == 0x20 { bytes.removeLast() }
        default: return value
        }
        return .text(String(decoding: bytes, as: UTF8.self))
    }
}

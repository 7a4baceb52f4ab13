/// `text` as a JSON string literal (quotes, backslashes and control characters escaped).
public func jsonQuoted(_ text: String) -> String {
    "\""
        + escaping(text) { scalar in
            switch scalar {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: return nil
            }
        } + "\""
}

/// `text` as a JSON string literal (quotes, backslashes and control characters escaped).
public func jsonQuoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

extension Value {
    /// A scalar as `JSONSerialization` parsed it, with booleans, integers and reals told
    /// apart as JSON import tells them apart.
    public init(jsonScalar any: Any) {
        self = (try? JSONImport.value(any)) ?? .null
    }
}

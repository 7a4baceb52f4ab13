import QuarryModel

/// A value as Lua source writes it, so that `.schema`'s lines run as printed: text
/// quoted, a date as `date("...")`, numbers and booleans bare.
func luaLiteral(_ value: Value) -> String {
    switch value {
    case .real(let number) where !number.isFinite: return number.isNaN ? "0/0" : number < 0 ? "-1/0" : "1/0"
    case .integer, .real, .decimal: return value.displayString
    case .bool(let flag): return flag ? "true" : "false"
    case .date: return "date(\(luaQuote(value.displayString)))"
    case .text(let text): return luaQuote(text)
    // Bytes as Lua's escapes, so the literal reads back as the same string (`""` for X'').
    case .blob(let bytes), .textBytes(let bytes):
        return "\""
            + bytes.map { byte in
                switch byte {
                case 0x22: return "\\\""
                case 0x5C: return "\\\\"
                case 0x20...0x7E: return String(UnicodeScalar(byte))
                default: return "\\x" + String(format: "%02x", byte)
                }
            }.joined() + "\""
    default: return luaQuote(value.displayString)
    }
}

/// A Lua string literal for any text.
func luaQuote(_ text: String) -> String {
    "\""
        + text.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: return String(format: "\\%03d", scalar.value)
            // C1 controls and the line separators would act on a terminal or end a line.
            case _ where (0x80...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
                return "\\u{" + String(scalar.value, radix: 16) + "}"
            default: return String(scalar)
            }
        }.joined() + "\""
}

/// A table key as Lua source writes it: bare when it is a name Lua takes (`title`), else
/// quoted in brackets (`["my col"]`, `["end"]`), so `.schema`'s output loads again.
func luaKey(_ name: String) -> String {
    let reserved: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"
    ]
    let bytes = Array(name.utf8)
    let isName =
        !bytes.isEmpty && !(bytes[0] >= 48 && bytes[0] <= 57)
        && bytes.allSatisfy { $0 == 95 || ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }
    return isName && !reserved.contains(name) ? name : "[" + luaQuote(name) + "]"
}

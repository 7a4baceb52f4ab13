import Foundation

/// `text` as a Swift string literal that reads back as `text` and nothing else: quotes,
/// backslashes, line breaks and every other control or line-separating character are
/// escaped, so no value can end the literal or the line (`"#); exit(42) //` stays text).
public func swiftStringLiteral(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\0": out += "\\0"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0x85
            {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// `text` as a raw Swift string literal (`#"..."#`, which keeps a format's quotes
/// readable), with as many `#` as it takes for no `"#…` or `\#…` in the text to end the
/// literal or interpolate; text with a line break or a control character is written as
/// an escaped literal instead (a raw literal on one line cannot hold those).
public func swiftRawStringLiteral(_ text: String) -> String {
    if text.unicodeScalars.contains(where: {
        $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
    }) {
        return swiftStringLiteral(text)
    }
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    return hashes + "\"" + text + "\"" + hashes
}

/// `text` as one line comment: `// ` and the text with every line break and control
/// character escaped (`\u{a}`), so no name or value in it can end the comment and start
/// code on the next line.
public func swiftComment(_ text: String) -> String {
    var out = "// "
    for scalar in text.unicodeScalars {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .format:
            out += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// A string a `#Predicate` may hold as a constant: one in Unicode's composed form (NFC).
/// Swift's `==` holds for `"cafe\u{301}"` and `"café"`, where a store compares code points,
/// so a constant in another form would select other rows in the app than in Quarry: the
/// export refuses to write one and the reader to read one, in these words.
public enum SwiftComposedText {
    public static let refusal =
        "a string not in Unicode's composed form (NFC): Swift compares strings by canonical equivalence, SQL by code points"

    public static func isComposed(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value < 0x300 }
            || text.unicodeScalars.elementsEqual(text.precomposedStringWithCanonicalMapping.unicodeScalars)
    }
}

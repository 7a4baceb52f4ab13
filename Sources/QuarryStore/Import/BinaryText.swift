import Foundation
import QuarryModel

/// A binary attribute's value in a file of text (a CSV field, a JSON string): export
/// writes bytes as base64 (`TableWriter`), so import reads base64 back into the bytes it
/// stands for, and an export imported again holds the same bytes. PostgreSQL's own text
/// of a `bytea` (`\x` and two hex digits a byte, as `COPY` and psql's `\copy` write it)
/// is read too: no base64 text starts with a backslash. Other text is refused, not taken
/// as its own bytes: those would be another value, silently.
enum BinaryText {
    /// The bytes `text` stands for, or nil when it is neither base64 (RFC 4648, padded, as
    /// export writes it) nor `\x` hex.
    static func bytes(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        if text.count >= 2, text[0] == 92, text[1] == 120 || text[1] == 88 { return hex(text.dropFirst(2)) }
        return Data(base64Encoded: Data(text)).map { [UInt8]($0) }
    }

    static func bytes(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { bytes($0) }
    }

    /// Why `text` is refused for `attribute`, as an import's reason.
    static func refusal(_ attribute: AttributeDescription, _ text: UnsafeBufferPointer<UInt8>) -> String {
        let shown = String(decoding: text.prefix(40), as: UTF8.self) + (text.count > 40 ? "…" : "")
        return "'\(attribute.name)' expects binary as base64 (as export writes it) or \\x hex, got \"\(shown)\""
    }

    static func refusal(_ attribute: AttributeDescription, _ text: String) -> String {
        var text = text
        return text.withUTF8 { refusal(attribute, $0) }
    }

    /// Pairs of hex digits as bytes; nil for an odd count or another character.
    private static func hex(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8]? {
        guard digits.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var i = digits.startIndex
        while i < digits.endIndex {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }
}

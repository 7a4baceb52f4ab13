import Foundation
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Constants as the `#Predicate` writes them: literals of the attribute's Swift type, or
/// typed captures before the closure (lists, dates, UUIDs, data).
extension SwiftPredicateWriter {
    /// A list for IN, captured with its element type: `let values: [String] = [...]`.
    func listCapture(_ values: [Value], _ attribute: AttributeDescription?) throws -> String {
        guard let attribute, let type = swiftType(of: attribute) else { throw SwiftExportRefusal("IN on a value of no Swift type") }
        let elements = try values.map { try constant($0, attribute.type) }
        return capture("values", "[\(type)]", "[" + elements.joined(separator: ", ") + "]")
    }

    /// A constant as the closure reads it: a literal where Swift has one of the type
    /// (numbers, strings, booleans, nil), else a typed capture (dates, UUIDs, data).
    func literal(_ operand: BoundPredicate.Operand, _ attribute: AttributeDescription?, _ scope: Scope, optional: Bool = false) throws
        -> String
    {
        switch operand {
        case .value(let v):
            let text = try constant(v, attribute?.type)
            guard let attribute, let type = swiftType(of: attribute), !v.isNull else { return text }
            if case .real(let d) = v, !d.isFinite { return capture("value", type + (optional ? "?" : ""), text) }
            var isLiteral: Bool {
                switch v {
                case .integer, .real, .text, .bool: return true
                default: return false
                }
            }
            // In the closure `-9223372036854775808` is `-` applied to a literal Int64 cannot hold.
            var isNegative: Bool {
                switch v {
                case .integer(let i): return i < 0
                case .real(let d): return d < 0
                default: return false
                }
            }
            // In the closure `-9223372036854775808` is `-` applied to a literal Int64 cannot
            // hold, and `d != -7.0` with `d` a `Double?` applies `-` to an optional.
            if typed && isLiteral || v == .integer(Int64.min) || optional && isNegative {
                return capture("value", type + (optional ? "?" : ""), text)
            }
            // `Decimal(string:)!` is a call, which a `#Predicate` closure cannot make.
            if case .decimal = v { return capture("value", type + (optional ? "?" : ""), text) }
            switch attribute.type {
            case .date:
                // The seconds since 2001 said as a person reads them, for any year 1-9999
                // (before 1970 and after 2038 alike): `// 1965-12-01T00:00:00Z`.
                guard case .date(let seconds) = v else { return capture("date", type + (optional ? "?" : ""), text) }
                return capture("date", type + (optional ? "?" : ""), text + " // " + Value.iso8601(seconds))
            case .uuid: return capture("uuid", type + (optional ? "?" : ""), text)
            case .binary: return capture("data", type + (optional ? "?" : ""), text)
            default: return text
            }
        case .list: throw SwiftExportRefusal("a list outside IN or BETWEEN")
        default: return try swiftValue(operand, scope)?.text ?? ""
        }
    }

    /// `value` as a Swift expression of `type`'s Swift type that cannot fail.
    func constant(_ value: Value, _ type: AttributeType?) throws -> String {
        switch value {
        case .null: return "nil"
        case .integer(let i): return String(i)
        case .real(let d) where d.isNaN: return "Double.nan"
        case .real(let d) where d.isInfinite: return d < 0 ? "-Double.infinity" : "Double.infinity"
        case .real(let d): return "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .text(let s) where type == .uuid:
            guard let uuid = Self.uuidLiteral(s) else { throw SwiftExportRefusal("'\(s)' is not a UUID") }
            return uuid
        case .text(let s) where !SwiftComposedText.isComposed(s):
            // Swift's == holds for "cafe\u{301}" and "café"; SQL compares code points.
            throw SwiftExportRefusal(SwiftComposedText.refusal)
        case .text(let s): return swiftStringLiteral(s)
        case .textBytes: throw SwiftExportRefusal("text that is not UTF-8: a Swift String cannot hold it")
        case .date(let d): return "Date(timeIntervalSinceReferenceDate: \(d - referenceDateOffset))"
        case .blob(let bytes): return "Data([" + bytes.map { "0x" + String($0, radix: 16) }.joined(separator: ", ") + "])"
        case .decimal(let s): return "Decimal(string: \(swiftStringLiteral(s)))!"
        }
    }

    /// A UUID's text as `UUID(uuid: (0x0C, ...))`, which cannot fail as `UUID(uuidString:)!`
    /// could; nil when the text is not a UUID's.
    static func uuidLiteral(_ text: String) -> String? {
        let hex = Array(text.filter(\.isHexDigit))
        guard hex.count == 32, text.count == 36 else { return nil }
        let bytes = stride(from: 0, to: 32, by: 2).map { "0x" + String(hex[$0...($0 + 1)]).uppercased() }
        return "UUID(uuid: (\(bytes.joined(separator: ", "))))"
    }
}

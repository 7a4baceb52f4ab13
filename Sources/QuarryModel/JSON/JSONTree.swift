/// A whole JSON document in memory, read by Quarry's own lexer (`JSONScanning`) rather
/// than `JSONDecoder`: the stored model is read at every open, and `Codable`'s generic
/// containers cost a batch run more to set up (0.7 ms of runtime metadata) than the
/// reading itself.
package enum JSONTree {
    case null
    case bool(Bool)
    /// A number without fraction or exponent that fits Int64.
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONTree])
    /// Members in the order written; a key given twice keeps its last value.
    case object([(key: String, value: JSONTree)])

    /// The document `text` holds: one value, with only white space around it.
    package init(parsing text: String) throws {
        var reader = Reader(bytes: Array(text.utf8))
        try reader.skipSpace()
        self = try reader.value(depth: 1)
        try reader.skipSpace()
        guard reader.peek() == nil else { throw JSONSyntax() }
    }

    package subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    // What a member holds, when it is of that kind.
    package var isNull: Bool { if case .null = self { return true } else { return false } }
    package var string: String? { if case .string(let s) = self { return s } else { return nil } }
    package var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    package var array: [JSONTree]? { if case .array(let a) = self { return a } else { return nil } }
    package var integer: Int64? { if case .integer(let i) = self { return i } else { return nil } }
    /// A JSON number as a Double (JSONEncoder writes 2.0 as `2`).
    package var double: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }
    package var strings: [String]? {
        guard let array else { return nil }
        let strings = array.compactMap(\.string)
        return strings.count == array.count ? strings : nil
    }

    private struct Reader: JSONScanning {
        package let bytes: [UInt8]
        package var position = 0

        package func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }
        package mutating func advance() { position += 1 }

        /// A string without escapes (nearly every key and value) made from its bytes in
        /// place: gathering each into an array first was most of reading a stored model.
        package mutating func string() throws -> String {
            guard peek() == 34 else { throw JSONSyntax() }
            var end = position + 1
            var ascii = true
            while end < bytes.count, bytes[end] != 34 {
                if bytes[end] == 92 || bytes[end] < 0x20 { return try scanString() }
                if bytes[end] >= 0x80 { ascii = false }
                end += 1
            }
            guard end < bytes.count else { throw JSONSyntax() }
            // ASCII needs no validating (`String(validating:)` costs ~1,000 instructions a short string).
            let text = bytes.withUnsafeBufferPointer { all in
                let run = UnsafeBufferPointer(rebasing: all[(position + 1)..<end])
                return ascii ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
            }
            guard let text else { throw JSONSyntax() }
            position = end + 1
            return text
        }

        package mutating func value(depth: Int) throws -> JSONTree {
            guard depth <= JSONSyntax.maxDepth, let c = peek() else { throw JSONSyntax() }
            switch c {
            case 34: return .string(try string())
            case 116:
                try word("true")
                return .bool(true)
            case 102:
                try word("false")
                return .bool(false)
            case 110:
                try word("null")
                return .null
            case 91:
                advance()
                var elements: [JSONTree] = []
                try members(closedBy: 93) { reader in elements.append(try reader.value(depth: depth + 1)) }
                return .array(elements)
            case 123:
                advance()
                var members: [(key: String, value: JSONTree)] = []
                try self.members(closedBy: 125) { reader in
                    let key = try reader.string()
                    try reader.skipSpace()
                    try reader.expect(58) // :
                    try reader.skipSpace()
                    members.append((key, try reader.value(depth: depth + 1)))
                }
                return .object(members)
            default:
                let number = try numberText()
                if number.integral, let i = Int64(number.text) { return .integer(i) }
                guard let d = Double(number.text), d.isFinite else { throw JSONSyntax() }
                return .number(d)
            }
        }

        /// The comma-separated items up to `close` (just after the opening bracket).
        private mutating func members(closedBy close: UInt8, _ item: (inout Reader) throws -> Void) throws {
            try skipSpace()
            if peek() == close {
                advance()
                return
            }
            while true {
                try skipSpace()
                try item(&self)
                try skipSpace()
                let c = try take()
                if c == close { return }
                guard c == 44 else { throw JSONSyntax() }
            }
        }
    }
}

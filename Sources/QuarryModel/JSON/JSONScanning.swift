/// JSON's tokens (strings, numbers, the three words, white space) read from bytes, one
/// lexer for both of Quarry's JSON readers: the streaming array reader of `import` and
/// the document reader of the stored model. A reader supplies the bytes; a token it
/// cannot read is `JSONSyntax`, and nothing here traps on any input.
package protocol JSONScanning {
    /// The next byte, not consumed; nil at the end of the input.
    mutating func peek() throws -> UInt8?
    /// Consumes the byte `peek` returned.
    mutating func advance()
    /// A string token, its quotes consumed (`scanString` unless a reader knows better).
    mutating func string() throws -> String
}

/// Bytes that are not the JSON a reader expects.
package struct JSONSyntax: Error {
    package init() {}

    /// Deeper nesting than this is refused, as JSONSerialization refuses it.
    package static let maxDepth = 512
}

/// A number as JSON writes it: its text and whether it has neither fraction nor exponent.
package struct JSONNumberText {
    package var text: String
    package var integral: Bool
}

extension JSONScanning {
    package mutating func take() throws -> UInt8 {
        guard let c = try peek() else { throw JSONSyntax() }
        advance()
        return c
    }

    package mutating func skipSpace() throws {
        while let c = try peek(), c == 32 || c == 10 || c == 13 || c == 9 { advance() }
    }

    package mutating func expect(_ c: UInt8) throws {
        guard try take() == c else { throw JSONSyntax() }
    }

    package mutating func word(_ w: StaticString) throws {
        let bytes = UnsafeBufferPointer(start: w.utf8Start, count: w.utf8CodeUnitCount)
        for b in bytes { guard try take() == b else { throw JSONSyntax() } }
    }

    package mutating func numberText() throws -> JSONNumberText {
        var text: [UInt8] = []
        var integral = true
        if try peek() == 45 { text.append(try take()) }
        func digits(_ reader: inout Self) throws -> Int {
            var n = 0
            while let c = try reader.peek(), c >= 48, c <= 57 {
                text.append(c)
                reader.advance()
                n += 1
            }
            return n
        }
        let first = try peek()
        guard try digits(&self) > 0 else { throw JSONSyntax() }
        if first == 48, text.count > (text.first == 45 ? 2 : 1) { throw JSONSyntax() } // no leading zeros
        if try peek() == 46 {
            integral = false
            text.append(try take())
            guard try digits(&self) > 0 else { throw JSONSyntax() }
        }
        if let c = try peek(), c == 101 || c == 69 {
            integral = false
            text.append(try take())
            if let s = try peek(), s == 43 || s == 45 { text.append(try take()) }
            guard try digits(&self) > 0 else { throw JSONSyntax() }
        }
        return JSONNumberText(text: String(decoding: text, as: UTF8.self), integral: integral)
    }

    package mutating func string() throws -> String { try scanString() }

    /// A string token read byte by byte, its escapes decoded.
    package mutating func scanString() throws -> String {
        guard try take() == 34 else { throw JSONSyntax() }
        var bytes: [UInt8] = []
        while true {
            let c = try take()
            if c == 34 { break }
            if c < 0x20 { throw JSONSyntax() }
            guard c == 92 else {
                bytes.append(c)
                continue
            }
            let e = try take()
            switch e {
            case 34, 92, 47: bytes.append(e)
            case 98: bytes.append(8)
            case 102: bytes.append(12)
            case 110: bytes.append(10)
            case 114: bytes.append(13)
            case 116: bytes.append(9)
            case 117:
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard try take() == 92, try take() == 117 else { throw JSONSyntax() }
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw JSONSyntax() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw JSONSyntax()
                }
                guard let u = Unicode.Scalar(scalar) else { throw JSONSyntax() }
                bytes.append(contentsOf: String(Character(u)).utf8)
            default: throw JSONSyntax()
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw JSONSyntax() }
        return text
    }

    private mutating func hex4() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = try take()
            let d: UInt32
            switch c {
            case 48...57: d = UInt32(c - 48)
            case 97...102: d = UInt32(c - 87)
            case 65...70: d = UInt32(c - 55)
            default: throw JSONSyntax()
            }
            v = v * 16 + d
        }
        return v
    }
}

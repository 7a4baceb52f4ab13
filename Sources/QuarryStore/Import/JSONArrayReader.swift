import Foundation

/// A JSON array of objects read one element at a time from a stream of bytes (a chunk at
/// a time from its `ByteSource`), so a document of any size is read in the memory of one
/// element. Scalars become `Value`s as `JSONImport.value` makes them; a nested array or
/// object is kept as JSON text with sorted keys, as before.
struct JSONArrayReader {
    struct Syntax: Error {}

    /// One element of the array.
    enum Element {
        /// An object's members, keys sorted; `beyond` names a key whose integer does not fit Int64.
        case object([(key: String, value: Value)], beyond: (key: String, text: String)?)
        case notObject
    }

    private var source: ByteSource
    private var buffer = [UInt8](repeating: 0, count: CSVReader.chunkSize)
    private var filled = 0
    private var position = 0
    private var atEnd = false
    private var count = 0
    private var scratch: [UInt8] = []
    /// Deeper nesting than this inside an element is refused, as JSONSerialization refuses it.
    static let maxDepth = 512

    init(source: ByteSource) { self.source = source }

    var bytesRead: Int { source.bytesRead }

    private mutating func peek() throws -> UInt8? {
        if position < filled { return buffer[position] }
        if atEnd { return nil }
        let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        position = 0
        filled = n
        if n == 0 { atEnd = true; return nil }
        return buffer[0]
    }

    private mutating func take() throws -> UInt8 {
        guard let c = try peek() else { throw Syntax() }
        position += 1
        return c
    }

    private mutating func skipSpace() throws {
        while let c = try peek(), c == 32 || c == 10 || c == 13 || c == 9 { position += 1 }
    }

    private mutating func expect(_ c: UInt8) throws {
        guard try take() == c else { throw Syntax() }
    }

    /// Reads up to the array's `[`: false when the document is not an array.
    mutating func begin() throws -> Bool {
        try skipSpace()
        guard try peek() == 91 else { return false }
        position += 1
        return true
    }

    /// The next element, or nil after the closing `]` (with only white space after it).
    mutating func next() throws -> Element? {
        try skipSpace()
        if count == 0 {
            if try peek() == 93 { position += 1; try finish(); return nil }
        } else {
            let c = try take()
            if c == 93 { try finish(); return nil }
            guard c == 44 else { throw Syntax() }
            try skipSpace()
            // A comma before the closing bracket: JSONSerialization takes it, and so does this.
            if try peek() == 93 { position += 1; try finish(); return nil }
        }
        count += 1
        guard try peek() == 123 else {
            try skipValue(depth: 1)
            return .notObject
        }
        position += 1
        var members: [(key: String, value: Value)] = []
        var beyond: (key: String, text: String)?
        try skipSpace()
        if try peek() == 125 {
            position += 1
        } else {
            while true {
                try skipSpace()
                let key = try string()
                try skipSpace()
                try expect(58)  // :
                try skipSpace()
                let value = try value()
                switch value {
                case .value(let v): members.append((key, v))
                case .beyond(let text):
                    if beyond == nil { beyond = (key, text) }
                    members.append((key, .null))
                }
                try skipSpace()
                let c = try take()
                if c == 125 { break }
                guard c == 44 else { throw Syntax() }
                try skipSpace()
                if try peek() == 125 { position += 1; break }
            }
        }
        // Sorted, as the keys of a parsed dictionary were; a key given twice keeps its last value.
        var byKey: [String: Int] = [:]
        var unique: [(key: String, value: Value)] = []
        for member in members {
            if let i = byKey[member.key] { unique[i] = member } else { byKey[member.key] = unique.count; unique.append(member) }
        }
        return .object(unique.sorted { $0.key < $1.key }, beyond: beyond)
    }

    private mutating func finish() throws {
        try skipSpace()
        guard try peek() == nil else { throw Syntax() }
    }

    private enum Parsed { case value(Value), beyond(String) }

    private mutating func value() throws -> Parsed {
        guard let c = try peek() else { throw Syntax() }
        switch c {
        case 34: return .value(.text(try string()))
        case 123, 91:
            // Nested: its text, parsed and written again with sorted keys, as before.
            scratch.removeAll(keepingCapacity: true)
            try skipValue(depth: 1, keeping: true)
            guard let any = try? JSONSerialization.jsonObject(with: Data(scratch), options: [.fragmentsAllowed]),
                  let value = try? JSONImport.value(any) else { throw Syntax() }
            return .value(value)
        case 116: try word("true"); return .value(.bool(true))
        case 102: try word("false"); return .value(.bool(false))
        case 110: try word("null"); return .value(.null)
        default: return try number()
        }
    }

    private mutating func word(_ w: StaticString) throws {
        let bytes = UnsafeBufferPointer(start: w.utf8Start, count: w.utf8CodeUnitCount)
        for b in bytes { guard try take() == b else { throw Syntax() } }
    }

    private mutating func number() throws -> Parsed {
        var text: [UInt8] = []
        var integral = true
        if try peek() == 45 { text.append(try take()) }
        func digits(_ reader: inout JSONArrayReader) throws -> Int {
            var n = 0
            while let c = try reader.peek(), c >= 48, c <= 57 { text.append(c); reader.position += 1; n += 1 }
            return n
        }
        let first = try peek()
        guard try digits(&self) > 0 else { throw Syntax() }
        if first == 48, text.count > (text.first == 45 ? 2 : 1) { throw Syntax() }  // no leading zeros
        if try peek() == 46 {
            integral = false
            text.append(try take())
            guard try digits(&self) > 0 else { throw Syntax() }
        }
        if let c = try peek(), c == 101 || c == 69 {
            integral = false
            text.append(try take())
            if let s = try peek(), s == 43 || s == 45 { text.append(try take()) }
            guard try digits(&self) > 0 else { throw Syntax() }
        }
        let string = String(decoding: text, as: UTF8.self)
        if integral {
            if let i = Int64(string) { return .value(.integer(i)) }
            return .beyond(string)
        }
        guard let d = Double(string), d.isFinite else { throw Syntax() }
        return .value(.real(d))
    }

    private mutating func string() throws -> String {
        guard try take() == 34 else { throw Syntax() }
        var bytes: [UInt8] = []
        while true {
            let c = try take()
            if c == 34 { break }
            if c < 0x20 { throw Syntax() }
            guard c == 92 else { bytes.append(c); continue }
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
                    guard try take() == 92, try take() == 117 else { throw Syntax() }
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw Syntax() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw Syntax()
                }
                guard let u = Unicode.Scalar(scalar) else { throw Syntax() }
                bytes.append(contentsOf: String(Character(u)).utf8)
            default: throw Syntax()
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Syntax() }
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
            default: throw Syntax()
            }
            v = v * 16 + d
        }
        return v
    }

    /// Reads past one value, checking its syntax; with `keeping`, its bytes go to `scratch`.
    private mutating func skipValue(depth: Int, keeping: Bool = false) throws {
        guard depth <= Self.maxDepth else { throw Syntax() }
        try skipSpace()
        guard let c = try peek() else { throw Syntax() }
        func keep(_ reader: inout JSONArrayReader, _ b: UInt8) { if keeping { reader.scratch.append(b) } }
        switch c {
        case 123, 91:
            position += 1
            keep(&self, c)
            let close: UInt8 = c == 123 ? 125 : 93
            try skipSpace()
            if try peek() == close { position += 1; keep(&self, close); return }
            while true {
                try skipSpace()
                if c == 123 {
                    let key = try string()
                    if keeping { scratch.append(contentsOf: Array(jsonQuoted(key).utf8)) }
                    try skipSpace()
                    try expect(58)
                    keep(&self, 58)
                }
                try skipValue(depth: depth + 1, keeping: keeping)
                try skipSpace()
                let next = try take()
                keep(&self, next)
                if next == close { return }
                guard next == 44 else { throw Syntax() }
                try skipSpace()
                if try peek() == close {
                    // A trailing comma, as above: the kept text leaves it out.
                    position += 1
                    if keeping { scratch.removeLast(); scratch.append(close) }
                    return
                }
            }
        case 34:
            let text = try string()
            if keeping { scratch.append(contentsOf: Array(jsonQuoted(text).utf8)) }
        default:
            switch try value() {
            case .value(let v):
                if keeping {
                    switch v {
                    case .integer(let i): scratch.append(contentsOf: Array(String(i).utf8))
                    case .real(let d): scratch.append(contentsOf: Array("\(d)".utf8))
                    case .bool(let b): scratch.append(contentsOf: Array((b ? "true" : "false").utf8))
                    default: scratch.append(contentsOf: Array("null".utf8))
                    }
                }
            case .beyond(let text):
                if keeping { scratch.append(contentsOf: Array(text.utf8)) }
            }
        }
    }
}

import Foundation
import QuarryModel

/// A JSON array of objects read one element at a time from a stream of bytes (a chunk at
/// a time from its `ByteSource`), so a document of any size is read in the memory of one
/// element. Scalars become `Value`s as `JSONImport.value` makes them; a nested array or
/// object is kept as JSON text with sorted keys, as before. An element's members keep the
/// order the file wrote them in, which is the order of the columns an import makes.
struct JSONArrayReader: JSONScanning {
    /// One element of the array.
    enum Element {
        /// An object's members in the file's order; `beyond` names a key whose number Quarry cannot
        /// hold (an integer beyond Int64, or beyond a double's range, 1e400).
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
    /// The first number no double holds met inside the nested value being kept.
    private var nestedBeyond: String?

    init(source: ByteSource) { self.source = source }

    var bytesRead: Int { source.bytesRead }

    mutating func peek() throws -> UInt8? {
        if position < filled { return buffer[position] }
        if atEnd { return nil }
        let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        position = 0
        filled = n
        if n == 0 {
            atEnd = true
            return nil
        }
        return buffer[0]
    }

    mutating func advance() { position += 1 }

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
            if try peek() == 93 {
                position += 1
                try finish()
                return nil
            }
        } else {
            let c = try take()
            if c == 93 {
                try finish()
                return nil
            }
            guard c == 44 else { throw JSONSyntax() }
            try skipSpace()
            // A comma before the closing bracket: JSONSerialization takes it, and so does this.
            if try peek() == 93 {
                position += 1
                try finish()
                return nil
            }
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
                try expect(58) // :
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
                guard c == 44 else { throw JSONSyntax() }
                try skipSpace()
                if try peek() == 125 {
                    position += 1
                    break
                }
            }
        }
        // In the file's order (sorted, they made a file's columns alphabetical, trial 27); a
        // key given twice keeps its first place and its last value.
        var byKey: [String: Int] = [:]
        var unique: [(key: String, value: Value)] = []
        for member in members {
            if let i = byKey[member.key] {
                unique[i] = member
            } else {
                byKey[member.key] = unique.count
                unique.append(member)
            }
        }
        return .object(unique, beyond: beyond)
    }

    /// Reads past one whole document (any JSON value, white space around it), checking
    /// its syntax: throws `JSONSyntax` where it is not JSON.
    mutating func skipDocument() throws {
        try skipValue(depth: 1)
        try finish()
    }

    private mutating func finish() throws {
        try skipSpace()
        guard try peek() == nil else { throw JSONSyntax() }
    }

    private enum Parsed { case value(Value), beyond(String) }

    private mutating func value() throws -> Parsed {
        guard let c = try peek() else { throw JSONSyntax() }
        switch c {
        case 34: return .value(.text(try string()))
        case 123, 91:
            // Nested: its text, parsed and written again with sorted keys, as before.
            scratch.removeAll(keepingCapacity: true)
            nestedBeyond = nil
            try skipValue(depth: 1, keeping: true)
            // A number no double holds, inside: the member is refused naming it, as above.
            if let text = nestedBeyond { return .beyond(text) }
            guard let any = try? JSONSerialization.jsonObject(with: Data(scratch), options: [.fragmentsAllowed]),
                let value = try? JSONImport.value(any)
            else { throw JSONSyntax() }
            return .value(value)
        case 116:
            try word("true")
            return .value(.bool(true))
        case 102:
            try word("false")
            return .value(.bool(false))
        case 110:
            try word("null")
            return .value(.null)
        default: return try number()
        }
    }

    private mutating func number() throws -> Parsed {
        let number = try numberText()
        if number.integral {
            if let i = Int64(number.text) { return .value(.integer(i)) }
            return .beyond(number.text)
        }
        // 1e400 is valid JSON, but no double holds it: refused by name (as an integer
        // beyond Int64 is), not as "not valid JSON", nor kept as text (a column of
        // numbers would then become a text column because of one cell).
        guard let d = Double(number.text) else { throw JSONSyntax() }
        guard d.isFinite else { return .beyond(number.text) }
        // More digits than the double keeps: the number as written, so a decimal attribute
        // gets every digit (or, on SQLite, refuses it as a save does) and a double one its
        // nearest double, as before.
        if DecimalText.inexactAsDouble(number.text) != nil { return .value(.decimal(number.text)) }
        return .value(.real(d))
    }

    /// Reads past one value, checking its syntax; with `keeping`, its bytes go to `scratch`.
    private mutating func skipValue(depth: Int, keeping: Bool = false) throws {
        guard depth <= JSONSyntax.maxDepth else { throw JSONSyntax() }
        try skipSpace()
        guard let c = try peek() else { throw JSONSyntax() }
        func keep(_ reader: inout JSONArrayReader, _ b: UInt8) { if keeping { reader.scratch.append(b) } }
        switch c {
        case 123, 91:
            position += 1
            keep(&self, c)
            let close: UInt8 = c == 123 ? 125 : 93
            try skipSpace()
            if try peek() == close {
                position += 1
                keep(&self, close)
                return
            }
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
                guard next == 44 else { throw JSONSyntax() }
                try skipSpace()
                if try peek() == close {
                    // A trailing comma, as above: the kept text leaves it out.
                    position += 1
                    if keeping {
                        scratch.removeLast()
                        scratch.append(close)
                    }
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
                    case .decimal(let text): scratch.append(contentsOf: Array(text.utf8))
                    case .bool(let b): scratch.append(contentsOf: Array((b ? "true" : "false").utf8))
                    default: scratch.append(contentsOf: Array("null".utf8))
                    }
                }
            case .beyond(let text):
                if keeping { scratch.append(contentsOf: Array(text.utf8)) }
                if keeping, nestedBeyond == nil, !JSONImport.isIntegerText(text) { nestedBeyond = text }
            }
        }
    }
}

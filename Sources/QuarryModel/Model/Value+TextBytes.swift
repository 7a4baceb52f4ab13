/// Text as its bytes. SQLite keeps whatever bytes a program stored as TEXT (Chrome keeps
/// 32-byte hashes so), and Lua strings are bytes: a value that is not UTF-8 goes from the
/// file to Lua and back unchanged as `.textBytes`, while UTF-8 text, nearly all of it,
/// stays a `String`.
extension Value {
    /// Text read as bytes: `.text` when they are UTF-8, `.textBytes` otherwise.
    public init(storedText bytes: UnsafeBufferPointer<UInt8>) {
        // ASCII is UTF-8 as it stands: decoded without the validation, whose generic
        // path was 2% of making 20,000 objects from Lua strings.
        if bytes.allSatisfy({ $0 < 0x80 }) {
            self = .text(String(decoding: bytes, as: UTF8.self))
        } else if let text = String(validating: bytes, as: UTF8.self) {
            self = .text(text)
        } else {
            self = .textBytes(Array(bytes))
        }
    }

    /// The same for bytes held in an array.
    public init(storedText bytes: [UInt8]) {
        self = bytes.withUnsafeBufferPointer { Value(storedText: $0) }
    }

    /// Text a row holds, as every read of a row keeps it (`RowCursor.value`, a batch's
    /// cells): UTF-8 up to its first NUL, as SQLite's C-string reads (GRDB's among them)
    /// have always given it, so that reads agree whichever way they go (a string attribute
    /// holds no NUL); bytes that are not UTF-8 whole, as `.textBytes`.
    public init(rowText bytes: UnsafeBufferPointer<UInt8>) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            self = .textBytes(Array(bytes))
            return
        }
        if let nul = bytes.firstIndex(of: 0) {
            self = .text(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<nul]), as: UTF8.self))
        } else {
            self = .text(text)
        }
    }

    /// Whether the value is text, UTF-8 or not.
    public var isText: Bool {
        switch self {
        case .text, .textBytes: return true
        default: return false
        }
    }

    /// A text value's bytes, UTF-8 or not; nil for any other kind.
    public var bytesOfText: [UInt8]? {
        switch self {
        case .text(let text): return Array(text.utf8)
        case .textBytes(let bytes): return bytes
        default: return nil
        }
    }

    /// `body` given a text value's bytes without copying a `String`'s; nil for any other kind.
    public func withTextBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        switch self {
        case .text(var text): return try text.withUTF8(body)
        case .textBytes(let bytes): return try bytes.withUnsafeBufferPointer(body)
        default: return nil
        }
    }

    /// Bytes as a person reads them: each UTF-8 sequence as its character, each byte that
    /// is not part of one as `\xFF` (as Lua writes a byte in a string), so a terminal is
    /// never sent a raw invalid byte and the value can still be told from others. Each
    /// run of UTF-8 between them goes through `escapingText` (a Lua literal escapes its
    /// quotes and backslashes there).
    public static func escapingInvalidUTF8(_ bytes: [UInt8], escapingText: (String) -> String = { $0 }) -> String {
        var out = ""
        out.reserveCapacity(bytes.count * 2)
        var run = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                run.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                position += encoded.count
            case .error(let length):
                out += escapingText(run)
                run = ""
                for byte in bytes[position..<(position + length)] { out += "\\x" + hexDigits(byte) }
                position += length
            case .emptyInput:
                return out + escapingText(run)
            }
        }
    }

    private static func hexDigits(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}

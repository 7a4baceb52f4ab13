/// An RFC 4180 reader over a file's bytes: comma-separated fields, double-quoted fields
/// with `""` for a quote, CRLF or LF line ends. It hands out each record's fields as byte
/// ranges into one buffer, so reading allocates nothing per field.
struct CSVReader {
    private let bytes: [UInt8]
    private var position = 0
    /// The line on which the current record starts (1-based).
    private(set) var line = 1
    private var nextLine = 1
    /// Fields of the current record; quoted fields with `""` are unescaped into `scratch`.
    private(set) var fields: [Field] = []
    private var scratch: [[UInt8]] = []

    enum Field {
        case range(Range<Int>, quoted: Bool)
        case unescaped(Int)  // index into scratch
    }

    struct Malformed: Error { let line: Int; let message: String }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }  // a UTF-8 byte-order mark
    }

    /// Reads the next record; false at the end of the input.
    mutating func next() throws -> Bool {
        fields.removeAll(keepingCapacity: true)
        scratch.removeAll(keepingCapacity: true)
        // Blank lines between records are skipped, as the sqlite3 shell does.
        while position < bytes.count, bytes[position] == 10 || bytes[position] == 13 {
            if bytes[position] == 10 { nextLine += 1 }
            position += 1
        }
        guard position < bytes.count else { return false }
        line = nextLine
        while true {
            try readField()
            guard position < bytes.count else { return true }
            let c = bytes[position]
            position += 1
            if c == 44 { continue }  // ','
            if c == 13, position < bytes.count, bytes[position] == 10 { position += 1 }
            nextLine += 1
            return true
        }
    }

    private mutating func readField() throws {
        if position < bytes.count, bytes[position] == 34 {  // '"'
            position += 1
            let start = position
            var unescaped: [UInt8]? = nil
            while true {
                guard position < bytes.count else {
                    throw Malformed(line: line, message: "a quoted field is not closed")
                }
                let c = bytes[position]
                if c == 34 {
                    if position + 1 < bytes.count, bytes[position + 1] == 34 {
                        if unescaped == nil { unescaped = Array(bytes[start..<position]) }
                        unescaped!.append(34)
                        position += 2
                        continue
                    }
                    let end = position
                    position += 1
                    if position < bytes.count, bytes[position] != 44, bytes[position] != 10, bytes[position] != 13 {
                        throw Malformed(line: line, message: "unexpected text after a closing quote")
                    }
                    if let unescaped {
                        scratch.append(unescaped)
                        fields.append(.unescaped(scratch.count - 1))
                    } else {
                        fields.append(.range(start..<end, quoted: true))
                    }
                    return
                }
                if c == 10 { nextLine += 1 }
                unescaped?.append(c)
                position += 1
            }
        }
        let start = position
        while position < bytes.count {
            let c = bytes[position]
            if c == 44 || c == 10 || c == 13 { break }
            if c == 34 { throw Malformed(line: line, message: "a quote inside an unquoted field") }
            position += 1
        }
        fields.append(.range(start..<position, quoted: false))
    }

    /// The bytes of field `i`, given to `body` without copying.
    func withField<T>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>, _ quoted: Bool) throws -> T) rethrows -> T {
        switch fields[i] {
        case .range(let range, let quoted):
            return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range]), quoted) }
        case .unescaped(let index):
            return try scratch[index].withUnsafeBufferPointer { try body($0, true) }
        }
    }
}

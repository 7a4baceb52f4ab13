import Foundation

/// An RFC 4180 reader over a stream of bytes (a class: each cell is read through it, and
/// a struct was copied, arrays retained, at every read): fields separated by `separator`
/// (a comma; a semicolon, tab or pipe where the file uses one), double-quoted
/// fields with `""` for a quote, CRLF or LF line ends. It reads its source a chunk at a
/// time (`chunkSize`), keeping only the unread part of the last chunk and the record being
/// read, so a file of any size is read in the memory of its longest record. Each record's
/// fields are byte ranges into that buffer, so reading allocates nothing per field.
final class CSVReader {
    /// How many bytes one read of the source asks for.
    static let chunkSize = 1 << 20

    private(set) var source: ByteSource
    /// The byte between two fields.
    let separator: UInt8
    // Unchecked exclusivity: each access to a class's stored property is otherwise checked
    // at run time, a tenth of an import's time; the reader is used by one caller at a time.
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    /// Bytes of `bytes` that hold data; the rest is room for the next read.
    @exclusivity(unchecked) private var filled = 0
    @exclusivity(unchecked) private var atEnd = false
    @exclusivity(unchecked) private var position = 0
    /// The line on which the current record starts (1-based).
    @exclusivity(unchecked) private(set) var line = 1
    @exclusivity(unchecked) private var nextLine = 1
    /// Fields of the current record; quoted fields with `""` are unescaped into `scratch`.
    @exclusivity(unchecked) private(set) var fields: [Field] = []
    @exclusivity(unchecked) private var scratch: [[UInt8]] = []
    private var startedBOM = false

    enum Field {
        case range(Range<Int>, quoted: Bool)
        case unescaped(Int) // index into scratch
    }

    struct Malformed: Error {
        let line: Int
        let message: String
    }
    /// The record runs past the bytes read so far: read more, then read it again.
    private struct NeedMore: Error {}

    init(source: ByteSource, separator: UInt8 = 44) {
        self.source = source
        self.separator = separator
    }

    convenience init(bytes: [UInt8], separator: UInt8 = 44) {
        self.init(source: BytesSource(bytes), separator: separator)
    }

    /// Reads the next record; false at the end of the input.
    func next() throws -> Bool {
        if !startedBOM {
            startedBOM = true
            while filled < 3, !atEnd { try fill(compactingFrom: position) }
            if filled >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 } // a UTF-8 byte-order mark
        }
        while true {
            let (start, startLine) = (position, nextLine)
            do { return try readRecord() } catch is NeedMore {
                position = start
                nextLine = startLine
                try fill(compactingFrom: start)
            }
        }
    }

    /// Moves the bytes from `start` on to the front and reads more after them, growing
    /// the buffer when one record fills it.
    ///
    /// A record is read again from its start after each fill, so each fill reads a whole
    /// chunk, in as many reads as the source needs (a pipe gives 64 KiB at a time), and a
    /// record longer than a chunk gets as many bytes again as it has so far: it is read
    /// again a logarithmic number of times, not once per read (a 20 MB field took two
    /// minutes that way).
    private func fill(compactingFrom start: Int) throws {
        if start > 0 {
            let kept = filled - start
            bytes.withUnsafeMutableBufferPointer { b in
                guard let base = b.baseAddress, kept > 0 else { return }
                (base).update(from: base + start, count: kept)
            }
            filled = kept
            position -= start
        }
        let want = max(filled, Self.chunkSize)
        if bytes.count - filled < want {
            // Grown by memcpy and memset: appending a repeated zero went element by
            // element through generic code, 0.4 s a megabyte in a debug build (every test
            // import paid it).
            let (grown, kept) = (filled + want, filled)
            let old = bytes
            bytes = [UInt8](unsafeUninitializedCapacity: grown) { buffer, count in
                guard let base = buffer.baseAddress else { return }
                old.withUnsafeBufferPointer { o in
                    if let from = o.baseAddress, kept > 0 { memcpy(base, from, kept) }
                }
                memset(base + kept, 0, grown - kept)
                count = grown
            }
        }
        let end = filled + want
        refills += 1
        repeat {
            let n = try bytes.withUnsafeMutableBytes { b in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: b[filled..<end]))
            }
            if n == 0 {
                atEnd = true
                return
            }
            filled += n
        } while filled < end
    }

    /// How many times the buffer was filled (a record longer than a chunk should take a
    /// few, whatever its length).
    private(set) var refills = 0

    /// The byte at `position`, or nil at the end of the input; throws NeedMore at the
    /// end of the bytes read so far.
    @inline(__always)
    private func peek() throws -> UInt8? {
        if position < filled { return bytes[position] }
        if atEnd { return nil }
        throw NeedMore()
    }

    private func readRecord() throws -> Bool {
        fields.removeAll(keepingCapacity: true)
        scratch.removeAll(keepingCapacity: true)
        // Blank lines between records are skipped, as the sqlite3 shell does.
        while let c = try peek(), c == 10 || c == 13 {
            if c == 10 { nextLine += 1 }
            position += 1
        }
        guard try peek() != nil else { return false }
        line = nextLine
        while true {
            try readField()
            guard let c = try peek() else { return true }
            position += 1
            if c == separator { continue }
            if c == 13, try peek() == 10 { position += 1 }
            nextLine += 1
            return true
        }
    }

    private func readField() throws {
        if try peek() == 34 { // '"'
            position += 1
            let start = position
            var unescaped: [UInt8]? = nil
            while true {
                guard let c = try peek() else {
                    throw Malformed(line: line, message: "a quoted field is not closed")
                }
                if c == 34 {
                    position += 1
                    if try peek() == 34 {
                        if unescaped == nil { unescaped = Array(bytes[start..<(position - 1)]) }
                        unescaped!.append(34)
                        position += 1
                        continue
                    }
                    let end = position - 1
                    if let next = try peek(), next != separator, next != 10, next != 13 {
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
        // The common case in one tight loop over the buffer; the end of the bytes read
        // so far is handled by peek.
        let end = filled
        let separator = self.separator
        let found = bytes.withUnsafeBufferPointer { b -> (Int, Bool) in
            var p = start
            while p < end {
                let c = b[p]
                if c == separator || c == 10 || c == 13 { break }
                if c == 34 { return (p, true) }
                p += 1
            }
            return (p, false)
        }
        position = found.0
        if found.1 { throw Malformed(line: line, message: "a quote inside an unquoted field") }
        if position == end, !atEnd { throw NeedMore() }
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

    /// How many bytes of the source have been read (for progress estimates).
    var bytesRead: Int { source.bytesRead }
}

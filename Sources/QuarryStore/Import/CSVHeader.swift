import Foundation
import QuarryModel

/// A CSV file's first record, and whether it names the columns or is a row of data. A
/// file without a header (an export by a program that writes none) read as one made its
/// first row the column names (`Aaron,Patricia G`, `1979-10-24`, `55314.00`) and lost
/// that row without a word. As DuckDB's and Python's sniffers decide it, the first record
/// is data when, in each column whose cells below are numbers, booleans or dates, its
/// field is one too, and there is such a column; a column of text below says nothing
/// (a name is text as well). A header that names columns by numbers (`country,2019,2020`
/// over counts) reads as data too: the import says what it decided and `header = true`
/// reads the names.
struct CSVFirstRecord {
    /// Each field's bytes and whether it was quoted.
    let fields: [(bytes: [UInt8], quoted: Bool)]

    init(_ reader: CSVReader) {
        fields = reader.fields.indices.map { i in reader.withField(i) { b, quoted in (Array(b), quoted) } }
    }

    /// Whether the writer quoted every field, so quotes mean nothing of types.
    var quotesEverything: Bool { fields.allSatisfy(\.quoted) }

    /// The field that shows the record is data (1-based column, its text, the column's
    /// type), or nil when it reads as a header: see the type's comment. `types` are the
    /// columns' types from the records below it.
    func readsAsData(under types: [ColumnType]) -> FirstRowAsData? {
        var shown: FirstRowAsData?
        for (i, type) in types.enumerated() where i < fields.count && type.sawValue && type.declared == nil {
            let attributeType = type.attributeType
            guard attributeType != .string else { continue }
            let field = fields[i]
            let fits = field.bytes.withUnsafeBufferPointer { b in
                !type.nulls.contains(b, quoted: field.quoted) && !b.isEmpty && type.fits(b, quoted: field.quoted)
            }
            guard fits else { return nil }
            if shown == nil {
                shown = FirstRowAsData(column: i + 1, text: String(decoding: field.bytes.prefix(40), as: UTF8.self), type: attributeType)
            }
        }
        return shown
    }

    /// The column names the record gives, each checked as a name. A field left empty (the
    /// index column `pandas.to_csv` writes as `,name,score`, the trailing commas of a sheet
    /// saved as CSV: `userId,rating,,`) names no column: it is named by its place, as a file
    /// without a header is (`column3`), and listed in `unnamed` for the import to say so;
    /// sqlite3's `.import` names such a column `?`, pandas `Unnamed: 2`, DuckDB `column2`.
    func names(path: String) throws -> (columns: [String], unnamed: [String]) {
        var columns: [String] = []
        var unnamed: [String] = []
        // A set beside the list: a header of 100,000 names is checked in linear time.
        var seen = Set<String>()
        columns.reserveCapacity(fields.count)
        // The names the file gives, so a place's name (`column3`) never takes one of them.
        let given = Set(fields.compactMap { String(validating: $0.bytes, as: UTF8.self)?.trimmingCharacters(in: .whitespaces) })
        for (i, field) in fields.enumerated() {
            guard let decoded = String(validating: field.bytes, as: UTF8.self) else {
                throw StoreError.importFailed(
                    path: path, line: 1, field: .column(i + 1, nil), reason: "the name of column \(i + 1) is not valid UTF-8")
            }
            var name = decoded.trimmingCharacters(in: .whitespaces)
            if name.isEmpty {
                name = "column\(i + 1)"
                while given.contains(name) || seen.contains(name) { name += "_" }
                unnamed.append(name)
            } else if let problem = SchemaName.problem(name) {
                throw StoreError.importFailed(
                    path: path, line: 1, field: .column(i + 1, name), reason: "the name of column \(i + 1), \(SchemaName.shown(name)), \(problem)")
            }
            if !seen.insert(name).inserted {
                throw StoreError.importFailed(
                    path: path, line: 1, field: .column(i + 1, name), reason: "column '\(name)' appears twice in the header")
            }
            columns.append(name)
        }
        return (columns, unnamed)
    }

    /// The names of a file without a header: `column1`, `column2`, …
    static func generatedNames(_ count: Int) -> [String] {
        (0..<count).map { "column\($0 + 1)" }
    }
}

/// Why a CSV file's first record was read as a row, not as the columns' names: a field
/// of it (1-based `column`, its `text`) that is of the column's `type`, as the cells below
/// it are. The import then names the columns `column1`, `column2`, … and says so.
public struct FirstRowAsData: Equatable, Sendable {
    public var column: Int
    public var text: String
    public var type: AttributeType
}

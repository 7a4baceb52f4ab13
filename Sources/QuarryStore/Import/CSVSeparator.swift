import Foundation
import QuarryModel

/// The byte between a CSV file's fields when the import is not told it (`separator`), as
/// DuckDB's CSV sniffer finds it: each candidate (comma, semicolon, tab, pipe) reads the
/// first records as the import would (quotes and all), and one that splits every one of
/// them into the same number of fields, more than one, is the file's. The comma wins
/// when it does; else the candidate with the most fields. A file that is a list of one
/// column under every candidate is read with commas, as ever. One whose first line has
/// no comma but splits on another candidate, though not every line alike, is read with
/// commas too (one column), and `doubt` says so, naming the option that reads it the
/// other way: a wrong separator never makes a one-column entity without a word.
struct CSVSeparator {
    static let comma: UInt8 = 44
    /// Comma, semicolon, tab, pipe: the separators CSV files are written with.
    static let candidates: [UInt8] = [44, 59, 9, 124]
    /// Records read per candidate.
    static let sampleRecords = 25

    var separator: UInt8
    /// Why the comma was taken though another candidate split the first line.
    var doubt: String?

    /// `separator = ";"`, as the option is written.
    static func spelled(_ byte: UInt8) -> String {
        byte == 9 ? #""\t""# : "\"\(Character(Unicode.Scalar(byte)))\""
    }

    /// The separator of the CSV file `open` reads from its first byte.
    static func sniff(_ open: () throws -> ByteSource) throws -> CSVSeparator {
        var shapes: [UInt8: [Int]] = [:]
        var malformed: Set<UInt8> = []
        for candidate in candidates {
            let reader = CSVReader(source: try open(), separator: candidate)
            var counts: [Int] = []
            do {
                while counts.count < sampleRecords, try reader.next() { counts.append(reader.fields.count) }
            } catch is CSVReader.Malformed {
                // A quote where this separator puts none: not this file's separator.
                malformed.insert(candidate)
            }
            shapes[candidate] = counts
        }
        func splitsAlike(_ candidate: UInt8) -> Bool {
            guard !malformed.contains(candidate), let counts = shapes[candidate], let first = counts.first, first > 1 else { return false }
            return counts.allSatisfy { $0 == first }
        }
        if splitsAlike(comma) { return CSVSeparator(separator: comma) }
        let alike = candidates.dropFirst().filter(splitsAlike)
        if let best = alike.max(by: { (shapes[$0]?.first ?? 0) < (shapes[$1]?.first ?? 0) }) {
            // max(by:) keeps the last of equals: the first candidate among them is taken.
            let most = shapes[best]?.first ?? 0
            return CSVSeparator(separator: alike.first { shapes[$0]?.first == most } ?? best)
        }
        // No candidate splits every line alike. A first line with no comma that another
        // splits: one column, said.
        guard shapes[comma]?.first == 1,
            let other = candidates.dropFirst().first(where: { (shapes[$0]?.first ?? 0) > 1 }),
            let counts = shapes[other], let fields = counts.first
        else { return CSVSeparator(separator: comma) }
        let line = counts.firstIndex { $0 != fields }.map { "record \($0 + 1) into \(counts[$0])" } ?? "not the rest alike"
        return CSVSeparator(
            separator: comma,
            doubt: "read as one column: the header has no comma, and \(spelled(other)) splits it into \(fields) fields but \(line); "
                + "separator = \(spelled(other)) reads fields so")
    }
}

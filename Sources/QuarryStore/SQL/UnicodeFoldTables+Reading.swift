import Foundation

/// The tables read: a `from:to` table as a map, a `first-last` table as ranges, and back
/// to text and to a bracket expression of escapes.
extension UnicodeFoldTables {
    package static func map(_ table: String) -> [UInt32: [UInt32]] {
        var map: [UInt32: [UInt32]] = [:]
        for entry in table.split(whereSeparator: \.isWhitespace) {
            let parts = entry.split(separator: ":")
            guard parts.count == 2, let from = UInt32(parts[0], radix: 16) else { continue }
            map[from] = parts[1].split(separator: ".").compactMap { UInt32($0, radix: 16) }
        }
        return map
    }

    package static func ranges(_ table: String) -> [ClosedRange<UInt32>] {
        table.split(whereSeparator: \.isWhitespace).compactMap { entry in
            let bounds = entry.split(separator: "-").compactMap { UInt32($0, radix: 16) }
            guard let first = bounds.first, let last = bounds.last, first <= last else { return nil }
            return first...last
        }
    }

    package static func collapse(_ sorted: [UInt32]) -> [ClosedRange<UInt32>] {
        var out: [ClosedRange<UInt32>] = []
        for v in sorted {
            if let last = out.last, last.upperBound + 1 == v { out[out.count - 1] = last.lowerBound...v } else { out.append(v...v) }
        }
        return out
    }

    /// The inside of a bracket expression, every scalar as an escape (`\u0041`,
    /// `\U0001F600`), so no character of it is special to the regex or the SQL.
    package static func regexClass(_ ranges: [ClosedRange<UInt32>]) -> String {
        func escape(_ v: UInt32) -> String {
            v <= 0xFFFF ? "\\u" + String(format: "%04x", v) : "\\U" + String(format: "%08x", v)
        }
        return ranges.map { $0.count == 1 ? escape($0.lowerBound) : escape($0.lowerBound) + "-" + escape($0.upperBound) }.joined()
    }

    package static func text(_ scalars: [UInt32]) -> String {
        var out = String.UnicodeScalarView()
        for v in scalars { if let u = Unicode.Scalar(v) { out.append(u) } }
        return String(out)
    }
}

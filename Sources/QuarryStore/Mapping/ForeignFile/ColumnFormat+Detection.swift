import Foundation
import QuarryModel

/// What a sample of a column says about its format.
package enum DetectedFormat: Equatable {
    case format(ColumnFormat)
    /// Values in more than one format (their names), or values Quarry cannot place.
    case mixed([String])
    /// No values, and a declared type that says nothing of the format.
    case unknown
}

extension ColumnFormat {
    /// The format of a column of `type` (read from its declared type), from a sample of
    /// its non-null values as stored. Empty text (only spaces, or nothing) is left out as
    /// NULL is: a file filled from a CSV (sqlite3's `.import`) keeps a missing value as '',
    /// which is no value in any format, and a column of dates with a few such cells showed
    /// no one format, refusing every write and `format()`'s hint, where its dates keep one.
    package static func detect(_ type: AttributeType, sample: [Value]) -> DetectedFormat {
        let sample = sample.filter { value in
            guard case .text(let text) = value else { return true }
            return !text.allSatisfy { $0 == " " || $0 == "\t" }
        }
        switch type {
        case .date: return detectDate(sample)
        case .bool: return detectBool(sample)
        case .string, .uuid, .binary: return detectUUID(sample, type: type)
        default: return .format(.plain)
        }
    }

    /// One format for every value, or the formats seen.
    private static func single(_ formats: [ColumnFormat?], unknown: DetectedFormat = .unknown) -> DetectedFormat {
        var seen: [ColumnFormat] = []
        var unplaced = false
        for format in formats {
            guard let format else {
                unplaced = true
                continue
            }
            if !seen.contains(format) { seen.append(format) }
        }
        if unplaced { return .mixed(seen.map(\.name) + ["values that are no date"]) }
        if seen.count == 1 { return .format(seen[0]) }
        return seen.isEmpty ? unknown : .mixed(seen.map(\.name))
    }

    private static func detectDate(_ sample: [Value]) -> DetectedFormat {
        // Integer and real seconds are one format: a real where any value is real.
        let formats: [ColumnFormat?] = sample.map { value in
            switch value {
            case .text(let s): return ISOLayout(example: s).map(ColumnFormat.isoText)
            case .integer(let i): return i.magnitude >= 100_000_000_000 ? .unixMilliseconds : .unixSeconds(real: false)
            case .real(let d):
                if abs(d) >= 100_000_000_000 { return .unixMilliseconds }
                // Julian days of the years 1 to 3000 (Unix seconds there are January 1970).
                if d >= 1_721_425.5, d <= 2_816_787.5 { return .julianDay }
                return .unixSeconds(real: true)
            default: return nil
            }
        }
        var merged = formats
        // A column of NUMERIC affinity (DATETIME) keeps a whole Julian day (noon) as an
        // integer: among Julian days, such integers are Julian days too.
        if formats.contains(.julianDay) {
            merged = zip(sample, formats).map { value, format in
                if case .integer(let i) = value, i >= 1_721_426, i <= 2_816_787 { return .julianDay }
                return format
            }
        }
        if merged.contains(.unixSeconds(real: true)) {
            merged = merged.map { $0 == .unixSeconds(real: false) ? .unixSeconds(real: true) : $0 }
        }
        // Text that shows a fraction only when there is one (Python's isoformat) is one
        // layout, with the most digits seen.
        let layouts = merged.compactMap { format -> ISOLayout? in if case .isoText(let l)? = format { return l } else { return nil } }
        if layouts.count == merged.count, let most = layouts.map(\.fractionDigits).max(),
            Set(
                layouts.map { l -> String in
                    var bare = l
                    bare.fractionDigits = 0
                    return bare.example
                }
            ).count == 1
        {
            merged = layouts.map { l in
                var widest = l
                widest.fractionDigits = most
                return .isoText(widest)
            }
        }
        return single(merged)
    }

    private static func detectBool(_ sample: [Value]) -> DetectedFormat {
        // A column declared BOOLEAN and empty: SQLite's own booleans are 0 and 1.
        guard !sample.isEmpty else { return .format(.boolInteger) }
        let pairs: [(String, String)] = [("true", "false"), ("t", "f"), ("yes", "no"), ("y", "n"), ("on", "off")]
        var trueSpelling: String?
        var falseSpelling: String?
        var formats: [ColumnFormat?] = []
        for value in sample {
            switch value {
            case .integer(0), .integer(1), .real(0), .real(1): formats.append(.boolInteger)
            case .text(let s):
                let lower = s.lowercased()
                guard let pair = pairs.first(where: { $0.0 == lower || $0.1 == lower }) else {
                    formats.append(nil)
                    continue
                }
                let isTrue = pair.0 == lower
                if let seen = isTrue ? trueSpelling : falseSpelling {
                    if seen != s { return .mixed([seen, s]) }
                } else if isTrue {
                    trueSpelling = s
                } else {
                    falseSpelling = s
                }
                // The other spelling of a pair seen only once is in the same case.
                let t = trueSpelling ?? matchCase(pair.0, like: s)
                let f = falseSpelling ?? matchCase(pair.1, like: s)
                formats.append(.boolText(true: t, false: f))
            default: formats.append(nil)
            }
        }
        // Each text value guessed its other half; settle on the spellings seen.
        let settled: [ColumnFormat?] = formats.map { format in
            guard case .boolText(let t, let f)? = format else { return format }
            return .boolText(true: trueSpelling ?? t, false: falseSpelling ?? f)
        }
        let result = single(settled)
        if case .mixed(let names) = result { return .mixed(names.map { $0 == "values that are no date" ? "values that are no boolean" : $0 }) }
        return result
    }

    /// `word` in the case of `example`: all upper, capitalized, or lower.
    private static func matchCase(_ word: String, like example: String) -> String {
        if example.count > 1, example == example.uppercased() { return word.uppercased() }
        if example.first?.isUppercase == true { return word.prefix(1).uppercased() + word.dropFirst() }
        return word
    }

    /// A text or binary column every sampled value of which is a UUID in one layout keeps
    /// that layout; any other column is plain.
    private static func detectUUID(_ sample: [Value], type: AttributeType) -> DetectedFormat {
        guard !sample.isEmpty else { return .format(.plain) }
        var formats: [ColumnFormat] = []
        for value in sample {
            switch value {
            case .blob(let b) where b.count == 16: formats.append(.uuidBlob)
            case .text(let s) where type != .binary && uuidBytes(value) != nil:
                let letters = s.filter(\.isLetter)
                let upper = letters.allSatisfy(\.isUppercase)
                let lower = letters.allSatisfy(\.isLowercase)
                // Only digits says nothing of the case: taken as lower.
                if !upper && !lower { return .mixed(["UUIDs in upper and lower case"]) }
                formats.append(.uuidText(hyphens: s.count == 36, upper: upper && !letters.isEmpty))
            default: return .format(.plain)
            }
        }
        return single(formats)
    }
}

import Foundation
import QuarryModel

/// How a column of a file Quarry did not create keeps its values, so that a value Quarry
/// writes there reads as the owner's own do (`strftime`, text comparisons, `= 'Y'`).
/// Detected from a sample of the column (`ColumnFormat+Detection`) or declared by the user
/// (`format("Invoice", "InvoiceDate", "iso-space")`). Quarry's own files never use it.
public enum ColumnFormat: Equatable, Sendable {
    /// Written as Quarry's value is (text as text, numbers as numbers): no format to keep.
    case plain
    /// ISO 8601 text in one layout.
    case isoText(ISOLayout)
    /// Unix seconds, as an integer (`real: false`) or a real.
    case unixSeconds(real: Bool)
    /// Unix milliseconds, as an integer.
    case unixMilliseconds
    /// Julian day number, as a real (SQLite's `julianday()`).
    case julianDay
    /// A whole count of units since an epoch (`ColumnFormat+TimeLayouts`).
    case epochCount(EpochCount)
    /// Booleans as the integers 0 and 1.
    case boolInteger
    /// Booleans as two texts, case kept ('Y'/'N', 'true'/'false').
    case boolText(true: String, false: String)
    /// UUIDs as text: with hyphens or without, upper or lower case.
    case uuidText(hyphens: Bool, upper: Bool)
    /// UUIDs as 16 bytes.
    case uuidBlob

    /// The layout of ISO 8601 text: `2021-01-01`, `2021-01-01 00:00`, `2021-01-01T00:00:00.000Z`,
    /// `2021-01-01 00:00:00+00:00`, or the basic `20210101` and `20210101T000000`.
    public struct ISOLayout: Equatable, Sendable {
        /// "T" or " "; nil for a date alone.
        public var separator: Character?
        public var seconds = true
        public var fractionDigits = 0
        public var zone: Zone = .none
        /// ISO 8601's basic form, without `-` and `:` (`20210101`, `20210101T000000`).
        public var basic = false
        public enum Zone: Equatable, Sendable { case none, z, offset(colon: Bool) }
    }

    /// The name `format(e, a)` answers: an ISO layout that `iso-space`, `iso-t` or
    /// `iso-date` names by that name, any other as `name` does. Compared by the text the
    /// layout writes: days alone read from a file (`2020-12-31`) were named by their
    /// example, `2021-01-01`, where the docs and every refusal's way forward say `iso-date`.
    public var shortName: String {
        guard case .isoText(let layout) = self else { return name }
        return ["iso-space", "iso-t", "iso-date"].first { ColumnFormat(name: $0)?.name == layout.example } ?? layout.example
    }

    /// The name `format()` takes and shows. ISO layouts are named by an example of their
    /// text, since a layout has more parts than names could say.
    public var name: String {
        switch self {
        case .plain: return "plain"
        case .isoText(let layout): return layout.example
        case .unixSeconds(let real): return real ? "unix-real" : "unix"
        case .unixMilliseconds: return "unix-ms"
        case .julianDay: return "julian"
        case .epochCount(let count): return count.rawValue
        case .boolInteger: return "0/1"
        case .boolText(let t, let f): return "\(t)/\(f)"
        case .uuidText(let hyphens, let upper): return (upper ? "UUID" : "uuid") + (hyphens ? "" : (upper ? "-COMPACT" : "-compact"))
        case .uuidBlob: return "uuid-blob"
        }
    }

    /// Whether the format is one for values of `type`.
    package func fits(_ type: AttributeType) -> Bool {
        switch self {
        case .plain: return true
        // Dates kept as text in a column declared TEXT read as dates from then on.
        case .isoText: return type == .date || type == .string
        // A number column declared to hold times reads as dates from then on.
        case .unixSeconds, .unixMilliseconds, .julianDay, .epochCount:
            return [.date, .int16, .int32, .int64, .double, .decimal].contains(type)
        case .boolInteger, .boolText: return type == .bool
        case .uuidText: return type == .string || type == .uuid
        case .uuidBlob: return type == .string || type == .uuid || type == .binary
        }
    }

    /// Parses a declared format: "iso-space", "iso-t", "iso-date", "unix", "unix-real",
    /// "unix-ms", "unix-us", "unix-ns", "cocoa", "cocoa-ns", "webkit", "filetime", "julian", an example of ISO text ("2021-01-01T00:00:00.000Z"), a pair of
    /// booleans ("0/1", "Y/N", "true/false"), "uuid", "UUID", "uuid-compact", "UUID-COMPACT",
    /// "uuid-blob", "plain".
    public init?(name: String) {
        switch name {
        case "plain": self = .plain
        case "iso-space": self = .isoText(ISOLayout(separator: " "))
        case "iso-t": self = .isoText(ISOLayout(separator: "T"))
        case "iso-date": self = .isoText(ISOLayout(separator: nil))
        case "unix": self = .unixSeconds(real: false)
        case "unix-real": self = .unixSeconds(real: true)
        case "unix-ms": self = .unixMilliseconds
        case "julian": self = .julianDay
        case "0/1": self = .boolInteger
        case "uuid": self = .uuidText(hyphens: true, upper: false)
        case "UUID": self = .uuidText(hyphens: true, upper: true)
        case "uuid-compact": self = .uuidText(hyphens: false, upper: false)
        case "UUID-COMPACT": self = .uuidText(hyphens: false, upper: true)
        case "uuid-blob": self = .uuidBlob
        default:
            if let count = EpochCount(rawValue: name) {
                self = .epochCount(count)
                return
            }
            if let layout = ISOLayout(example: name) {
                self = .isoText(layout)
                return
            }
            let pair = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard pair.count == 2, !pair[0].isEmpty, !pair[1].isEmpty, pair[0] != pair[1] else { return nil }
            self = .boolText(true: pair[0], false: pair[1])
        }
    }

    /// `value` (already coerced to the attribute's type) as the column keeps it, in the
    /// engine-neutral `Value` the engine binds; nil when the format cannot hold it (a
    /// date that ISO text or whole seconds or milliseconds would round past the year
    /// 9999, `WholeDateUnits`).
    package func storedValue(_ value: Value) -> Value? {
        switch (self, value) {
        case (_, .null): return .null
        case (.isoText(let layout), .date(let seconds)): return layout.text(seconds).map(Value.text)
        case (.unixSeconds(let real), .date(let seconds)):
            return real ? .real(seconds) : WholeDateUnits.count(seconds, unitsPerSecond: 1).map(Value.integer)
        case (.unixMilliseconds, .date(let seconds)): return WholeDateUnits.count(seconds, unitsPerSecond: 1000).map(Value.integer)
        case (.julianDay, .date(let seconds)): return .real(seconds / 86400 + 2_440_587.5)
        case (.epochCount(let count), .date(let seconds)):
            // Within the years 0001 to 9999 (the dates Quarry takes), as any date written.
            return Value.dateRange.contains(seconds) ? count.scale.count(seconds).map(Value.integer) : nil
        case (.boolText(let t, let f), .bool(let b)): return .text(b ? t : f)
        case (.uuidText(let hyphens, let upper), _):
            guard let bytes = uuidBytes(value) else { return value }
            var hex = bytes.map { String(format: upper ? "%02X" : "%02x", $0) }.joined()
            if hyphens { for i in [20, 16, 12, 8] { hex.insert("-", at: hex.index(hex.startIndex, offsetBy: i)) } }
            return .text(hex)
        case (.uuidBlob, _):
            guard let bytes = uuidBytes(value) else { return value }
            return .blob(bytes)
        default: return value
        }
    }
}

/// The 16 bytes of a UUID given as text (with or without hyphens, any case), as the bytes
/// of such text (a binary column coerces text to its bytes), or as 16 bytes.
package func uuidBytes(_ value: Value) -> [UInt8]? {
    let text: String
    switch value {
    case .text(let s): text = s
    case .blob(let b) where b.count == 16: return b
    case .blob(let b) where b.count == 32 || b.count == 36: text = String(decoding: b, as: UTF8.self)
    default: return nil
    }
    let hex = Array(text.utf8)
    let digits: [UInt8]
    if hex.count == 36 {
        guard [8, 13, 18, 23].allSatisfy({ hex[$0] == UInt8(ascii: "-") }) else { return nil }
        digits = hex.enumerated().filter { ![8, 13, 18, 23].contains($0.offset) }.map(\.element)
    } else if hex.count == 32 {
        digits = hex
    } else {
        return nil
    }
    func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }
    var bytes: [UInt8] = []
    for i in stride(from: 0, to: 32, by: 2) {
        guard let high = nibble(digits[i]), let low = nibble(digits[i + 1]) else { return nil }
        bytes.append(high << 4 | low)
    }
    return bytes
}

extension ColumnFormat {
    /// The scale a date format reads its numbers in; nil for Unix seconds and text.
    package var numericDateScale: EntityStorage.NumericDateScale? {
        switch self {
        case .unixMilliseconds: return .milliseconds
        case .julianDay: return .julianDay
        case .epochCount(let count): return count.scale
        default: return nil
        }
    }
}

import Foundation

/// A value as the store holds it: what an attribute, a predicate argument or a fetched
/// column can be, independent of Lua and of SQLite's storage classes.
public enum Value: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case bool(Bool)
    /// Seconds since 1970-01-01T00:00:00Z.
    case date(Double)

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The name a message uses for this value's kind.
    public var kindName: String {
        switch self {
        case .null: return "nil"
        case .integer: return "integer"
        case .real: return "number"
        case .text: return "string"
        case .blob: return "binary"
        case .bool: return "boolean"
        case .date: return "date"
        }
    }

    /// The value as a person reads it in a message or a table cell.
    public var displayString: String {
        switch self {
        case .null: return "nil"
        case .integer(let i): return String(i)
        case .real(let d): return Value.format(d)
        case .text(let s): return s
        case .blob(let b): return "<\(b.count) bytes>"
        case .bool(let b): return b ? "true" : "false"
        case .date(let d): return Value.iso8601(d)
        }
    }

    /// Shortest round-tripping form, with integral doubles shown as Lua shows floats ("3.0").
    public static func format(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        if d == d.rounded(), abs(d) < 1e15 { return String(format: "%.1f", d) }
        return "\(d)"
    }

    /// ISO 8601 in UTC, with fractional seconds only when there are some.
    public static func iso8601(_ seconds: Double) -> String {
        let whole = seconds.rounded(.down)
        var t = time_t(whole)
        var parts = tm()
        gmtime_r(&t, &parts)
        let base = String(format: "%04d-%02d-%02dT%02d:%02d:%02d",
                          Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                          Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        let fraction = seconds - whole
        if fraction == 0 { return base + "Z" }
        let millis = String(format: "%.3f", fraction).dropFirst()  // ".250"
        return base + millis + "Z"
    }

    /// Parses "2024-01-22", "2024-01-22T16:26:12Z", "2024-01-22 16:26:12", with optional
    /// fractional seconds and a "Z" or "+hh:mm" offset; nil when the text is not such a date.
    public static func parseISO8601(_ text: String) -> Double? {
        let pattern = #"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let m = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        func group(_ i: Int) -> String? {
            guard let r = Range(m.range(at: i), in: text) else { return nil }
            return String(text[r])
        }
        guard let year = Int(group(1)!), let month = Int(group(2)!), let day = Int(group(3)!),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        let hour = group(4).flatMap(Int.init) ?? 0, minute = group(5).flatMap(Int.init) ?? 0
        let second = group(6).flatMap(Int.init) ?? 0
        guard hour < 24, minute < 60, second < 61 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900); parts.tm_mon = Int32(month - 1); parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour); parts.tm_min = Int32(minute); parts.tm_sec = Int32(second)
        var seconds = Double(timegm(&parts))
        if let fraction = group(7), let f = Double("0" + fraction) { seconds += f }
        if let zone = group(8), zone != "Z" {
            let sign: Double = zone.hasPrefix("-") ? -1 : 1
            let digits = zone.dropFirst().replacingOccurrences(of: ":", with: "")
            let hours = Double(digits.prefix(2)) ?? 0, minutes = Double(digits.suffix(2)) ?? 0
            seconds -= sign * (hours * 3600 + minutes * 60)
        }
        return seconds
    }
}

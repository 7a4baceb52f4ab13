import Foundation
import QuarryModel

extension ColumnFormat.ISOLayout {
    /// The layout of `example`, when it is ISO 8601 text Quarry reads as a date
    /// ("2021-01-01", "2021-01-01 00:00", "2021-01-01T00:00:00.123Z", "...+01:00", "...+0100").
    public init?(example: String) {
        // ISO 8601's basic form: a date alone (GTFS's `20180903`) or with whole seconds.
        if Value.parseISO8601(example) == nil, Value.parseISO8601Basic(example) != nil {
            let b = Array(example.utf8)
            self.init(separator: b.count == 8 ? nil : "T", seconds: b.count > 8, zone: b.count == 16 ? .z : .none, basic: true)
            return
        }
        guard Value.parseISO8601(example) != nil else { return nil }
        let b = Array(example.utf8)
        guard b.count >= 10 else { return nil }
        if b.count == 10 {
            self.init(separator: nil, seconds: false)
            return
        }
        // parseISO8601 accepted it: a date, 'T' or ' ', hh:mm, then optional parts. A date
        // with a zone but no time ("2021-01-01Z") is no layout Quarry writes.
        guard b.count >= 16, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " ") else { return nil }
        var layout = Self(separator: b[10] == UInt8(ascii: "T") ? "T" : " ", seconds: false)
        var i = 16
        if i < b.count, b[i] == UInt8(ascii: ":") {
            layout.seconds = true
            i += 3
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                let start = i
                while i < b.count, (48...57).contains(b[i]) { i += 1 }
                layout.fractionDigits = i - start
            }
        }
        if i < b.count {
            if b[i] == UInt8(ascii: "Z") { layout.zone = .z } else { layout.zone = .offset(colon: b.count - i == 6) }
        }
        self = layout
    }

    /// The most fraction digits Quarry writes (nanoseconds): past them a date's seconds,
    /// as Quarry holds them, have no digits to give.
    public static let maxFractionDigits = 9

    /// Whether Quarry can write dates in this layout (not past `maxFractionDigits`).
    public var isWritable: Bool { fractionDigits <= Self.maxFractionDigits }

    /// This layout with at most the fraction digits Quarry writes.
    public var writable: Self {
        var layout = self
        layout.fractionDigits = min(fractionDigits, Self.maxFractionDigits)
        return layout
    }

    /// `seconds` as text in this layout, in UTC (an offset layout writes +00:00), rounded
    /// to the digits the layout keeps; a date alone is the UTC day the instant falls in.
    /// Nil when the layout cannot hold it: too many fraction digits, or rounded past the
    /// year 9999 (the last half minute of 9999 to the minute is 10000-01-01, which no
    /// reader takes for a date).
    package func text(_ instant: Double) -> String? {
        guard isWritable, Value.dateRange.contains(instant) else { return nil }
        let digits = separator == nil || !seconds ? 0 : fractionDigits
        var whole: Double
        var fraction = 0
        if separator == nil {
            whole = (instant / 86400).rounded(.down) * 86400
        } else if !seconds {
            whole = (instant / 60).rounded() * 60
        } else {
            // The fraction apart from the whole seconds (their difference is exact), in
            // integers of at most 10^9: no product overflows.
            whole = instant.rounded(.down)
            let scale = Int(pow(10, Double(digits)))
            fraction = Int(((instant - whole) * Double(scale)).rounded())
            if fraction == scale {
                whole += 1
                fraction = 0
            }
        }
        guard whole <= Value.dateRange.upperBound else { return nil }
        return render(whole: whole, fraction: fraction, digits: digits)
    }

    /// What this layout keeps of a time finer than it writes, when `instant` has more
    /// (`text` rounds it): "whole seconds", "whole minutes", "2 fraction digits"; nil when
    /// it keeps the instant as given, or for a date alone, whose note is its own. Only to
    /// three fraction digits: past them a date's seconds, as a double holds them, have no
    /// exact digits to compare.
    package func coarser(than instant: Double) -> String? {
        guard separator != nil else { return nil }
        let digits = seconds && !basic ? fractionDigits : 0
        guard digits <= 3 else { return nil }
        let units = seconds ? instant * pow(10, Double(digits)) : instant / 60
        guard abs(units - units.rounded()) > 0.01 else { return nil }
        if !seconds { return "whole minutes" }
        return digits == 0 ? "whole seconds" : "\(digits) fraction digit\(digits == 1 ? "" : "s")"
    }

    /// Whole seconds and a fraction of `digits` digits as text in this layout.
    private func render(whole: Double, fraction: Int, digits: Int) -> String {
        var t = time_t(whole)
        var parts = tm()
        gmtime_r(&t, &parts)
        let (dash, colon) = basic ? ("", "") : ("-", ":")
        var text = String(format: "%04d\(dash)%02d\(dash)%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        guard let separator else { return text }
        if basic {
            // Whole seconds only, as the basic form is read (`Value.parseISO8601Basic`).
            text += String(separator) + String(format: "%02d%02d%02d", Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
            return zone == .z ? text + "Z" : text
        }
        text += String(separator) + String(format: "%02d\(colon)%02d", Int(parts.tm_hour), Int(parts.tm_min))
        if seconds { text += String(format: "\(colon)%02d", Int(parts.tm_sec)) }
        if seconds, digits > 0 {
            let f = String(fraction)
            text += "." + String(repeating: "0", count: max(0, digits - f.count)) + f
        }
        switch zone {
        case .none: break
        case .z: text += "Z"
        case .offset(let colon): text += colon ? "+00:00" : "+0000"
        }
        return text
    }

    /// An example of text in this layout, which is also the name `format()` shows for it
    /// (written for any layout, even one with more digits than Quarry writes).
    public var example: String { render(whole: 1_609_459_200, fraction: 0, digits: seconds ? fractionDigits : 0) }
}

import Foundation

extension ColumnFormat.ISOLayout {
    /// The layout of `example`, when it is ISO 8601 text Quarry reads as a date
    /// ("2021-01-01", "2021-01-01 00:00", "2021-01-01T00:00:00.123Z", "...+01:00", "...+0100").
    public init?(example: String) {
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
            if b[i] == UInt8(ascii: "Z") { layout.zone = .z }
            else { layout.zone = .offset(colon: b.count - i == 6) }
        }
        self = layout
    }

    /// `seconds` as text in this layout, in UTC (an offset layout writes +00:00), rounded
    /// to the digits the layout keeps; a date alone is the UTC day the instant falls in.
    func text(_ instant: Double) -> String {
        guard Value.dateRange.contains(instant) else { return Value.iso8601(instant) }
        let digits = separator == nil ? 0 : (seconds ? fractionDigits : 0)
        let unit = separator == nil ? 86400.0 : (seconds ? 1.0 : 60.0)
        let scale = pow(10, Double(digits))
        // Whole units (days, minutes or seconds), then the fraction in the layout's digits.
        let scaled = separator == nil ? (instant / unit).rounded(.down) * unit * scale
            : (instant * scale / unit).rounded() * unit
        let whole = (scaled / scale).rounded(.down)
        let fraction = Int((scaled - whole * scale).rounded())
        var t = time_t(whole)
        var parts = tm()
        gmtime_r(&t, &parts)
        var text = String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        guard let separator else { return text }
        text += String(separator) + String(format: "%02d:%02d", Int(parts.tm_hour), Int(parts.tm_min))
        if seconds { text += String(format: ":%02d", Int(parts.tm_sec)) }
        if digits > 0 {
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

    /// An example of text in this layout, which is also the name `format()` shows for it.
    public var example: String { text(1_609_459_200) }
}

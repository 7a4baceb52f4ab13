import Foundation
import QuarryModel

/// How one value reads in each mode.
public enum CellText {
    /// For reading: nil as nil, floating values as Lua's `tostring` writes them, dates in
    /// UTC or (`local`) in the machine's time zone; `digits`: floating values to that many
    /// significant digits (summarize's statistics).
    public static func display(_ value: Value, local: Bool = false, digits: Int? = nil) -> String {
        switch value {
        case .date(let seconds) where local: return Value.localISO8601(seconds)
        case .real(let d): return digits.map { significant(d, digits: $0) } ?? real(d)
        default: return value.displayString
        }
    }

    /// A double as Lua's `tostring` writes it (`%.14g`, and `.0` after an integral value),
    /// so a table, `print`, `=expr`, the line mode, `watch` and a chart's labels show one
    /// number one way: a sum's float noise goes (90.08999999999992 is 90.09, 0.1 + 0.2 is
    /// 0.3) and money keeps its cents (12615.05). Exports, JSON and CSV, keep the shortest
    /// text that reads back as the same double.
    public static func real(_ d: Double) -> String {
        guard d.isFinite else { return Value.format(d) }
        // lua_Number2str: a text of digits alone gets ".0", so it reads as a float. A whole
        // number below 1e14 is its digits (as `%.14g` writes it); -0.0 is "-0.0".
        if d == d.rounded(.towardZero), abs(d) < 1e14, d != 0 || d.sign == .plus { return String(Int64(d)) + ".0" }
        var text = g14(d)
        if text.allSatisfy({ $0 == "-" || $0.isASCII && $0.isNumber }) { text += ".0" }
        return text
    }

    /// `%.14g` through the C library's own formatting: `String(format:)` builds a
    /// Foundation string each time, which was a quarter of printing a table of 27,004
    /// rows. Its text holds only ASCII digits, signs, `e` and the point; any other byte (a
    /// locale's decimal comma) takes Foundation's path, which writes the point.
    private static func g14(_ d: Double) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer -> String in
            guard let base = buffer.baseAddress else { return String(format: "%.14g", d) }
            let written = withVaList([d]) { vsnprintf(base, 32, "%.14g", $0) }
            guard written > 0, written < 32 else { return String(format: "%.14g", d) }
            let bytes = UnsafeRawBufferPointer(start: base, count: Int(written))
            guard bytes.allSatisfy({ (48...57).contains($0) || $0 == 45 || $0 == 43 || $0 == 46 || $0 == 101 }) else {
                return String(format: "%.14g", d)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// `d` to `digits` significant digits, without an exponent for everyday magnitudes
    /// (an integral part longer than `digits` stays whole below 1e10, past which a hash's
    /// mean took 16 columns: 7.0238e+13), trailing zeros dropped, and `.0` after an
    /// integral value as Lua writes floats, but only where the value is that integer: a
    /// rounded 120166.58 is 120167, not 120167.0, which would read as exact.
    /// 29.8478260869565 is 29.8478. Summaries' statistics in printed tables.
    public static func significant(_ d: Double, digits: Int) -> String {
        guard d.isFinite else { return Value.format(d) }
        let magnitude = abs(d)
        if magnitude >= 1e10 || (magnitude < 1e-4 && magnitude > 0) { return String(format: "%.\(max(1, digits))g", d) }
        let before = magnitude == 0 ? 1 : Int(log10(magnitude).rounded(.down)) + 1
        var text = String(format: "%.\(min(15, max(0, digits - before)))f", d)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        return text.contains(".") || d != d.rounded() ? text : text + ".0"
    }

    /// Text drawn for a terminal, on one line: control characters (a newline, a return
    /// that would send the cursor back over the row, ESC sequences that clear the screen,
    /// set the window's title or the clipboard) written as Lua escapes, as `.schema` and
    /// error lines write them. CSV and JSON keep the bytes.
    static func flat(_ s: String) -> String {
        ErrorRendering.escaped(s)
    }

    /// `text` cut to `limit` terminal columns, its end marked with "…".
    static func clip(_ text: String, _ limit: Int) -> String {
        TerminalWidth.of(text) > limit ? TerminalWidth.prefix(text, columns: max(1, limit - 1)) + "…" : text
    }
}

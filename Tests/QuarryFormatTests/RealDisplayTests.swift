import Foundation
import QuarryFormat
import QuarryModel
import Testing

/// Floating values in tables, as `sqlite3` shows them: at most 15 significant digits, so a
/// sum's float noise goes, while exports and the line mode keep the exact value (issue 63).
@Suite struct RealDisplayTests {
    @Test func aSumsFloatNoiseIsRoundedTo15Digits() {
        #expect(CellText.real(523.0600000000002) == "523.06")
        #expect(CellText.real(2328.600000000004) == "2328.6")
        #expect(CellText.real(0.1 + 0.2) == "0.3")
        #expect(CellText.real(1.0 / 3) == "0.333333333333333")
        // Integral after rounding: shown as Lua shows floats.
        #expect(CellText.real(2.9999999999999996) == "3.0")
    }

    @Test func valuesOf15DigitsOrFewerStayAsTheyAre() {
        #expect(CellText.real(12615.05) == "12615.05")
        #expect(CellText.real(267868.18) == "267868.18")
        #expect(CellText.real(3) == "3.0")
        #expect(CellText.real(-0.5) == "-0.5")
        #expect(CellText.real(1e20) == Value.format(1e20))
        #expect(CellText.real(.infinity) == "inf" && CellText.real(-.infinity) == "-inf" && CellText.real(.nan) == "nan")
        // Near the largest double, 15 digits read back as infinity: the text stays.
        #expect(CellText.real(.greatestFiniteMagnitude) == "1.79769313486232e+308")
    }

    @Test func tablesRoundAndDataModesKeepTheExactValue() {
        let noisy = 2328.600000000004
        let exact = Value.format(2328.600000000004)
        #expect(exact.count > "2328.6".count, "\(exact)")
        let table = TextTable(headers: ["total"], values: [[.real(noisy)], [.real(12615.05)]])
        #expect(table.render(mode: .table) == "total\n--------\n  2328.6\n12615.05", "\(table.render(mode: .table))")
        #expect(table.render(mode: .box).contains("│   2328.6 │"), "\(table.render(mode: .box))")
        #expect(table.render(mode: .markdown).contains("| 2328.6 |"), "\(table.render(mode: .markdown))")
        #expect(table.render(mode: .csv) == "total\n\(exact)\n12615.05", "\(table.render(mode: .csv))")
        #expect(table.render(mode: .json).contains(exact), "\(table.render(mode: .json))")
        #expect(table.render(mode: .line).contains("total = \(exact)"), "\(table.render(mode: .line))")
        // One object, and grouped rows, as the REPL prints them.
        var format = TableFormat()
        format.width = 80
        let record = TextTable.record(headers: ["id", "total"], values: [.text("I/1"), .real(2328.600000000004)], format: format)
        #expect(record.hasSuffix("I/1 | 2328.6"), "\(record)")
        let rows = TextTable.rows(headers: ["g", "sum"], values: [[.text("a"), .real(523.0600000000002)]], format: format).render(format)
        #expect(rows.contains("a | 523.06"), "\(rows)")
    }
}

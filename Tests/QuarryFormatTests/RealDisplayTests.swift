import Foundation
import QuarryFormat
import QuarryModel
import QuarryTestSupport
import Testing

/// Floating values where a person reads them (tables, the line mode, charts) as Lua's
/// `tostring` writes them (`%.14g`), so a table, `print` and `=expr` agree; CSV and JSON
/// keep the shortest text that reads back as the same double (issue 80).
@Suite struct RealDisplayTests {
    @Test func aSumsFloatNoiseReadsAsLuaPrintsIt() {
        #expect(CellText.real(90.08999999999992) == "90.09")
        #expect(CellText.real(523.0600000000002) == "523.06")
        #expect(CellText.real(2328.600000000004) == "2328.6")
        #expect(CellText.real(0.1 + 0.2) == "0.3")
        // 14 significant digits, as tostring(1/3) is 0.33333333333333.
        #expect(CellText.real(1.0 / 3) == "0.33333333333333")
        #expect(CellText.real(29.8478260869565) == "29.847826086956")
        // Integral after rounding: shown as Lua shows floats.
        #expect(CellText.real(2.9999999999999996) == "3.0")
    }

    @Test func valuesOf14DigitsOrFewerStayAsTheyAre() {
        #expect(CellText.real(12615.05) == "12615.05")
        #expect(CellText.real(267868.18) == "267868.18")
        #expect(CellText.real(3) == "3.0")
        #expect(CellText.real(-0.5) == "-0.5")
        #expect(CellText.real(-3) == "-3.0")
        // As Lua: an exponent past 14 digits, without a ".0".
        #expect(CellText.real(1e15) == "1e+15")
        #expect(CellText.real(1e20) == "1e+20")
        #expect(CellText.real(.infinity) == "inf" && CellText.real(-.infinity) == "-inf" && CellText.real(.nan) == "nan")
        #expect(CellText.real(.greatestFiniteMagnitude) == "1.7976931348623e+308")
    }

    /// The C library's `%.14g`, written without Foundation's formatting, gives the text
    /// Foundation's does, for whole numbers (their digits) and all others.
    @Test func everyDoubleReadsAsFoundationsFormatWritesIt() {
        var rng = SplitMix64(seed: 14)
        var values: [Double] = [0, -0.0, 1, -1, 1e14 - 1, 1e14, -1e14, 99_999_999_999_999.5, 2.5e-320, 5e-324]
        for _ in 0..<20_000 {
            let bits = rng.next()
            let d = Double(bitPattern: bits)
            if d.isFinite { values.append(d) }
            let whole = Double(Int64(bitPattern: bits) >> Int64(rng.next() % 64))
            values.append(whole)
            values.append(whole / 100)
        }
        for d in values {
            var expected = String(format: "%.14g", d)
            if expected.allSatisfy({ $0 == "-" || $0.isASCII && $0.isNumber }) { expected += ".0" }
            #expect(CellText.real(d) == expected, "\(d)")
        }
        #expect(CellText.real(-0.0) == "-0.0")
    }

    @Test func summariesAndHistogramEdgesShowSixSignificantDigits() {
        #expect(CellText.significant(29.8478260869565, digits: 6) == "29.8478")
        #expect(CellText.significant(17.0112776325363, digits: 6) == "17.0113")
        #expect(CellText.significant(6.49693123, digits: 6) == "6.49693")
        // The integral part stays whole, without an exponent.
        #expect(CellText.significant(45763470.0055658, digits: 6) == "45763470")
        // A rounded value gets no `.0`, which would read as exact (a max of 120166.58);
        // a value that is the integer keeps it, as Lua writes floats.
        #expect(CellText.significant(120166.58, digits: 6) == "120167")
        #expect(CellText.significant(1173849.72356965, digits: 6) == "1173850")
        #expect(CellText.significant(120167, digits: 6) == "120167.0")
        // Past 1e10 (a hash's mean, microseconds since 1970), six digits and an exponent.
        #expect(CellText.significant(70238039634567.3, digits: 6) == "7.0238e+13")
        #expect(CellText.significant(4, digits: 6) == "4.0")
        #expect(CellText.significant(0, digits: 6) == "0.0")
        #expect(CellText.significant(-0.000012345678, digits: 6) == "-1.23457e-05")
    }

    /// A histogram's edges: one number of decimals for all of them, grouped, as a column
    /// of ranges reads; more decimals where two edges would read the same; an exponent
    /// for all past everyday magnitudes.
    @Test func histogramEdgesShareOneFormat() {
        #expect(CellText.edges([50.222, 51.1589, 52.0958]) == ["50.2220", "51.1589", "52.0958"])
        #expect(CellText.edges([1071, 221316.07, 661806.2]) == ["1,071", "221,316", "661,806"])
        #expect(CellText.edges([-43, -29.56, 91.4]) == ["-43.00", "-29.56", "91.40"])
        #expect(CellText.edges([1, 2, 3]) == ["1", "2", "3"])
        #expect(CellText.edges([1_000_000.1, 1_000_000.15, 1_000_000.2]) == ["1,000,000.10", "1,000,000.15", "1,000,000.20"])
        #expect(CellText.edges([-1.7e308, 0, 1.7e308]) == ["-1.7e+308", "0.0e+00", "1.7e+308"])
        // No minus before a zero.
        #expect(CellText.edges([-0.0000001, 0.5]) == ["0.0", "0.5"])
    }

    @Test func tablesAndTheLineModeReadAsLuaAndDataModesKeepTheExactValue() {
        let noisy = 90.08999999999992
        let exact = Value.format(noisy)
        #expect(exact == "90.08999999999992", "\(exact)")
        let table = TextTable(headers: ["total"], values: [[.real(noisy)], [.real(12615.05)]])
        #expect(table.render(mode: .table) == "total\n--------\n   90.09\n12615.05", "\(table.render(mode: .table))")
        #expect(table.render(mode: .box).contains("│    90.09 │"), "\(table.render(mode: .box))")
        #expect(table.render(mode: .markdown).contains("| 90.09 |"), "\(table.render(mode: .markdown))")
        #expect(table.render(mode: .line).contains("total = 90.09"), "\(table.render(mode: .line))")
        #expect(table.render(mode: .csv) == "total\n\(exact)\n12615.05", "\(table.render(mode: .csv))")
        #expect(table.render(mode: .json).contains(exact), "\(table.render(mode: .json))")
        // One object, and grouped rows, as the REPL prints them.
        var format = TableFormat()
        format.width = 80
        let record = TextTable.record(headers: ["id", "total"], values: [.text("I/1"), .real(2328.600000000004)], format: format)
        #expect(record.hasSuffix("I/1 | 2328.6"), "\(record)")
        let rows = TextTable.rows(headers: ["g", "sum"], values: [[.text("a"), .real(523.0600000000002)]], format: format).render(format)
        #expect(rows.contains("a | 523.06"), "\(rows)")
    }

    @Test func aTableOfSummariesShowsSixDigitsAndItsCSVEveryDigit() {
        var table = TextTable(headers: ["column", "mean"], values: [[.text("n"), .real(29.8478260869565)]])
        table.digits = 6
        #expect(table.render(mode: .table).hasSuffix("n      | 29.8478"), "\(table.render(mode: .table))")
        #expect(table.render(mode: .csv).hasSuffix("n,29.8478260869565"), "\(table.render(mode: .csv))")
    }

    /// An integral double is written as its integer and `.0`, as "%.1f" writes it, up to
    /// 1e15, negative zero included; past that, Swift's shortest text.
    @Test func integralDoublesAreWrittenAsPercentOneF() {
        let values: [Double] = [0, -0.0, 1, -1, 5, -3, 1e14, -1e14, 999_999_999_999_999, 123_456_789, 9_007_199_254_740]
        for d in values { #expect(Value.format(d) == String(format: "%.1f", d), "\(d)") }
        #expect(Value.format(-0.0) == "-0.0")
        #expect(Value.format(1e16) == "1e+16")
        #expect(Value.format(2.5) == "2.5")
    }

    /// An export writes a double as `Value.format` does: integral ones in place (digits and
    /// `.0`), every other one from its text, in CSV and JSON alike.
    @Test func exportsWriteDoublesAsValueFormat() {
        let integral: [Double] = [0, -0.0, 1, -1, 1_357_034_400, -9_999, 10_000, 999_999_999_999_999, 1e15, -1e15, 1e16]
        let values = integral + [2.5, -0.5, 1e-7, .infinity, -.infinity, .nan]
        for format in [TableWriter.Format.csv, .json] {
            var writer = TableWriter(format: format, columns: ["x"])
            var out: [UInt8] = []
            for d in values {
                writer.beginRow(into: &out)
                writer.real(d, into: &out)
                writer.endRow(into: &out)
            }
            let expected = values.map { d in
                let text = format == .json && !d.isFinite ? "null" : Value.format(d)
                return format == .json ? "{\"x\": \(text)}" : text + "\n"
            }
            // JSON rows after the first start with a comma and a new line.
            let written = String(decoding: out, as: UTF8.self)
            #expect(written == (format == .json ? expected.joined(separator: ",\n ") : expected.joined()), "\(format)")
        }
    }
}

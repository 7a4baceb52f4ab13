import QuarryFormat
import QuarryStore
import Testing

// Charts drawn on small inputs, character for character.

struct ChartTests {
    @Test func barsScaleToTheLargestValueWithEighths() {
        let text = Chart.bars(title: "n by k", labels: ["a", "bb", "c"], values: [8, 3, 0], style: ChartStyle(width: 16, unicode: true))
        // 16 columns: label 2, " │", value 1, a space: 10 cells for the largest bar.
        #expect(text == "n by k\n a │██████████ 8\nbb │███▊ 3\n c │ 0", "\(text)")
        let ascii = Chart.bars(title: "n by k", labels: ["a", "bb"], values: [8, 3], style: ChartStyle(width: 16, unicode: false))
        #expect(ascii == "n by k\n a |########## 8\nbb |### 3", "\(ascii)")
    }

    @Test func aTinyValueStillShowsAndLongLabelsAreCut() {
        let text = Chart.bars(
            title: "t", labels: [String(repeating: "x", count: 30), "y"], values: [1000, 1], style: ChartStyle(width: 40, unicode: true))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("xxxxxxxxxxxx… │"), "\(text)")
        #expect(lines[2].hasSuffix("│▏ 1"), "\(text)")
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(text)")
    }

    @Test func lineColumnsRiseFromTheAxisWithLabels() {
        var style = ChartStyle(width: 20, unicode: true)
        style.height = 2
        let text = Chart.line(title: "y by x", xs: [1, 2, 3], ys: [0, 2, 4], xLabel: { CellText.number($0) }, style: style)
        // Three points share the 17 cells right of the axis, five each; 16 eighths in the
        // plot: 0, 8 and 16 of them.
        #expect(text == "y by x\n4 ┤          █████\n0 ┤     ██████████\n  └───────────────\n   1             3", "\(text)")
        style.unicode = false
        let ascii = Chart.line(title: "y by x", xs: [1, 2, 3], ys: [0, 2, 4], xLabel: { CellText.number($0) }, style: style)
        #expect(ascii == "y by x\n4 |          #####\n0 |     ##########\n  +---------------\n   1             3", "\(ascii)")
    }

    /// On an axis that does not start at 0 each column is one mark at its value: filled
    /// from the bottom label, 71 against 79 read as a tenfold difference.
    @Test func anAxisFromElsewhereThanZeroMarksEachValueAlone() {
        var style = ChartStyle(width: 40, unicode: true)
        style.height = 6
        let ys: [Double?] = [71, 79, 75, 72, 78]
        let text = Chart.line(title: "y by x", xs: [1, 2, 3, 4, 5], ys: ys, xLabel: { CellText.number($0) }, style: style)
        let plot = text.split(separator: "\n").dropFirst().prefix(6).map { String($0.drop { $0 != "┤" }.dropFirst()) }
        try? #require(plot.count == 6, "\(text)")
        let width = plot.first?.count ?? 0
        let marks = (0..<width).map { column in plot.count { Array($0)[column] != " " } }
        #expect(marks.allSatisfy { $0 == 1 }, "one mark a column: \(text)")
        // The highest value's mark is in the top row, the lowest's in the bottom one.
        #expect(Array(plot[0])[6..<12].allSatisfy { $0 != " " } && Array(plot[5])[0..<6].allSatisfy { $0 != " " }, "\(text)")
        // From 0, columns still rise as bars do.
        let counts = Chart.line(title: "n", xs: [1, 2], ys: [2, 4], xLabel: { CellText.number($0) }, style: style)
        #expect(counts.split(separator: "\n")[6].hasSuffix(String(repeating: "█", count: 36)), "\(counts)")
    }

    @Test func datesLabelToTheDayWhenEveryOneIsMidnight() {
        #expect(CellText.dates([0, 86400]) == ["1970-01-01", "1970-01-02"])
        #expect(CellText.dates([0, 90]) == ["1970-01-01 00:00", "1970-01-01 00:01"])
        // A value as tables show it (Lua's tostring); counts whole and grouped.
        #expect(CellText.number(336_776) == "336,776" && CellText.number(12.63907) == "12.63907")
        #expect(CellText.number(90.08999999999992) == "90.09")
    }
}

struct TextTableTests {
    @Test func wideTablesKeepWholeHeadersAndSayWhatIsLeftOut() {
        var format = TableFormat()
        format.width = 30
        let table = TextTable(headers: ["scheduled_departure", "carrier", "destination_airport"], values: [[.integer(5), .text("UA"), .text("LAX")]])
        #expect(
            table.render(format) == "scheduled_departure | carrier\n--------------------+--------\n                  5 | UA\n… +1 column",
            "\(table.render(format))")
    }

    /// As Lua's `tostring` prints them (14 significant digits), so money keeps its cents
    /// (12615.05 is not 12615.0) and a sum's float noise goes; CSV and JSON keep every digit.
    @Test func numbersPrintInFullInEveryMode() {
        let table = TextTable(headers: ["x"], values: [[.real(1.0 / 3)], [.real(12345.678912)], [.null]])
        // nil right-aligned with the numbers of its column, as DuckDB's shell aligns NULL.
        #expect(table.render(mode: .table) == "x\n----------------\n0.33333333333333\n    12345.678912\n             nil")
        let money = TextTable(headers: ["total"], values: [[.real(12615.05)], [.real(267868.18)], [.real(195.1)], [.real(3)]])
        #expect(money.render(mode: .table) == "total\n---------\n 12615.05\n267868.18\n    195.1\n      3.0")
        #expect(table.render(mode: .csv) == "x\n0.3333333333333333\n12345.678912\n")
        #expect(table.render(mode: .json) == "[{\"x\": 0.3333333333333333},\n {\"x\": 12345.678912},\n {\"x\": null}]")
    }

    @Test func longRowListsShowFirstAndLastWithTheCount() {
        var format = TableFormat()
        format.maxRows = 4
        let text = TextTable.rows(headers: ["n"], values: (1...1500).map { [.integer(Int64($0))] }, format: format).render(format)
        #expect(text == "n\n----\n   1\n   2\n…\n1499\n1500\n(1,500 rows)", "\(text)")
    }
}

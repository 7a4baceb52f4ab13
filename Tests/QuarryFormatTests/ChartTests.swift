import Foundation
import QuarryFormat
import QuarryModel
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
        // x: its ends and the round 2 between them, under its column.
        #expect(text == "y by x\n4 ┤          █████\n0 ┤     ██████████\n  └───────────────\n   1      2      3", "\(text)")
        style.unicode = false
        let ascii = Chart.line(title: "y by x", xs: [1, 2, 3], ys: [0, 2, 4], xLabel: { CellText.number($0) }, style: style)
        #expect(ascii == "y by x\n4 |          #####\n0 |     ##########\n  +---------------\n   1      2      3", "\(ascii)")
    }

    /// Both axes labelled at a few round values between their ends, as gnuplot's dumb
    /// terminal labels them, all within the width: the y labels in rows of their own, the
    /// ticks with one number of decimals (1.0 beside 1.5), the x labels two spaces apart.
    @Test func lineAxesAreLabelledAtRoundTicks() {
        var style = ChartStyle(width: 60, unicode: true)
        style.height = 12
        let years = (1990...2024).map(Double.init)
        let text = Chart.line(
            title: "price by year", xs: years, ys: years.map { ($0 - 1990) / 34 * 2.25 }, xLabel: { CellText.axis($0) }, style: style)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try? #require(lines.count == 15, "\(text)")
        let yLabels = lines[1...12].map { String($0.prefix { $0 != "┤" }).trimmingCharacters(in: .whitespaces) }
        #expect(yLabels.filter { !$0.isEmpty } == ["2.25", "1.5", "1.0", "0.5", "0"], "\(text)")
        // No two labelled rows next to each other.
        let labelled = yLabels.indices.filter { !yLabels[$0].isEmpty }
        #expect(zip(labelled, labelled.dropFirst()).allSatisfy { $1 - $0 >= 2 }, "\(text)")
        let xAxis = lines[14].split(separator: " ").map(String.init)
        #expect(xAxis == ["1990", "2000", "2010", "2024"] || xAxis == ["1990", "2000", "2010", "2020", "2024"], "\(text)")
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(text)")
        // Each x label under its own column: 2000 where the tenth of 34 years falls.
        let plotStart = lines[13].firstIndex(of: "└").map { lines[13].distance(from: lines[13].startIndex, to: $0) + 1 } ?? 0
        let at2000 = lines[14].range(of: "2000").map { lines[14].distance(from: lines[14].startIndex, to: $0.lowerBound) } ?? 0
        let column = Double(at2000 + 2 - plotStart) / Double(lines[13].count - plotStart)
        #expect(abs(column - 10.0 / 34) < 0.05, "\(column): \(text)")
        // Text x (months): labels at points of the series between the ends.
        let months = (1...12).map { String(format: "2024-%02d", $0) }
        let monthly = Chart.line(
            title: "n by month", xs: months.indices.map(Double.init), ys: months.indices.map { Double($0) },
            xLabel: { months[Int($0)] }, xTicks: .points, style: style)
        let axis = monthly.split(separator: "\n").last.map { $0.split(separator: " ").map(String.init) } ?? []
        #expect(axis.count >= 3 && axis.first == "2024-01" && axis.last == "2024-12" && axis.allSatisfy(months.contains), "\(monthly)")
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

    @Test func datesLabelAsTablesShowThemToTheDayWhenEveryOneIsMidnight() {
        #expect(CellText.dates([0, 86400]) == ["1970-01-01", "1970-01-02"])
        #expect(CellText.dates([0, 90.5]) == ["1970-01-01T00:00:00Z", "1970-01-01T00:01:30.5Z"])
        #expect(CellText.dates([0, 90]) == [0, 90].map { CellText.display(.date($0)) })
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

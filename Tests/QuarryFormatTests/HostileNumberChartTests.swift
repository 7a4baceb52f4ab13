import Foundation
import QuarryFormat
import QuarryStore
import Testing

/// Issue 48: charts of numbers at the ends of the double range, infinities and NaN: no
/// arithmetic trap, and what has no mark counted in a line under the chart.
@Suite struct HostileNumberChartTests {
    @Test func barsLeaveOutInfinitiesAndNaNAndCountThem() {
        let text = Chart.bars(
            title: "v by k", labels: ["a", "b", "c", "d", "e"], values: [.infinity, 1, nil, -.infinity, .nan],
            style: ChartStyle(width: 20, unicode: false))
        #expect(text == "v by k\na | inf\nb |############ 1\nc | nil\nd | -inf\ne | nan\n3 values are inf or nan, left out", "\(text)")
        // The whole range of doubles scales, and counted-apart values add to the line.
        let wide = Chart.bars(
            title: "t", labels: ["lo", "hi"], values: [-1.7976931348623157e308, 1.7976931348623157e308], leftOut: 1,
            style: ChartStyle(width: 30, unicode: false))
        #expect(wide.hasSuffix("\n1 value is inf or nan, left out") && wide.contains("hi |#"), "\(wide)")
    }

    @Test func linesSpanningTheWholeDoubleRangeDraw() {
        // Labels to six significant digits (-1.79769e+308, 13 columns): 30 columns leave
        // the plot 15, two points of 7 each.
        var style = ChartStyle(width: 30, unicode: false)
        style.height = 2
        let max = Double.greatestFiniteMagnitude
        // Two x at the ends of the range, y from -max to max: a mark at the bottom, one at
        // the top (an axis not from 0 marks values, it fills no column).
        let text = Chart.line(title: "y", xs: [-max, max, 3, nil, .nan], ys: [-max, max, .infinity, 1, 2], xLabel: { _ in "x" }, style: style)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 6 && lines[1].hasSuffix("|       #######") && lines[2].hasSuffix("|.......       "), "\(text)")
        #expect(lines.last == "2 values are inf or nan, left out", "\(text)")
        // Points at the largest double in one column average to it (a sum would be inf,
        // and draw nothing): the column is full.
        let crowded = Chart.line(
            title: "y", xs: Array(repeating: 1, count: 5), ys: Array(repeating: max, count: 5), xLabel: { _ in "x" }, style: style)
        // (Labels of 12 columns leave 16, five points' columns of 3.)
        #expect(crowded.split(separator: "\n").dropFirst().prefix(2).allSatisfy { $0.hasSuffix("|###            ") }, "\(crowded)")
        #expect(
            Chart.line(title: "y", xs: [.infinity], ys: [1], xLabel: { _ in "x" }, style: style) == "y\n(no points)\n1 value is inf or nan, left out")
    }
}

import QuarryFormat
import Testing

/// How sections share `.maxrows` and where a line chart's y axis starts, on small inputs.
@Suite struct DisplayShareTests {
    @Test func sectionsShareMaxrowsFairly() {
        // Whole when they fit.
        #expect(ResultsTable.sectionShares([3, 4], rows: 20) == (2, 4))
        // Two big sections and a small one: the big ones give up the same, the small one shows whole.
        #expect(ResultsTable.sectionShares([100, 100, 2], rows: 20) == (3, 9))
        // Two sections and .maxrows 6: three rows each.
        #expect(ResultsTable.sectionShares([20, 20], rows: 6) == (2, 3))
        // More sections than fit at three rows: the first that fit at three rows (or fewer) each.
        #expect(ResultsTable.sectionShares(Array(repeating: 40, count: 300), rows: 20) == (6, 3))
        #expect(ResultsTable.sectionShares(Array(repeating: 1, count: 30), rows: 6) == (6, 3))
        // .maxrows 0: every row.
        #expect(ResultsTable.sectionShares([1000, 1], rows: .max) == (2, 1000))
    }

    @Test func aLineChartsAxisFollowsItsData() {
        // Far from 0: the range, widened and rounded out.
        let (low, high) = Chart.yRange(5_000_037, 5_001_110)
        #expect(low == 4_999_900 && high == 5_001_200, "\(low) \(high)")
        // Near 0 or holding it: from 0, up to the largest value, as before.
        #expect(Chart.yRange(10, 100) == (0, 100))
        #expect(Chart.yRange(0, 4) == (0, 4))
        #expect(Chart.yRange(-5, 3) == (-5, 3))
        #expect(Chart.yRange(-100, -90) == (-101, -89))
        #expect(Chart.yRange(7, 7) == (0, 7))
        // Labels: the ends, and round values between them in rows of their own, grouped.
        let grouped = Chart.yAxisLabels(low: 4_999_900, high: 5_001_200, rows: 12)
        #expect(grouped[11] == "5,001,200" && grouped[0] == "4,999,900" && grouped.values.contains("5,000,600") && grouped.count == 6, "\(grouped)")
        let mean = Chart.yAxisLabels(low: 0, high: 714444.28571429, rows: 12)
        #expect(mean[11] == "714,444" && mean[0] == "0" && mean.values.contains("400,000"), "\(mean)")
        let prices = Chart.yAxisLabels(low: 0, high: 2.25, rows: 12)
        // The ticks share their decimals; the ends are written as themselves.
        #expect(prices == [11: "2.25", 7: "1.5", 5: "1.0", 2: "0.5", 0: "0"], "\(prices)")
    }
}

import Foundation
import Testing

/// A histogram's bin edges read alike, as a person reads a column of ranges (issue 80:
/// `1,071 – 661806.2` mixed grouped integers with ungrouped reals, `50.222 – 51.1589` two
/// numbers of decimals): one number of decimals for every edge, integral parts grouped.
@Suite struct HistogramLabelTests {
    private static func labels(_ chart: String) -> [String] {
        chart.split(separator: "\n").dropFirst().map {
            String($0.split(whereSeparator: { $0 == "│" || $0 == "|" }).first ?? "").trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func everyEdgeIsWrittenOneWay() throws {
        let h = try Harness()
        h.run(#"entity "File" { size = "double" }; File:new{ size = 1071 }; File:new{ size = 661806.2 }; File:new{ size = 5000.25 }; save()"#)
        let chart = try #require(h.string(#"histogram(fetch("File"), "size", { bins = 3 })"#))
        #expect(Self.labels(chart) == ["1,071 – 221,316", "221,316 – 441,561", "441,561 – 661,806"], "\(chart)")
    }

    /// Edges of a narrow range of reals: four decimals each (six significant digits of
    /// the largest), 50.2220 beside 51.1589, not 50.222.
    @Test func edgesOfOneChartHaveOneNumberOfDecimals() throws {
        let h = try Harness()
        h.run(#"entity "T" { x = "double" }; for _, x in ipairs{ 50.222, 53.0, 55.9997 } do T:new{ x = x } end; save()"#)
        let chart = try #require(h.string(#"histogram(fetch("T"), "x", { bins = 6 })"#))
        let labels = Self.labels(chart)
        try #require(labels.count == 6, "\(chart)")
        let edges = labels.flatMap { $0.components(separatedBy: " – ") }
        #expect(edges.first == "50.2220" && edges.last == "55.9997", "\(chart)")
        let decimals = Set(edges.map { $0.split(separator: ".").last?.count ?? 0 })
        #expect(decimals == [4], "\(chart)")
        // Each bucket's upper edge is the next one's lower edge, as written.
        for i in 1..<labels.count { #expect(edges[2 * i - 1] == edges[2 * i], "\(chart)") }
    }

    /// A value on an edge as its label writes it is counted in the bucket the edge starts
    /// (trial 32: 8.7 among ratings from 8.1 to 9.3 went under `8.58 – 8.70`, so a
    /// reader of the chart counted 13 from 8.70 up where `count("rating >= 8.7")` is 18).
    @Test func aValueOnAnEdgeIsInTheBucketItStarts() throws {
        let h = try Harness()
        h.run(#"entity "M" { rating = "double" }; for i = 81, 93 do M:new{ rating = i / 10 } end; M:new{ rating = 8.7 }; save()"#)
        let chart = try #require(h.string(#"histogram(fetch("M"), "rating", { bins = 10 })"#))
        let rows = chart.split(separator: "\n").dropFirst().map(String.init)
        let fromEdge = try #require(rows.first { $0.hasPrefix("8.70 – ") }, "\(chart)")
        #expect(fromEdge.hasSuffix(" 3"), "the two 8.7s and 8.8: \(chart)")
        // Every value is counted once, whatever its bucket.
        let total = rows.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +)
        #expect(total == 14, "\(chart)")
    }
}

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
}

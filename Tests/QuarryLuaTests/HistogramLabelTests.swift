import Foundation
import Testing

/// A histogram's bin edges read alike (issue 80: `1,071 – 661806.2` mixed grouped integers
/// with ungrouped reals): six significant digits, no grouping, no `.0`.
@Suite struct HistogramLabelTests {
    @Test func everyEdgeIsWrittenOneWay() throws {
        let h = try Harness()
        h.run(#"entity "File" { size = "double" }; File:new{ size = 1071 }; File:new{ size = 661806.2 }; File:new{ size = 5000.25 }; save()"#)
        let chart = try #require(h.string(#"histogram(fetch("File"), "size", { bins = 3 })"#))
        let labels = chart.split(separator: "\n").dropFirst().map {
            String($0.split(whereSeparator: { $0 == "│" || $0 == "|" }).first ?? "").trimmingCharacters(in: .whitespaces)
        }
        #expect(labels == ["1071 – 221316", "221316 – 441561", "441561 – 661806"], "\(chart)")
    }
}

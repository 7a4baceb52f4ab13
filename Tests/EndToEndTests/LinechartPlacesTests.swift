import Foundation
import Testing

/// `linechart` places each point at its x: unevenly spaced x (0, 9, 10, 11, 25) keep their
/// own columns, and each reaches its value (a mean of neighbours drew the peak of 17 at 10);
/// whole x are labelled by whole ticks under their own columns.
@Suite struct LinechartPlacesTests {
    /// The chart's plot rows (top first) as the cells right of the axis, the x axis's
    /// labels in the same columns, and the y label of each row.
    private func chart(_ lua: String) async throws -> (rows: [[Character]], labels: String, yLabels: [String], footer: [String]) {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["-e", "print(linechart(sql(\"\(lua)\"), 'x', 'n'))"])
        try #require(result.status == 0, "\(result)")
        let lines = result.lines
        let plot = lines.filter { $0.contains("┤") || $0.contains(" |") }
        let axis = try #require(lines.firstIndex { $0.contains("└") || $0.contains("+-") }, "\(result)")
        let rows = plot.map { line in Array(line.split(separator: line.contains("┤") ? "┤" : "|", maxSplits: 1).last ?? "") }
        let yLabels = plot.map { String($0.prefix { $0 != "┤" && $0 != "|" }).trimmingCharacters(in: .whitespaces) }
        // The labels line starts where the cells do (gutter + the axis character).
        let start = (plot.first?.firstIndex { $0 == "┤" || $0 == "|" }).map { plot[0].distance(from: plot[0].startIndex, to: $0) + 1 } ?? 0
        let labels = String(lines[axis + 1].dropFirst(start))
        return (rows, labels, yLabels, Array(lines.dropFirst(axis + 2)))
    }

    @Test func aPeakBetweenNeighboursReachesItsValue() async throws {
        let drawn = try await chart(
            "SELECT 0 AS x, 3 AS n UNION ALL SELECT 9, 2 UNION ALL SELECT 10, 17 UNION ALL SELECT 11, 3 UNION ALL SELECT 25, 2")
        #expect(drawn.yLabels.first == "17", "\(drawn)")
        // The top row holds the peak, in one column: x = 10's, 10/25 of the way along.
        let top = drawn.rows[0]
        let filled = top.indices.filter { top[$0] != " " }
        try #require(!filled.isEmpty, "the top row is empty: \(drawn)")
        let middle = Double(filled.first! + filled.last!) / 2 / Double(top.count)
        #expect(abs(middle - 10.0 / 25) < 0.05, "\(middle): \(drawn)")
        // Its neighbours at 9 and 11 are columns of their own, low.
        #expect(filled.count <= top.count / 20 + 1, "\(drawn)")
    }

    @Test func wholeXTakeWholeTicksUnderTheirColumns() async throws {
        let drawn = try await chart("SELECT 1 AS x, 1 AS n UNION ALL SELECT 2, 2 UNION ALL SELECT 3, 3 UNION ALL SELECT 4, 4")
        let words = drawn.labels.split(separator: " ").map(String.init)
        #expect(words.first == "1" && words.last == "4" && words.allSatisfy { ["1", "2", "3", "4"].contains($0) }, "\(drawn)")
        // Four columns of equal width: each label stands under the column of its x, which
        // is as high as x.
        let bottom = drawn.rows.last ?? []
        let width = bottom.count { $0 != " " } / 4
        try #require(width > 0, "\(drawn)")
        let labels = Array(drawn.labels)
        for (i, label) in labels.enumerated() where label != " " && i > 0 && i < labels.count - 1 {
            #expect(Int(String(label)) == i / width + 1, "'\(label)' at \(i), columns of \(width): \(drawn)")
        }
        #expect(drawn.footer.isEmpty, "\(drawn)")
    }

    @Test func pointsSharingAColumnSayHowTheyAreDrawn() async throws {
        // 300 points in a chart of fewer columns: each column rises to its highest.
        let drawn = try await chart(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300) SELECT x * 1.5 AS x, CASE WHEN x = 150 THEN 100 ELSE 1 END AS n FROM c"
        )
        #expect(drawn.yLabels.first == "100" && drawn.rows[0].contains { $0 != " " }, "\(drawn)")
        #expect(drawn.footer.contains("several points share a column: it rises to their highest value"), "\(drawn)")
    }
}

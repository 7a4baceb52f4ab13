import Testing

/// Issue 80, point 7: `linechart` takes text x values (a month as '2024-03', a date SQLite
/// keeps as text), one place a row in the rows' order, labelled by the first and last.
@Suite struct ChartTextAxisTests {
    @Test func aMonthlySeriesIsPlottedInTheRowsOrder() throws {
        let h = try Harness()
        h.run(
            """
            entity "Sale" { day = "date", amount = "double" }
            for m = 1, 12 do Sale:new{ day = date(string.format("2024-%02d-15", m)), amount = m * 10 } end
            save()
            """)
        let chart = h.string(
            #"linechart(sql("SELECT strftime('%Y-%m', day, 'unixepoch') AS month, sum(amount) AS total FROM Sale GROUP BY month ORDER BY month"), "month", "total")"#
        )
        let lines = chart?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.first == "total by month", "\(lines)")
        // The x axis reads from the first month to the last.
        let axis = lines.last?.trimmingCharacters(in: .whitespaces) ?? ""
        #expect(axis.hasPrefix("2024-01") && axis.hasSuffix("2024-12"), "\(lines)")
        // Rising amounts: the first column is the lowest bar, the last reaches the top.
        let top = lines[1]
        #expect(top.contains("120") && !top.hasSuffix(" "), "\(lines)")
        // A text x with a nil among them: that row has no point, the others are drawn.
        let gap = h.string(#"linechart(sql("SELECT 'a' AS x, 1 AS y UNION ALL SELECT NULL, 2 UNION ALL SELECT 'c', 3"), "x", "y")"#) ?? ""
        #expect(gap.hasSuffix("c") && gap.contains("y by x"), "\(gap)")
        // Values that are not numbers on the y axis are still refused, saying which.
        #expect(h.error(#"linechart(sql("SELECT 'a' AS x, 'b' AS y"), "x", "y")"#).contains("'y' holds string values"))
    }

    /// A number x is a place on the axis, labelled as a table shows it: years read `1965`
    /// and `2024` (they read `1,965` and `2,024`, grouped as counts are).
    @Test func yearsOnTheXAxisAreNotGrouped() throws {
        let h = try Harness()
        let chart = h.string(#"linechart(sql("SELECT 1965 AS year, 3 AS n UNION ALL SELECT 2024, 5000"), "year", "n")"#) ?? ""
        let axis = chart.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) ?? ""
        #expect(axis.hasPrefix("1965") && axis.hasSuffix("2024"), "\(chart)")
        // The y axis is a value: grouped where the chart's numbers reach 10,000, as a
        // magnitude; below, written as a table writes it.
        #expect(chart.contains("5000 ") && !chart.contains("5,000"), "\(chart)")
        let large = h.string(#"linechart(sql("SELECT 1965 AS year, 3 AS n UNION ALL SELECT 2024, 50000"), "year", "n")"#) ?? ""
        #expect(large.contains("50,000"), "\(large)")
    }
}

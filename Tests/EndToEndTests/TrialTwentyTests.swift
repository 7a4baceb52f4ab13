import Foundation
import Testing

/// A new user's trial on a loans database (borrowings and their repayments, dates kept as
/// text): the moments where one value read two ways, typed as a person types.
@Suite struct TrialTwentyTests {
    /// Visits at whole seconds whose mean falls on half a second.
    private func visits(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.quarry([
            "v.db", "-e",
            #"""
            entity "Visit" { at = "date" }
            for i = 1, 4 do Visit:new{ at = date(1600000000 + i * 86400 * 11 + i) } end
            save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
    }

    /// The statistic of one line of `.mode line`, as `name = value`.
    private func field(_ lines: [String], _ name: String) -> String? {
        lines.lazy.compactMap { line -> String? in
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return parts.count == 2 && parts[0] == name ? parts[1] : nil
        }.first
    }

    /// summarize() in `.mode line` showed a date's spread as raw seconds (`stddev =
    /// 25380688`) and its mean to the millisecond, where the table shows `293.758 days`
    /// and the mean to the second: the same statistics, read two ways. Both modes show them
    /// alike; CSV keeps the seconds.
    @Test func aSummaryInLineModeShowsADatesSpreadAsTheTableDoes() async throws {
        let sandbox = try Sandbox()
        try await visits(sandbox)
        // Wide enough that the CSV row is one line of the pane.
        let repl = try await TmuxSession(sandbox, arguments: ["v.db"], columns: 240)
        try await repl.waitForPrompt()
        let table = try await repl.enter(#"=summarize("Visit")"#)
        let header = try #require(table.first).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let row = try #require(table.first { $0.hasPrefix("at ") }, "\(table)").split(separator: "|")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let tableMean = row[try #require(header.firstIndex(of: "mean"))]
        let tableSpread = row[try #require(header.firstIndex(of: "stddev"))]
        #expect(tableSpread.hasSuffix(" days") && !tableMean.contains("."), "\(row)")

        #expect(try await repl.enter(".mode line") == [])
        let lines = try await repl.enter(#"=summarize("Visit")"#)
        #expect(field(lines, "stddev") == tableSpread, "\(lines)")
        #expect(field(lines, "mean") == tableMean, "\(lines)")

        #expect(try await repl.enter(".mode csv") == [])
        let csv = try await repl.enter(#"=summarize("Visit")"#)
        let seconds = try #require(csv.last?.split(separator: ",").map(String.init), "\(csv)")
        let names = try #require(csv.first?.split(separator: ",").map(String.init), "\(csv)")
        let spread = try #require(names.firstIndex(of: "stddev"))
        try #require(seconds.count == names.count, "\(csv)")
        #expect(Double(seconds[spread]) != nil, "CSV keeps the seconds: \(csv)")
    }

    /// `Borrowings:first(nil, { sort = "-BRW_Amount" })` was refused naming fetch{}'s
    /// table form; first has its own, which the message now names.
    @Test func firstWithOptionsAsAnArgumentNamesItsOwnTableForm() async throws {
        let sandbox = try Sandbox()
        try await visits(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["v.db"], columns: 200)
        try await repl.waitForPrompt()
        let refused = try await repl.enter(#"Visit:first(nil, { sort = "-at" })"#).joined()
        #expect(refused.contains(#"Item:first{ predicate = "...", sort = "-key" }"#) && !refused.contains("fetch{"), "\(refused)")
        #expect(try await repl.enter(#"=Visit:first{ sort = "-at" }.at.day"#) != [])
    }

    /// A histogram of disbursal dates kept to the millisecond labelled its edges each as a
    /// table writes it (`2015-11-02T16:17:29.49Z`, `…09.652Z`, `…50.3Z`), each range
    /// right-aligned, so the column of ranges was ragged; they now line up on their dash,
    /// each date still as a table writes it.
    @Test func aDateHistogramsRangesLineUp() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "l.db", "-e",
            #"""
            entity "Loan" { at = "date" }
            for _, t in ipairs{ 1446481049.49, 1470000000.125, 1500000000.5, 1530000000, 1569717050.3 } do Loan:new{ at = date(t) } end
            save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["l.db"], columns: 160)
        try await repl.waitForPrompt()
        let chart = try await repl.enter(#"histogram("Loan", "at", { bins = 5 })"#)
        let bars = Array(chart.dropFirst())
        let dashes = bars.compactMap { line in line.range(of: " – ").map { line.distance(from: line.startIndex, to: $0.lowerBound) } }
        #expect(dashes.count == 5 && Set(dashes).count == 1, "the ranges line up: \(chart)")
        // The axis is `│`, or `|` where the locale is not UTF-8: it lines up too.
        let axes = bars.compactMap { line in line.firstIndex { "│|".contains($0) }.map { line.distance(from: line.startIndex, to: $0) } }
        #expect(axes.count == 5 && Set(axes).count == 1, "\(chart)")
        #expect(bars.first?.contains("2015-11-02T16:17:29.49Z – 2016-08-13T22:44:09.652Z") == true, "as a table writes them: \(chart)")
        #expect(bars.last?.contains("2019-09-29T00:30:50.3Z ") == true, "\(chart)")
    }
}

import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarryShell
import QuarryStore
import Testing

/// A SQLite file Quarry did not create may hold text in an INTEGER or REAL column (a
/// Django or GTFS file's `''`, a `'n/a'`). Text is no number: `summarize` counts it
/// (`text`) and leaves it out of min, max, mean, stddev and the quartiles, in the one
/// scan and the exact way alike, where SQLite's avg() read `''` as 0. Every statistic
/// is checked against the numbers read by hand with plain SQL, and the two ways against
/// each other.
@Suite struct SummaryTextInNumbersTests {
    /// `n` INTEGER and `r` REAL with numbers, text (`''`, `'n/a'`, `' '`), a blob and NULL;
    /// `t` only text; `s` a text column; `d` a date column of numbers and one text.
    static func file() throws -> String {
        try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, r REAL, only INTEGER, s TEXT);
            INSERT INTO t (n, r, only, s) VALUES
              (10, 1.5, '', 'a'), ('', 2.5, 'x', 'b'), (30, '', NULL, ''), ('n/a', NULL, '', 'c'), (NULL, 4.0, 'y', NULL),
              (20, 'x', '', 'd'), (x'00ff', -3.25, '', 'e'), (-7, ' ', 'z', 'f'), (25, 100, '', 'g'), (' ', 8.5, '', 'h');
            """)
    }

    /// The numbers of `column` (as SQLite stores them), read with plain SQL.
    static func numbers(_ path: String, _ column: String, where filter: String = "1") throws -> [Double] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Double.fetchAll(db, sql: "SELECT \(column) FROM t WHERE typeof(\(column)) IN ('integer', 'real') AND (\(filter))")
        }
    }

    /// How many cells of `column` hold text or bytes, by plain SQL.
    static func texts(_ path: String, _ column: String, where filter: String = "1") throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE typeof(\(column)) IN ('text', 'blob') AND (\(filter))") ?? -1
        }
    }

    /// What the REPL prints for `expression` (quarry.show, sent to a file as `.once` does).
    static func shown(_ h: Harness, _ expression: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-shown-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        h.run("quarry.__once = '\(path)'; quarry.show(\(expression))")
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The linear quantile of sorted values, as numpy's default and summarize compute it.
    static func quantile(_ q: Double, _ sorted: [Double]) -> Double {
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    static func close(_ a: Value?, _ b: Double) -> Bool {
        guard case .real(let x)? = a else { return false }
        return abs(x - b) <= 1e-9 * max(1, abs(b))
    }

    @Test(arguments: [false, true])
    func textIsCountedAndLeftOutOfEveryNumericStatistic(exact: Bool) throws {
        let path = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let context = try StoreOpener.open(path)
        defer { context.close() }
        for filter in [nil, "id > 2"] {
            var request = FetchRequest(entityName: "t")
            if let filter { request.predicate = try PredicateParser.parse(filter, arguments: PredicateArguments([])) }
            let summaries = try SummaryRequest(request, options: SummaryOptions(exact: exact)).execute(in: context)
            for column in ["n", "r"] {
                guard let summary = summaries.first(where: { $0.column == column }) else {
                    Issue.record("no summary of \(column)")
                    continue
                }
                let numbers = try Self.numbers(path, column, where: filter ?? "1").sorted()
                let texts = try Self.texts(path, column, where: filter ?? "1")
                let label = "\(column) exact=\(exact) filter=\(filter ?? "none")"
                #expect(texts > 0, "the file holds text in \(column)")
                #expect(summary.text == texts, "\(label): \(String(describing: summary.text))")
                #expect(summary.count == numbers.count + texts, "\(label): count is every non-nil cell")
                let mean = numbers.reduce(0, +) / Double(numbers.count)
                let deviation = (numbers.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(numbers.count - 1)).squareRoot()
                #expect(Self.close(summary.mean, mean), "\(label): mean \(String(describing: summary.mean)), numbers \(numbers)")
                #expect(Self.close(summary.stddev, deviation), "\(label): stddev \(String(describing: summary.stddev))")
                #expect(summary.min.storedReal == numbers.first && summary.max.storedReal == numbers.last, "\(label): \(summary.min) \(summary.max)")
                for (q, value) in zip([0.25, 0.5, 0.75], [summary.q25, summary.q50, summary.q75]) {
                    #expect(Self.close(value, Self.quantile(q, numbers)), "\(label): q\(q) \(String(describing: value))")
                }
            }
            // A column of text only: counted, and no numeric statistic at all.
            let only = summaries.first { $0.column == "only" }
            let onlyTexts = try Self.texts(path, "only", where: filter ?? "1")
            #expect(only?.text == onlyTexts && only?.count == onlyTexts, "\(String(describing: only))")
            #expect(only.map { Array($0.values[5...]) } == Array(repeating: .null, count: 7), "\(String(describing: only))")
            // A text column keeps its text, and has no text count.
            let s = summaries.first { $0.column == "s" }
            #expect(s?.text == nil && s?.min == .text(""), "\(String(describing: s))")
        }
    }

    /// The one scan (C) and the exact way (SQL) give the same row for every column.
    @Test func bothWaysAgree() throws {
        let path = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let context = try StoreOpener.open(path)
        defer { context.close() }
        let request = FetchRequest(entityName: "t")
        let quick = try SummaryRequest(request).execute(in: context)
        let exact = try SummaryRequest(request, options: SummaryOptions(exact: true)).execute(in: context)
        #expect(quick.map { $0.values(withText: true) } == exact.map { $0.values(withText: true) })
        #expect(quick.contains { ($0.text ?? 0) > 0 }, "the file holds text in number columns")
    }

    /// In Lua: a `text` column after `nulls` (only when some column holds text) and one
    /// note naming the columns; a store without such text keeps the twelve columns.
    @Test func summarizeSaysSoInItsRowsAndInANote() throws {
        let path = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let console = ConsoleAndFailureTests.RecordingConsole()
        let h = try Harness(context: try StoreOpener.open(path), console: console)
        for exact in ["false", "true"] {
            console.notes = []
            h.run(
                """
                local s = summarize("t", { exact = \(exact) })
                local n = s[2]
                assert(n.column == "n" and n.text == 4 and n.count == 9 and n.mean == 15.6, tostring(n.mean))
                assert(s[5].column == "s" and s[5].text == nil)
                """)
            #expect(
                console.notes == [
                    "note: summarize t: n holds 4 cells of text or bytes, r 3 of text, only 9 of text: not numbers, left out of min, max, mean, stddev and the "
                        + "quartiles (the text column counts them)"
                ], "\(console.notes)")
        }
        // A histogram bins the numbers and says how many cells of text it left out (n's
        // x'00ff' among them: bytes, named as such).
        let chart = h.string(#"histogram(fetch("t"), "n", { bins = 2 })"#) ?? ""
        #expect(chart.hasPrefix("n: 5 values in 2 bins") && chart.hasSuffix("\n4 cells are text or bytes, not numbers, left out"), "\(chart)")
        let header = try Self.shown(h, #"summarize("t")"#).prefix { $0 != "\n" }
        #expect(header.hasPrefix("column | type   | count | nulls | text | distinct"), "\(header)")
        // Quarry's own store: numbers only, no text column, no note.
        console.notes = []
        h.run(#"entity "Item" { n = "int64" }; Item:new{ n = 1 }; save(); assert(summarize("Item")[1].text == nil)"#)
        let own = try Self.shown(h, #"summarize("Item")"#).prefix { $0 != "\n" }
        #expect(own.hasPrefix("column | type  | count | nulls | distinct"), "\(own)")
        // (`shown` prints through `.once`, which says where it wrote.)
        #expect(console.notes.allSatisfy { $0.hasPrefix("written to ") }, "\(console.notes)")
    }
}

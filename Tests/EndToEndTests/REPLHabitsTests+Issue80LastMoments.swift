import Foundation
import Testing

/// The last newcomer moments of issue 80, typed as a person types: a histogram of an
/// integer column labelled with integers, a long text cut before a narrow column leaves
/// a wide terminal, and `created.year` on a text column of ISO times naming the
/// `format()` that makes it a date.
@Suite struct REPLIssue80LastMomentsTests {
    private func sqlite3(_ sandbox: Sandbox, _ file: String, _ sql: String) async throws -> String {
        let result = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(file), sql])
        try #require(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// `histogram("visit", "seconds")` on an INTEGER column: every edge an integer, grouped
    /// as the charts write integers (`1,071`), buckets of one integer width that follow
    /// each other (`10 – 509`, `510 – 1,009`), each counting what sqlite3 counts in it.
    @Test func anIntegerHistogramHasIntegerEdgesCountedAsSqlite3Counts() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "v.db",
            """
            CREATE TABLE visit (id INTEGER PRIMARY KEY, seconds INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
            INSERT INTO visit (seconds) SELECT 10 + (i * i * 37) % 4990 FROM n;
            INSERT INTO visit (seconds) VALUES (NULL);
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["v.db"], columns: 160)
        try await repl.waitForPrompt()
        let chart = try await repl.enter(#"print(histogram("visit", "seconds"))"#)
        let values = try await sqlite3(sandbox, "v.db", "SELECT count(seconds) FROM visit")
        let title = try #require(chart.first)
        #expect(title.hasPrefix("seconds: \(values) values in "), "\(chart)")
        let rows = chart.dropFirst().map { line -> (String, String) in
            let label = line.split(whereSeparator: { $0 == "│" || $0 == "|" }).first.map(String.init) ?? ""
            return (label.trimmingCharacters(in: .whitespaces), String(line.split(separator: " ").last ?? ""))
        }
        try #require(rows.count >= 2 && rows.count <= 10, "\(chart)")
        var previousUpper: Int?
        var widths: Set<Int> = []
        for (label, count) in rows {
            let ends = label.components(separatedBy: " – ")
            #expect(ends.count == 2 && !label.contains("."), "an integer label: \(label)")
            let numbers = ends.compactMap { Int($0.replacingOccurrences(of: ",", with: "")) }
            try #require(numbers.count == 2, "\(label)")
            // Grouped as everywhere else: 1,009 rather than 1009.
            #expect(ends.allSatisfy { $0.count < 4 || $0.contains(",") }, "\(label)")
            if let previousUpper { #expect(numbers[0] == previousUpper + 1, "\(chart)") }
            previousUpper = numbers[1]
            widths.insert(numbers[1] - numbers[0])
            let counted = try await sqlite3(sandbox, "v.db", "SELECT count(*) FROM visit WHERE seconds BETWEEN \(numbers[0]) AND \(numbers[1])")
            #expect(count == counted, "\(label): \(chart)")
        }
        #expect(widths.count == 1, "one width: \(chart)")
        #expect(rows.first?.0.hasPrefix(try await sqlite3(sandbox, "v.db", "SELECT min(seconds) FROM visit") + " – ") == true, "\(chart)")
    }
}

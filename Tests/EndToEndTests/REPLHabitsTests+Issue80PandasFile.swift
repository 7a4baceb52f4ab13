import Foundation
import Testing

/// Moments of a newcomer's trial on data-analysis files nobody here had used (an Airbnb
/// star schema, a crime table pandas wrote with its integers as 8-byte blobs): the notes
/// about such cells said text where the table showed `<8 bytes>`, and `r:sections()`
/// was answered "did you mean 'section'?", the key rather than the sections.
@Suite struct REPLIssue80PandasFileTests {
    /// A crime table whose `hora` holds numpy's int64 as 8 little-endian bytes, as pandas
    /// writes it where it cannot bind the value.
    private func crimes(_ sandbox: Sandbox) async throws {
        let result = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("crimes.db"),
                """
                CREATE TABLE crimes (id INTEGER PRIMARY KEY AUTOINCREMENT, hora INTEGER, bairro TEXT);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500)
                INSERT INTO crimes (hora, bairro) SELECT CAST(char(i % 24, 0, 0, 0, 0, 0, 0, 0) AS BLOB), 'CENTRO' FROM n;
                """
            ])
        try #require(result.status == 0, "\(result)")
    }

    /// summarize, a count and a histogram name the cells bytes, as the table shows them,
    /// with the count's digits grouped as summarize's.
    @Test func bytesCellsAreNamedBytes() async throws {
        let sandbox = try Sandbox()
        try await crimes(sandbox)
        let blobs = try await sandbox.run(
            HostileFileTests.sqlite3, [sandbox.path("crimes.db"), "SELECT count(*) FROM crimes WHERE typeof(hora) = 'blob'"])
        try #require(blobs.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1500", "\(blobs)")
        let repl = try await TmuxSession(sandbox, arguments: ["crimes.db"], columns: 160)
        try await repl.waitForPrompt()
        let shown = try await repl.enter(#"fetch{ "crimes", limit = 1 }"#).joined(separator: "\n")
        #expect(shown.contains("<8 bytes>"), "\(shown)")
        let summary = try await repl.enter(#"summarize("crimes")"#).joined()
        #expect(summary.contains("note: summarize crimes: hora holds 1,500 cells of bytes: not numbers"), "\(summary)")
        let counted = try await repl.enter(#"count("crimes", "hora > 12")"#)
        #expect(counted.last == "1500", "\(counted)")
        #expect(
            counted.joined().contains("note: rows counted whose cell holds bytes, not a number: 1,500 in crimes.hora (SQLite orders bytes after"),
            "\(counted)")
        let chart = try await repl.enter(#"histogram("crimes", "hora")"#)
        #expect(chart.last == "1,500 cells are bytes, not numbers, left out", "\(chart)")
    }

    /// `r:sections()` says what sectioned results are (the sections themselves: `#r`,
    /// `r[i]`), and how to make them when the results are not sectioned; `count(r)` says
    /// that `#r` counts results.
    @Test func sectionsAsAMethodSaysWhatSectionsAre() async throws {
        let sandbox = try Sandbox()
        try await crimes(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["crimes.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"r = fetch{ "crimes", section = "bairro", sort = "bairro", limit = 3 }"#)
        let sectioned = try await repl.enter("r:sections()").joined()
        #expect(sectioned.contains("sectioned results are their sections: #r counts them, r[i] is one"), "\(sectioned)")
        #expect(!sectioned.contains("did you mean"), "\(sectioned)")
        #expect(try await repl.enter("=#r") == ["1"])
        #expect(try await repl.enter("=r[1].name") == ["CENTRO"])
        let plain = try await repl.enter(#"fetch{ "crimes", limit = 1 }:sections()"#).joined()
        #expect(plain.contains(#"fetch{ "crimes", section = "key" } gives sectioned results"#), "\(plain)")
        // `count(r)`, as SQL's count() takes what it counts, names Lua's `#`.
        let counted = try await repl.enter(#"count(fetch{ "crimes", "bairro == 'CENTRO'" })"#).joined()
        #expect(counted.contains("got results; #r counts the objects results hold"), "\(counted)")
        #expect(try await repl.enter(#"=#fetch{ "crimes", "bairro == 'CENTRO'" }"#) == ["1500"])
    }
}

import Foundation
import Testing

/// The third hostile review's `sql()` findings, with the real binary: `fts3_tokenizer`
/// planted a pointer that the next query on an FTS3 table called (SIGSEGV), even under
/// --safe, and a result of big values crashed at the --memory limit.
extension HostileFileTests {
    static let plantedTokenizer = "SELECT fts3_tokenizer('simple', X'4141414141414141')"

    /// A file another program made, with an FTS3 table of three rows.
    func makeFullTextStore(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.run(
            Self.sqlite3,
            [
                sandbox.path("docs.db"),
                """
                CREATE VIRTUAL TABLE docs USING fts3(body);
                INSERT INTO docs(body) VALUES ('the quick brown fox'), ('a lazy dog'), ('quick thinking');
                """
            ])
        try #require(made.status == 0, "\(made)")
    }

    @Test(arguments: [[], ["--safe"]])
    func fts3TokenizerIsRefused(_ options: [String]) async throws {
        let sandbox = try Sandbox()
        try await makeFullTextStore(sandbox)
        let before = try bytes(sandbox, "docs.db")
        for call in ["sql(\"\(Self.plantedTokenizer)\")", #"print(sql("SELECT hex(fts3_tokenizer('simple')) AS p")[1].p)"#] {
            let result = try await sandbox.quarry(options + ["docs.db", "-e", call])
            expectOneLine(result, ["(command line):1: sql: fts3_tokenizer() is not allowed here"])
            #expect(result.lines.isEmpty, "an address was printed: \(result)")
        }
        let loading = try await sandbox.quarry(options + ["docs.db", "-e", #"sql("SELECT load_extension('/tmp/nothing.so')")"#])
        expectOneLine(loading, ["sql: load_extension() is not allowed here"])
        #expect(try bytes(sandbox, "docs.db") == before, "docs.db changed")
    }

    /// After the attempt, and a schema change by another program (the reload that called
    /// the planted pointer), full-text queries and ordinary functions still answer.
    @Test func fullTextQueriesWorkAfterTheAttempt() async throws {
        let sandbox = try Sandbox()
        try await makeFullTextStore(sandbox)
        let result = try await sandbox.quarry([
            "docs.db", "-e",
            """
            print(pcall(sql, "\(Self.plantedTokenizer)"))
            assert(os.execute("\(Self.sqlite3.path) docs.db 'CREATE TABLE other(x)'"))
            for _, row in ipairs(sql("SELECT body FROM docs WHERE docs MATCH ? ORDER BY body", "quick")) do print(row.body) end
            print(sql("SELECT snippet(docs) AS s FROM docs WHERE docs MATCH 'lazy'")[1].s)
            local r = sql([[SELECT date('2024-02-28', '+1 day') AS d, json_extract('{"a":3}', '$.a') AS j, printf('%03d', 7) AS p,
                count(*) OVER () AS n, group_concat(body, '|') OVER (ORDER BY rowid) AS g FROM docs ORDER BY rowid]])
            print(r[3].d, r[3].j, r[3].p, r[3].n, r[3].g)
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 5, "\(result)")
        #expect(result.lines.first?.hasPrefix("false\t(command line):1: sql: fts3_tokenizer() is not allowed here") == true, "\(result)")
        #expect(
            Array(result.lines.dropFirst()) == [
                "quick thinking", "the quick brown fox", "a <b>lazy</b> dog",
                "2024-02-29\t3\t007\t3\tthe quick brown fox|a lazy dog|quick thinking"
            ], "\(result)")
    }

    /// 100,000 rows of 200 KB under --memory 50M: one line naming the limit and what to
    /// do, exit status 1, no crash; the same query with LIMIT 100 answers.
    @Test func bigSQLValuesAreRefusedUnderTheMemoryLimit() async throws {
        let sandbox = try Sandbox()
        let query = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r LIMIT %d) SELECT x, randomblob(200000) AS b FROM r"
        let refused = try await sandbox.quarry(["--memory", "50M", "-e", "local r = sql(\"\(String(format: query, 100_000))\")"])
        let line = expectOneLine(refused, ["(command line):1: not enough memory", "--memory limit (50 MB)", "add a LIMIT to the query"])
        #expect(!line.contains("Fatal error") && !refused.stderr.contains("crashed"), "\(refused)")
        let fits = try await sandbox.quarry(["--memory", "50M", "-e", "print(#sql(\"\(String(format: query, 100))\"))"])
        #expect(fits.status == 0 && fits.lines == ["100"], "\(fits)")
    }
}

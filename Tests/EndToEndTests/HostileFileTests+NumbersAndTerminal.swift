import Foundation
import Testing

/// The fourth hostile review's findings (issue 48) that stopped the process or reached
/// the terminal, with the real binary: charts of numbers at the ends of the double range
/// and infinities, foreign date layouts past what Quarry writes, control characters in
/// printed tables, and passwords in PostgreSQL URLs.
extension HostileFileTests {
    // MARK: Numbers that crashed

    /// linechart and barchart trapped (SIGILL, inside pcall) on values spanning ±1.8e308
    /// or holding inf: they draw, and say what they left out.
    @Test(arguments: [
        (#"linechart(sql("SELECT 1 AS x, -1.7e308 AS y UNION ALL SELECT 2, 1.7e308 UNION ALL SELECT 3, 9e999"), "x", "y")"#, "1 value is inf"),
        (#"linechart(sql("SELECT -1.7e308 AS x, 1 AS y UNION ALL SELECT 1.7e308, 2"), "x", "y")"#, "y by x"),
        (
            #"barchart(sql("SELECT 9e999 AS v, 'a' AS k UNION ALL SELECT 1, 'b' UNION ALL SELECT -9e999, 'c'"), "k", "v")"#,
            "2 values are inf or nan, left out"
        ),
        (#"barchart(sql("SELECT -1.7e308 AS v, 'a' AS k UNION ALL SELECT 1.7e308, 'b'"), "k", "v")"#, "v by k")
    ])
    func chartsOfHugeAndInfiniteNumbersDraw(_ chart: String, _ said: String) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["-e", "local ok, text = pcall(function() return \(chart) end); print(ok); print(text)"])
        #expect(result.status == 0 && result.lines.first == "true", "\(result)")
        #expect(result.stdout.contains(said) && !result.stderr.contains("Fatal error"), "\(result)")
    }

    /// A date column of another program's file holding the smallest integer (-2^63)
    /// stopped the process at its open (SIGILL: the format detection took its absolute
    /// value): the file opens, and its rows are read, summarised and counted.
    @Test func aDateColumnHoldingTheSmallestIntegerOpens() async throws {
        let sandbox = try Sandbox()
        try #require(FileManager.default.isExecutableFile(atPath: Self.sqlite3.path), "the sqlite3 shell is not installed (scripts/test installs it)")
        _ = try await sandbox.run(
            Self.sqlite3,
            [
                sandbox.path("d.db"),
                "CREATE TABLE t (id INTEGER PRIMARY KEY, d DATETIME); INSERT INTO t (d) VALUES (-9223372036854775808), (0), (9223372036854775807);"
            ])
        let result = try await sandbox.quarry([
            "d.db", "-e", #"print(count("t"), #fetch("t"), #summarize("t"), #sql("SELECT d FROM t"))"#
        ])
        #expect(result.status == 0 && result.stdout == "3\t3\t2\t3\n" && !result.stderr.contains("crashed"), "\(result)")
    }

    /// PostgreSQL's float8 holds NaN (sorting above Infinity) as well as ±Infinity, and
    /// overflow there is an error rather than inf: a histogram of such a column counts
    /// the two infinities apart and buckets the finite values as a SQLite file's are
    /// bucketed; NaN is nil, in SQL as in memory, as SQLite stores it.
    @Test func aPostgresHistogramCountsInfinityAndNaNApart() async throws {
        let sandbox = try Sandbox()
        let values = ["1", "2", "3", "'-1.7e308'", "'1.7e308'", "'Infinity'", "'-Infinity'", "'NaN'"]
        let url = try await PostgresStoreTests.database(
            "roundfour", in: sandbox,
            schema: """
                CREATE TABLE v (id integer PRIMARY KEY, x float8);
                INSERT INTO v VALUES \(values.enumerated().map { "(\($0.offset + 1), \($0.element))" }.joined(separator: ", "));
                """)
        let result = try await sandbox.quarry([url, "-e", #"print(histogram("v", "x", { bins = 2 }))"#])
        #expect(result.status == 0, "\(result)")
        let leftOut = ["2 values are inf or nan, left out", "1 value is nil, left out"]
        #expect(result.lines.first == "x: 5 values in 2 bins" && result.lines.suffix(2) == leftOut, "\(result)")
        let counts = result.lines.dropFirst().dropLast(2).map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(counts == ["1", "4"], "-1.7e308 below 0; 1, 2, 3 and 1.7e308 above: \(result)")
    }

    // MARK: Foreign date layouts that crashed

    /// A column written with 19 fraction digits crashed any save of a date, and format()
    /// with 300 crashed: each is one line now, and the file is as it was.
    @Test func dateLayoutsPastNineFractionDigitsAreRefused() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            Self.sqlite3,
            [
                sandbox.path("f.db"),
                "CREATE TABLE ev (id INTEGER PRIMARY KEY, at DATETIME); INSERT INTO ev (at) VALUES ('2021-01-01T00:00:00.1234567890123456789Z')"
            ])
        try #require(made.status == 0, "\(made)")
        let saved = try await expectRefused(
            sandbox, "f.db", ["-e", "ev:new{ at = date(1e9 + 0.99) }; save()"], ["ev.at", "19 fraction digits", "nothing was written"])
        #expect(!saved.stderr.contains("Fatal error"), "\(saved)")
        let zeros = String(repeating: "0", count: 300)
        let declared = try await expectRefused(
            sandbox, "f.db", ["-e", #"format("ev", "at", "2021-01-01T00:00:00.\#(zeros)Z")"#], ["300 fraction digits", "at most 9"])
        #expect(!declared.stderr.contains(zeros), "the layout is shortened: \(declared)")
        // A date the column's layout would round into the year 10000 is refused at save.
        let minutes = try await sandbox.run(
            Self.sqlite3,
            [
                sandbox.path("m.db"),
                "CREATE TABLE ev (id INTEGER PRIMARY KEY, at DATETIME); INSERT INTO ev (at) VALUES ('2021-01-01 00:00')"
            ])
        try #require(minutes.status == 0, "\(minutes)")
        try await expectRefused(sandbox, "m.db", ["-e", #"ev:new{ at = date("9999-12-31T23:59:50Z") }; save()"#], ["ev.at", "year 10000"])
    }

    // MARK: Terminals

    /// print() of results, objects, summarize() rows and sql() headers and cells wrote
    /// control characters from the store raw (clear screen, window title, OSC 52
    /// clipboard); they are escaped now, and `.mode csv` keeps the bytes.
    @Test func printedValuesSendNoEscapesToTheTerminal() async throws {
        let sandbox = try Sandbox()
        let hostile = "char(27)||']52;c;cHduZWQ='||char(7)||char(27)||'[2J'||char(27)||']0;pwned'||char(7)"
        let made = try await sandbox.run(
            Self.sqlite3,
            [
                sandbox.path("f.db"),
                "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT); INSERT INTO t (s) VALUES (\(hostile))"
            ])
        try #require(made.status == 0, "\(made)")
        let script = #"print(fetch("t")); print(t:first()); print(summarize("t")); print(sql("SELECT s AS \"h\27[2J\", s FROM t"))"#
        let result = try await sandbox.quarry(["f.db", "-e", script])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.unicodeScalars.contains("\u{1B}") && !result.stdout.unicodeScalars.contains("\u{07}"), "\(result)")
        // Results, the object, summarize()'s min and max, and sql()'s two columns.
        #expect(result.stdout.components(separatedBy: #"\27]52;c;cHduZWQ=\7\27[2J"#).count == 7, "each shows it escaped: \(result)")
        #expect(result.stdout.contains(#"h\27[2J"#), "\(result)")
        let csv = try await sandbox.quarry(["f.db", "-e", #"export(fetch("t"), "-")"#])
        #expect(csv.status == 0 && csv.stdout.unicodeScalars.contains("\u{1B}"), "\(csv)")
    }

    // MARK: PostgreSQL URLs

    /// No message holds a password, whatever the URL's shape: a refused parameter's
    /// message, and libpq's for a password holding '@' (which libpq reads as the host's
    /// start). No server is needed: these fail before connecting, or at a closed port.
    @Test(arguments: [
        "postgres://127.0.0.1:1/db?schema=%00x&password=SECRET",
        "postgres://127.0.0.1:1/db?notify=x&password=SECRET",
        "postgres://user:SEC@RET@127.0.0.1:1/db",
        "postgres://user:SECRET@127.0.0.1:1/db?PASSWORD=SECRET&foo=bar",
        "postgres://user:SE/CRET@127.0.0.1:1/db",
        "postgres://127.0.0.1:1/db?pass%77ord=SECRET"
    ])
    func postgresMessagesHoldNoPassword(_ url: String) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([url, "-e", "print(1)"])
        #expect(result.status == 1 && result.errorLines.count == 1, "\(result)")
        #expect(!result.stderr.contains("SEC") && !result.stderr.contains("RET"), "\(result)")
    }

    /// A URL where a file was expected (a script, a model, an import) is said without
    /// its password too, as is one in a script's own error.
    @Test(arguments: [
        ["x.db", "postgres://u:SECRET@127.0.0.1:1/db"],
        ["--model", "postgres://u:SECRET@127.0.0.1:1/db", "x.db", "-e", "print(1)"],
        ["-e", #"import("postgres://u:SECRET@h/d", { entity = "X" })"#],
        ["-e", #"error("see postgres://h/d?password=SECRET")"#]
    ])
    func aURLSaidAsAPathHoldsNoPassword(_ arguments: [String]) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(arguments)
        #expect(result.status != 0 && result.errorLines.count == 1 && result.stderr.contains("postgres://"), "\(result)")
        #expect(!result.stderr.contains("SECRET"), "\(result)")
    }
}

import Foundation
import QuarryTestSupport
import Testing

/// `export({ sql = "SELECT ...", args = { ... } }, path)` (issue 62): the statement is
/// checked as `sql()` checks it, its arguments bound, and its rows streamed to the file,
/// which is byte for byte what `export(sql(...), path)` writes for the same rows, in CSV,
/// TSV, JSON and on standard output: on SQLite a row at a time, on PostgreSQL through
/// `COPY ... (FORMAT binary)` (or a row at a time where COPY cannot go: arguments, a type
/// it does not read, a `;` followed by a comment). A refused
/// statement writes nothing; one that fails midway leaves no file, and an existing one as
/// it was. PostgreSQL runs on a real server (`PostgresServer`): fails, never skips.
@Suite struct ExportQueryTests {
    /// Every storage class, text that needs quotes or reads as another type, text that is
    /// not UTF-8 (with a NUL), UTF-8 text with a NUL, blobs, integers at their ends, reals.
    static let sqliteSchema = """
        CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT, n INTEGER, r REAL, b BLOB, h TEXT);
        INSERT INTO t VALUES
          (1, 'plain', 9223372036854775807, 2.5, X'00FF10', CAST(X'FF00FE41' AS TEXT)),
          (2, 'a,b "quoted"', -9223372036854775808, -0.0, X'', CAST(X'41FE42' AS TEXT)),
          (3, 'line' || char(10) || 'break' || char(13) || char(10), NULL, 1e20, NULL, CAST(X'610062' AS TEXT)),
          (4, '', 0, 0.1, CAST('text blob' AS BLOB), NULL),
          (5, 'NA', 5467, 1e-7, X'E282AC', '5467'),
          (6, 'Zoë 東京 🚀', 1, 2.0, X'2C22', '2021-01-01'),
          (7, NULL, NULL, NULL, NULL, 'true'),
          (8, ' spaced ', -1, -123.456, X'0A', 'tab' || char(9) || 'here'),
          (9, 42, 3.0, 'text in n', 7, 8.5);
        CREATE TABLE big (i INTEGER PRIMARY KEY, s TEXT);
        WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
          INSERT INTO big SELECT i, printf('%.100c', 'x') FROM c;
        """

    /// For each query (its text, then its arguments): the streamed export and
    /// `export(sql(...))` in each format, their counts printed; then both of
    /// `onStandardOutput` (UTF-8 alone, as the test reads standard output) between markers.
    static let comparing = #"""
        for i, q in ipairs(queries) do
          local args = { table.unpack(q, 2) }
          for _, suffix in ipairs{ "csv", "tsv", "json" } do
            print(i, suffix, export({ sql = q[1], args = args }, "q" .. i .. "." .. suffix), export(sql(table.unpack(q)), "r" .. i .. "." .. suffix))
          end
        end
        print("-- streamed")
        export({ sql = onStandardOutput }, "-")
        print("-- read whole")
        export(sql(onStandardOutput), "-")
        print("-- end")
        """#

    /// The files of each query and format, compared; the two standard outputs compared.
    static func expectSameFiles(_ sandbox: Sandbox, queries: Int, stdout: String) throws {
        for i in 1...queries {
            for suffix in ["csv", "tsv", "json"] {
                let streamed = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("q\(i).\(suffix)")))
                let whole = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("r\(i).\(suffix)")))
                #expect(
                    streamed == whole,
                    "query \(i) .\(suffix):\n\(String(decoding: streamed, as: UTF8.self))\nexport(sql(...)):\n\(String(decoding: whole, as: UTF8.self))"
                )
            }
        }
        let streamed = stdout.components(separatedBy: "-- streamed\n").last?.components(separatedBy: "-- read whole\n").first
        let whole = stdout.components(separatedBy: "-- read whole\n").last?.components(separatedBy: "-- end\n").first
        #expect(streamed != nil && streamed == whole && streamed?.isEmpty == false, "\(stdout)")
    }

    @Test func onSQLiteTheStreamedFileIsExportOfSQLByteForByte() async throws {
        let sandbox = try Sandbox()
        let shell = URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell())
        let made = try await sandbox.run(shell, [sandbox.path("q.db"), Self.sqliteSchema])
        try #require(made.status == 0, "\(made)")
        let script =
            #"""
            local queries = {
              { "SELECT * FROM t ORDER BY id" },
              { "SELECT id, label AS x, h AS x, n * 2 AS twice, length(b) AS len, typeof(r), b FROM t ORDER BY id" },
              { "SELECT id, label, b, h FROM t WHERE n > ? AND label <> ? ORDER BY id", 0, "plain" },
              { "SELECT id, label FROM t WHERE 0" },
            }
            local onStandardOutput = "SELECT id, label, n, r FROM t ORDER BY id"
            """# + "\n" + Self.comparing
        let result = try await sandbox.quarry(["q.db", "-e", script])
        #expect(result.status == 0, "\(result)")
        let counts = Array(result.lines.prefix { $0 != "-- streamed" })
        #expect(
            counts
                == ["9\t9", "9\t9", "3\t3", "0\t0"].flatMap { n in ["csv", "tsv", "json"].map { "\($0)\t\(n)" } }.enumerated().map {
                    "\($0.offset / 3 + 1)\t\($0.element)"
                }, "\(result)")
        try Self.expectSameFiles(sandbox, queries: 4, stdout: result.stdout)
        // The values are the store's: a blob as its bytes, text that is not UTF-8 whole, text
        // that reads as a number quoted, integers at their ends.
        let first = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("q1.csv")))
        let bytes = [UInt8](first)
        #expect(
            bytes.starts(
                with: Array("id,label,n,r,b,h\n1,plain,9223372036854775807,2.5,".utf8) + [0x00, 0xFF, 0x10, 0x2C, 0xFF, 0x00, 0xFE, 0x41, 0x0A]))
        #expect(String(decoding: first, as: UTF8.self).contains("\n5,\"NA\",5467,1e-07,€,\"5467\"\n"), "\(String(decoding: first, as: UTF8.self))")
    }

    @Test func onSQLiteArgumentsAreBoundAndAWritingStatementIsRefusedAsSQLRefusesIt() async throws {
        let sandbox = try Sandbox()
        let shell = URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell())
        let made = try await sandbox.run(shell, [sandbox.path("q.db"), Self.sqliteSchema])
        try #require(made.status == 0, "\(made)")
        let script = #"""
            local function try(f, ...) print(select(2, pcall(f, ...))) end
            print(export({ sql = "SELECT id FROM t WHERE label = ?", args = { "x' OR '1'='1" } }, "bound.csv"))
            print(export({ sql = "SELECT id FROM t WHERE label = ? OR n = ?", args = { "a,b \"quoted\"", 5467 } }, "bound2.csv"))
            try(sql, "DELETE FROM t")
            try(export, { sql = "DELETE FROM t" }, "w.csv")
            try(export, { sql = "SELECT 1; DELETE FROM t" }, "w.csv")
            try(export, { sql = "PRAGMA user_version = 5" }, "w.csv")
            try(export, { sql = "SELECT ?", args = { 1, 2 } }, "w.csv")
            try(export, { sql = "SELECT 1", arg = { 1 } }, "w.csv")
            try(export, { sql = 5 }, "w.csv")
            try(export, { sql = "SELECT 1", args = { function() end } }, "w.csv")
            try(export, { sql = "SELEC 1" }, "w.csv")
            print(#sql("SELECT id FROM t"), sql("PRAGMA user_version")[1].user_version)
            """#
        let result = try await sandbox.quarry(["q.db", "-e", script])
        #expect(result.status == 0, "\(result)")
        #expect(Array(result.lines.prefix(2)) == ["0", "2"], "\(result)")
        #expect(try sandbox.read("bound.csv") == "id\n")
        #expect(try sandbox.read("bound2.csv") == "id\n2\n5\n")
        let messages = Array(result.lines.dropFirst(2).prefix(9))
        #expect(messages.count == 9, "\(result)")
        // The same refusal as sql()'s, said by export.
        if messages.count == 9 {
            #expect(messages[0].hasPrefix("(command line):1: sql: "), "\(messages[0])")
            #expect(messages[1] == messages[0].replacingOccurrences(of: ": sql: ", with: ": export: "), "\(messages)")
            #expect(messages[2].contains("export: ") && messages[2].contains("one statement at a time"), "\(messages[2])")
            #expect(messages[3].contains("export: "), "\(messages[3])")
            #expect(messages[4].contains("export: ") && messages[4].contains("parameters do not match the 2 arguments"), "\(messages[4])")
            #expect(messages[5].contains("export: unknown option 'arg'") && messages[5].contains("args"), "\(messages[5])")
            #expect(messages[6].contains("export: sql must be a string"), "\(messages[6])")
            #expect(messages[7].contains("export: args[1] must be"), "\(messages[7])")
            #expect(messages[8].contains("export: ") && messages[8].contains("syntax error"), "\(messages[8])")
        }
        #expect(result.lines.last == "9\t0", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("w.csv")))
    }

    /// A query that fails after more than a chunk of rows went out (abs() of the smallest
    /// integer, at row 15,000) leaves no new file, an existing one as it was, and no
    /// temporary beside either.
    @Test func onSQLiteAQueryFailingMidwayLeavesNoFile() async throws {
        let sandbox = try Sandbox()
        let shell = URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell())
        let made = try await sandbox.run(shell, [sandbox.path("q.db"), Self.sqliteSchema])
        try #require(made.status == 0, "\(made)")
        _ = try sandbox.write("old.csv", "old\n")
        let script = #"""
            local q = { sql = "SELECT i, s, abs(CASE WHEN i = 15000 THEN -9223372036854775807 - 1 ELSE i END) AS a FROM big ORDER BY i" }
            print(pcall(export, q, "new.csv"))
            print(pcall(export, q, "old.csv"))
            print(export({ sql = "SELECT count(*) AS c FROM big" }, "-"))
            """#
        let result = try await sandbox.quarry(["q.db", "-e", script])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                "false\t(command line):2: export: integer overflow", "false\t(command line):3: export: integer overflow", "c", "20000", "1"
            ], "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("new.csv")))
        #expect(try sandbox.read("old.csv") == "old\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.path(".")).filter { $0.contains("quarry-") }
        #expect(left.isEmpty, "\(left)")
    }

    static let postgresSchema = #"""
        CREATE TABLE kinds (id serial PRIMARY KEY, label text, n int4, s int2, big int8, r float8, f float4,
          price numeric(12,4), wide numeric, ok boolean, at timestamptz, wall timestamp, day date, raw bytea,
          code varchar(10), pad char(4), doc json, docb jsonb, u uuid, span interval);
        INSERT INTO kinds (label, n, s, big, r, f, price, wide, ok, at, wall, day, raw, code, pad, doc, docb, u, span) VALUES
          ('plain', 1, 2, 9007199254740993, 2.5, 1.1, 0.99, 1.00, true, '2013-01-01 05:00:00+00', '2013-01-01 05:00:00',
           '2013-01-01', '\x00ff10', 'abc', 'ab', '{"a": [1, 2]}', '{"b": "x,y", "a": 1}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day 02:00'),
          ('a,b "quoted"', -2147483648, -32768, -9223372036854775808, '-0', 3.4e38, 1234.5678, 123456789012345678901234567890.123, false,
           '2021-06-30 23:59:59.123456+00', '1999-12-31 23:59:59.5', '0044-03-15 BC', '', 'x', NULL, '"s"', '[]', NULL, '-3 months'),
          (E'line\nbreak\r\n', NULL, NULL, NULL, 1e20, 'NaN', 'NaN', -0.000001, NULL, '0044-03-15 12:00:00+00 BC', 'infinity',
           'infinity', NULL, 'NA', 'NA', NULL, 'null', '00000000-0000-0000-0000-000000000000', NULL),
          ('', 0, 0, 0, 1e-7, '-Infinity', 0, 0, true, '-infinity', '2000-01-01 00:00:00.000001', '-infinity', '\x', '', '',
           '{}', '{"k": "tab\there"}', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '0'),
          ('NA', 2147483647, 32767, 9223372036854775807, 'Infinity', 0.1, 12.5, 'Infinity', false,
           '294276-12-31 23:59:59.999999+00', '4713-01-01 00:00:00 BC', '9999-12-31', NULL, E'tab\there', 'ü', '1', '2.50', NULL, NULL),
          ('5467', 7, 7, 7, 1.0, 2, 'NaN', 1e-30, true, '1970-01-01 00:00:00+00', '1969-12-31 23:59:59.999999', '1970-01-01',
           '\x5c2c22', 'Zoë', NULL, '{"é": "東京"}', '{"é": "🚀"}', NULL, NULL),
          ('Zoë 東京 🚀 "x"', 8, 8, 8, -123.456, -0.5, -99.99, '-Infinity', NULL, '2013-06-30 12:34:56.7+00', NULL, '2024-02-29',
           '\xdeadbeef', NULL, 'abcd', NULL, NULL, NULL, NULL);
        """#

    @Test func onPostgreSQLTheStreamedFileIsExportOfSQLByteForByte() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("exportquery", in: sandbox, schema: Self.postgresSchema)
        let script =
            #"""
            local queries = {
              -- Every column type COPY is read for.
              { "SELECT id, label, n, s, big, r, f, price, wide, ok, at, wall, day, raw, code, pad, doc, docb, u FROM kinds ORDER BY id" },
              -- An interval, which it is not: a row at a time.
              { "SELECT * FROM kinds ORDER BY id" },
              -- Arguments, which COPY cannot take: a row at a time, bound.
              { "SELECT id, label, at, day, price FROM kinds WHERE id > ? AND label <> ? ORDER BY id", 1, "x' OR '1'='1" },
              -- A repeated name, and a `;` at the end.
              { "SELECT id, label AS x, code AS x, n::int8 + 1 AS m FROM kinds ORDER BY id;" },
              -- A comment after the `;`, which COPY's parenthesis cannot follow.
              { "SELECT id, sum(n) OVER () AS total, count(*) OVER () AS rows, price * 2 AS twice FROM kinds ORDER BY id; -- done" },
              { "SELECT id FROM kinds WHERE false" },
            }
            local onStandardOutput = "SELECT id, label, n, price, f, at, day, doc, docb, u FROM kinds ORDER BY id"
            """# + "\n" + Self.comparing
        let result = try await sandbox.quarry([url, "-e", script], timeout: 60)
        #expect(result.status == 0, "\(result)")
        let counts = Array(result.lines.prefix { $0 != "-- streamed" })
        #expect(
            counts
                == ["7\t7", "7\t7", "6\t6", "7\t7", "7\t7", "0\t0"].flatMap { n in ["csv", "tsv", "json"].map { "\($0)\t\(n)" } }
                .enumerated().map { "\($0.offset / 3 + 1)\t\($0.element)" }, "\(result)")
        try Self.expectSameFiles(sandbox, queries: 6, stdout: result.stdout)
        // Values as sql() reads them: a date as text (quoted, as it would read back as a
        // date; a `date` as its day, as psql shows it), a boolean as 1, numeric exact, float4 1.1, a bytea as its bytes, a uuid.
        let first = String(decoding: try Data(contentsOf: URL(fileURLWithPath: sandbox.path("q1.csv"))), as: UTF8.self)
        #expect(
            first.hasPrefix(
                "id,label,n,s,big,r,f,price,wide,ok,at,wall,day,raw,code,pad,doc,docb,u\n1,plain,1,2,9007199254740993,2.5,1.1,0.9900,1.00,1,\"2013-01-01T05:00:00Z\",\"2013-01-01T05:00:00Z\",\"2013-01-01\","
            ), "\(first)")
        #expect(first.contains("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), "\(first)")
    }

    @Test func onPostgreSQLAWritingOrFailingQueryLeavesNoFile() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("exportqueryfail", in: sandbox, schema: Self.postgresSchema)
        _ = try sandbox.write("old.csv", "old\n")
        let script = #"""
            local function try(f, ...) print(select(2, pcall(f, ...))) end
            try(export, { sql = "DELETE FROM kinds" }, "w.csv")
            try(export, { sql = "WITH d AS (DELETE FROM kinds RETURNING id) SELECT id FROM d" }, "w.csv")
            try(export, { sql = "SELECT id FROM kinds WHERE id = ?" }, "w.csv")
            -- Division by zero at the 15,000th row, after more than a chunk went out.
            local q = { sql = "SELECT i, repeat('x', 100) AS s, 1 / (i - 15000) AS q FROM generate_series(1, 20000) i" }
            try(export, q, "new.csv")
            try(export, q, "old.csv")
            print(sql("SELECT count(*) AS c FROM kinds")[1].c)
            print(export({ sql = "SELECT count(*) AS c FROM kinds" }, "after.csv"))
            """#
        let result = try await sandbox.quarry([url, "-e", script], timeout: 60)
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 7, "\(result)")
        if result.lines.count == 7 {
            #expect(result.lines[0].contains("export: ") && result.lines[0].contains("only a statement that reads rows"), "\(result)")
            #expect(result.lines[1].contains("export: ") && result.lines[1].contains("read-only transaction"), "\(result)")
            #expect(result.lines[2].contains("export: ") && result.lines[2].contains("parameters do not match the 0 arguments"), "\(result)")
            #expect(result.lines[3].contains("export: ") && result.lines[3].contains("division by zero"), "\(result)")
            #expect(result.lines[4].contains("export: ") && result.lines[4].contains("division by zero"), "\(result)")
            #expect(Array(result.lines.suffix(2)) == ["7", "1"], "\(result)")
        }
        #expect(try sandbox.read("after.csv") == "c\n7\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("w.csv")))
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("new.csv")))
        #expect(try sandbox.read("old.csv") == "old\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.path(".")).filter { $0.contains("quarry-") }
        #expect(left.isEmpty, "\(left)")
    }
}

import Foundation
import QuarryModel
import QuarryPostgreSQL
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// Quarry's libpq connection against a real PostgreSQL 15 server (`PostgresServer`):
/// values go and come back as they were, arguments are bound, never spliced, and every
/// failure is an error value with the server's SQLSTATE, not a crash.
@Suite struct PostgresConnectionTests {
    /// A backend another session terminates (as a restart does to all): the next
    /// statement connects again, with the session's setup run again; a write transaction
    /// that met the loss says nothing of it was committed.
    @Test func aTerminatedSessionConnectsAgainAsItWasSetUp() throws {
        let url = try PostgresServer.url()
        let connection = try PostgresConnection(url: url)
        let other = try PostgresConnection(url: url)
        try connection.executeForSession("LISTEN quarry_changes")
        func terminate() throws {
            let pid = try connection.execute("SELECT pg_backend_pid() AS p").rows.first?.first ?? .null
            try other.execute("SELECT pg_terminate_backend($1::int, 10000)", [pid])
        }
        try terminate()
        let after = try connection.execute(
            "SELECT current_setting('DateStyle') AS d, (SELECT string_agg(c, ',') FROM pg_listening_channels() AS c) AS l")
        #expect(after.rows == [[.text("ISO, YMD"), .text("quarry_changes")]])
        #expect(connection.reconnections == 1)
        #expect(throws: StoreError.self) {
            try connection.inWriteTransaction {
                try terminate()
                try connection.execute("SELECT 1")
            }
        }
        #expect(connection.lostBeforeCommit)
        #expect(try connection.execute("SELECT 2 AS two").rows == [[.integer(2)]])
        #expect(connection.reconnections == 2)
    }

    @Test func connectsToPostgreSQL15() throws {
        let connection = try PostgresConnection(url: try PostgresServer.url())
        #expect(connection.serverVersion / 10000 == 15)
        let result = try connection.execute("SELECT current_user AS who, 1 + 1 AS two")
        #expect(result.columns == ["who", "two"])
        #expect(result.rows == [[.text("quarry"), .integer(2)]])
    }

    @Test(arguments: [
        (Value.integer(Int64.min), "int8"), (.integer(Int64.max), "int8"), (.integer(0), "int4"),
        (.real(0.1), "float8"), (.real(-1e300), "float8"), (.real(.infinity), "float8"), (.real(.leastNonzeroMagnitude), "float8"),
        (.text("it's \"quoted\"; DROP TABLE t; --"), "text"), (.text("café 日本 🙂"), "text"), (.text(""), "text"),
        (.blob([0, 1, 255, 0, 92, 120]), "bytea"), (.blob([]), "bytea"),
        (.bool(true), "bool"), (.bool(false), "bool"),
        (.date(0), "timestamptz"), (.date(1_700_000_000.25), "timestamptz"), (.date(-2_000_000_000.5), "timestamptz"),
        (.date(-62_135_596_800 - 86_400), "timestamptz"), // 31 December 1 BC
        (.date(-210_866_803_200), "timestamptz"), (.date(9_224_318_015_999), "timestamptz"), // the ends of its range
        (.null, "text")
    ])
    func aValueComesBackAsItWent(_ value: Value, _ type: String) throws {
        let connection = try PostgresConnection(url: try PostgresServer.url())
        let result = try connection.execute("SELECT $1::\(type) AS v", [value])
        #expect(result.rows == [[value]], "\(value) as \(type)")
    }

    @Test func argumentsAreBoundNotSpliced() throws {
        let connection = try PostgresConnection(url: try PostgresServer.database("bound"))
        try connection.execute("CREATE TABLE t (name text)")
        let hostile = "x'); DROP TABLE t; --"
        let insert = try connection.execute("INSERT INTO t (name) VALUES ($1)", [.text(hostile)])
        #expect(insert.affectedRows == 1)
        #expect(try connection.execute("SELECT name FROM t").rows == [[.text(hostile)]])
        #expect(try connection.execute("SELECT count(*) FROM t WHERE name = $1", [.text(hostile)]).rows == [[.integer(1)]])
    }

    @Test func failuresAreErrorsWithTheServersCode() throws {
        let connection = try PostgresConnection(url: try PostgresServer.database("failures"))
        #expect(throws: StoreError.postgres(sqlState: "42601", sql: "SELEC 1", message: "syntax error at or near \"SELEC\"")) {
            try connection.execute("SELEC 1")
        }
        try connection.execute("CREATE TABLE u (k int PRIMARY KEY)")
        try connection.execute("INSERT INTO u VALUES (1)")
        do {
            try connection.execute("INSERT INTO u VALUES ($1)", [.integer(1)])
            Issue.record("a duplicate key was inserted")
        } catch let StoreError.constraint(violation) {
            let message = StoreError.constraint(violation).message
            // A uniqueness violated is said in SQLite's words, from the error's fields.
            #expect(message == "UNIQUE constraint failed: u.k")
        }
        // The connection is still usable after an error.
        #expect(try connection.execute("SELECT count(*) FROM u").rows == [[.integer(1)]])
        #expect(StoreError.postgres(sqlState: "42601", sql: nil, message: "syntax error").message == "PostgreSQL: syntax error")
    }

    @Test func aServerThatIsNotThereIsAnErrorNotACrash() throws {
        #expect(throws: StoreError.self) { try PostgresConnection(url: "postgres://quarry@127.0.0.1:1/quarry?connect_timeout=2") }
        #expect(throws: StoreError.self) { try PostgresConnection(url: "postgres://%zz@[bad") }
        do {
            _ = try PostgresConnection(url: "postgres://quarry@127.0.0.1:1/quarry?connect_timeout=2")
        } catch StoreError.engine(let failure as PostgresFailure) {
            let message = failure.said
            #expect(message.contains("127.0.0.1") || message.contains("connect"), "\(message)")
        }
    }

    /// The server's own epoch for each date Quarry sends: the same instant, before 1582
    /// too (PostgreSQL's calendar is the proleptic Gregorian one).
    @Test func datesAreTheInstantsTheServerReads() throws {
        let connection = try PostgresConnection(url: try PostgresServer.url())
        for seconds in [
            0, 1_700_000_000.25, -1.5, -12_219_292_800, -12_219_292_801, -30_000_000_000.125, -62_167_219_200, -62_198_755_200, 253_402_300_799
        ] {
            let result = try connection.execute("SELECT extract(epoch FROM $1::timestamptz)::float8", [.date(seconds)])
            #expect(result.rows == [[.real(seconds)]], "\(seconds): \(PostgresValue.timestamp(seconds))")
            // An import writes the same text as bytes.
            var bytes: [UInt8] = []
            PostgresValue.appendTimestamp(seconds, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == PostgresValue.timestamp(seconds))
        }
    }

    @Test func timestampsOfTheServerReadAsSeconds() throws {
        let connection = try PostgresConnection(url: try PostgresServer.url())
        let result = try connection.execute(
            """
            SELECT timestamptz '2021-01-01 00:00:00+00', timestamp '2021-01-01 00:00:00.5',
                   timestamptz '2021-01-01 05:30:00+05:30', timestamptz '0001-01-01 00:00:00+00 BC'
            """)
        #expect(result.rows == [[.date(1_609_459_200), .date(1_609_459_200.5), .date(1_609_459_200), .date(-62_167_219_200)]])
    }

    /// The session's formats are Quarry's whatever the role's defaults are: a role set to
    /// German dates, escaped bytea and fewer float digits still reads the same values.
    @Test func theSessionsFormatsAreQuarrysWhateverTheRoleSays() throws {
        let url = try PostgresServer.database("formats")
        let admin = try PostgresConnection(url: url)
        try admin.execute("CREATE ROLE odd LOGIN")
        try admin.execute("ALTER ROLE odd SET DateStyle = 'German, DMY'")
        try admin.execute("ALTER ROLE odd SET bytea_output = 'escape'")
        try admin.execute("ALTER ROLE odd SET extra_float_digits = -3")
        try admin.execute("ALTER ROLE odd SET TimeZone = 'Asia/Kolkata'")
        let odd = try PostgresConnection(url: url.replacingOccurrences(of: "//quarry@", with: "//odd@"))
        #expect(try odd.execute("SELECT current_user").rows == [[.text("odd")]])
        let values: [Value] = [.date(1_609_459_200.5), .blob([0, 92, 255]), .real(0.1 + 0.2)]
        let result = try odd.execute("SELECT $1::timestamptz, $2::bytea, $3::float8", values)
        #expect(result.rows == [values])
    }

    /// Quarry's own statements run without JIT (the planner prices every branch of a
    /// fold's CASE, and compiled a folded count for longer than it ran); a statement a
    /// person wrote runs with the server's setting, as in psql, and the session's comes
    /// back after it.
    @Test func quarrysOwnStatementsRunWithoutJITAndAPersonsAsTheServerSays() throws {
        let url = try PostgresServer.database("jit")
        let admin = try PostgresConnection(url: url)
        try admin.execute("DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET jit = on', current_database()); END $$")
        let (connection, _) = try PostgresServerKind.open(url)
        let engine = try #require(connection.engine as? PostgresEngine)
        let jit = "SELECT current_setting('jit') AS j"
        #expect(try engine.server.execute(jit).rows == [[.text("off")]])
        var persons: [Value] = []
        try engine.prepareReadOnly(jit) { query in
            try query?.forEachRow(arguments: []) { persons.append($0.value(at: 0)) }
        }
        #expect(persons == [.text("on")])
        #expect(try engine.server.execute(jit).rows == [[.text("off")]])
    }

    /// What PostgreSQL cannot hold, or Quarry cannot send, is an error naming it; the
    /// server's infinite timestamps are read as its text. Nothing traps.
    @Test func valuesBeyondEitherSideAreErrorsOrTextNotTraps() throws {
        let connection = try PostgresConnection(url: try PostgresServer.url())
        for bad: Value in [.date(.nan), .date(1e300), .date(-1e300), .text("a\u{0}b")] {
            do {
                try connection.execute("SELECT $1", [bad])
                Issue.record("\(bad) was sent")
            } catch StoreError.engine(let failure as PostgresFailure) {
                let (sql, message) = (failure.sql, failure.said)
                #expect(sql == "SELECT $1")
                #expect(message.hasPrefix("cannot send"), "\(message)")
            }
        }
        let infinite = try connection.execute("SELECT $1::timestamptz, $2::timestamptz", [.date(.infinity), .date(-.infinity)])
        // Sent as the server's words, read back as the same dates (`PostgresValue.infinity`).
        #expect(infinite.rows == [[.date(.infinity), .date(-.infinity)]])
        let far = try connection.execute("SELECT timestamptz '294276-12-31 23:59:59+00', timestamptz '4714-11-24 00:00:00+00 BC'")
        #expect(far.rows == [[.date(PostgresValue.timestampRange.upperBound), .date(PostgresValue.timestampRange.lowerBound)]])
        #expect(PostgresValue.seconds("2021-01-01 nan:00:00") == nil)
        #expect(PostgresValue.seconds("2021-01-01 00:00:nan") == nil)
        #expect(PostgresValue.seconds("9223372036854775807-01-01 00:00:00") == nil)
        #expect(PostgresValue.seconds("2021-01-01 99999999999999:00:00") == nil)
        #expect(PostgresValue.seconds("2021-01-01 00:00:00+9999999999999") == nil)
    }
}

/// Which queries `export` sends through `COPY ... TO STDOUT (FORMAT binary)`: one with
/// no arguments whose every column's type is read from binary fields; not one with an
/// argument (COPY takes none, and arguments are never spliced) or a column of another
/// type (`date` here), which go row by row. The bytes are compared with the row-by-row
/// export's in `PostgresCopyExportTests`.
@Suite struct PostgresCopyExportPathTests {
    @Test func copyIsTakenOnlyWhereItWritesWhatTheRowsWould() throws {
        let connection = try PostgresConnection(url: try PostgresServer.database("copypath"))
        try connection.execute("CREATE TABLE t (id int8, label text, r float8, day date)")
        try connection.execute("INSERT INTO t SELECT i, 'row ' || i, i / 4.0, DATE '2020-01-01' + i FROM generate_series(1, 5000) i")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("copypath-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func export(_ sql: String, _ arguments: [Value] = [], types: [AttributeType]) throws -> (Int?, String) {
            let path = folder + "/out.csv"
            let file = try OutputFile(path: path)
            var writer = TableWriter(format: .csv, columns: types.indices.map { "c\($0)" })
            let count = try connection.copyExport(sql, arguments: arguments, types: types, firstColumn: 1, writer: &writer, file: file)
            try file.commit()
            return (count, try String(contentsOfFile: path, encoding: .utf8))
        }
        let (copied, text) = try export("SELECT id, label, r FROM t ORDER BY id", types: [.string, .double])
        #expect(copied == 5000)
        #expect(text.hasPrefix("row 1,0.25\nrow 2,0.5\nrow 3,0.75\nrow 4,1.0\n"), "\(text.prefix(80))")
        #expect(try export("SELECT id, label FROM t WHERE id > $1", [.integer(1)], types: [.string]).0 == nil)
        #expect(try export("SELECT id, day FROM t", types: [.date]).0 == nil)
        // The connection runs the next statement after a copy.
        #expect(try connection.execute("SELECT count(*) FROM t").rows == [[.integer(5000)]])
    }

    /// A decimal of PostgreSQL's largest scale (16,383 digits after the point) and a long
    /// integer part, read from COPY's binary form, is the server's own text, digit for
    /// digit (issue 61 item 5: the decoder counted its text again at every digit group,
    /// so 100 such values took 10 s; its time is in the report, not here).
    @Test func copyReadsNumericsOfTheLargestScaleAsTheServerWritesThem() throws {
        let connection = try PostgresConnection(url: try PostgresServer.database("copywide"))
        try connection.execute("CREATE TABLE n (id int8, x numeric)")
        try connection.execute(
            """
            INSERT INTO n VALUES
              (1, ('0.' || repeat('0123456789', 1638) || '987')::numeric),
              (2, ('-' || repeat('9', 1001) || '.' || repeat('0', 16382) || '1')::numeric),
              (3, round(1::numeric / 3, 16383)), (4, 0.5::numeric(20, 20)), (5, ('1e-16383')::numeric)
            """)
        let expected = try connection.execute("SELECT x::text FROM n ORDER BY id").rows.map { row -> String in
            guard case .text(let t)? = row.first else { return "" }
            return t
        }
        #expect(expected.count == 5 && expected[0].count == 2 + 16_383, "\(expected.map(\.count))")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("copywide-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try OutputFile(path: path)
        var writer = TableWriter(format: .csv, columns: ["x"])
        let count = try connection.copyExport(
            "SELECT id, x FROM n ORDER BY id", arguments: [], types: [.decimal], firstColumn: 1, writer: &writer, file: file)
        try file.commit()
        #expect(count == 5)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count, "\(lines.map(\.count)) against \(expected.map(\.count))")
        // Compared value by value, and said by where they differ (the values are 16 KB each).
        for (i, (got, want)) in zip(lines, expected).enumerated() {
            let at = zip(got.utf8, want.utf8).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.utf8.count, want.utf8.count)
            #expect(
                got == want,
                "value \(i + 1): \(got.count) characters against \(want.count), first differing at \(at): \(got.prefix(at + 8).suffix(24)) against \(want.prefix(at + 8).suffix(24))"
            )
        }
    }
}

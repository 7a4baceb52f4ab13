import Foundation
import QuarryShell
import QuarryStore
import Testing

/// Times another program keeps as numbers (issue 60, item 3): `format(entity, attribute,
/// layout)` makes a number column a date everywhere. Every expectation is read from the
/// file with SQLite's own date functions or counted on the raw numbers, never through
/// Quarry's conversion.
@Suite struct NumberTimeLayoutTests {
    /// One layout: its name, the column's declared type, the stored number of a time given
    /// in Unix nanoseconds, and SQL reading the stored number `t` as Unix seconds (a real),
    /// for SQLite's `strftime(..., 'unixepoch')`.
    struct Layout: CustomTestStringConvertible, Sendable {
        let name: String
        let type: String
        let stored: @Sendable (Int64) -> String
        let seconds: String
        /// Units finer than a second: a written date keeps a quarter of a second.
        let fine: Bool
        var testDescription: String { name }
    }

    /// `a / b` rounded down (Swift's `/` truncates toward zero).
    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    static let unixEpochSince1601: Int64 = 11_644_473_600
    static let cocoaEpoch: Int64 = 978_307_200

    static let layouts: [Layout] = [
        Layout(name: "unix", type: "INTEGER", stored: { "\(floorDiv($0, 1_000_000_000))" }, seconds: "t", fine: false),
        Layout(name: "unix-real", type: "REAL", stored: { String(format: "%.6f", Double($0) / 1e9) }, seconds: "t", fine: true),
        Layout(name: "unix-ms", type: "INTEGER", stored: { "\(floorDiv($0, 1_000_000))" }, seconds: "t / 1000.0", fine: true),
        Layout(name: "unix-us", type: "INTEGER", stored: { "\(floorDiv($0, 1000))" }, seconds: "t / 1000000.0", fine: true),
        Layout(name: "unix-ns", type: "INTEGER", stored: { "\($0)" }, seconds: "t / 1000000000.0", fine: true),
        Layout(
            name: "cocoa", type: "INTEGER", stored: { "\(floorDiv($0, 1_000_000_000) - cocoaEpoch)" }, seconds: "t + \(cocoaEpoch)",
            fine: false),
        Layout(
            name: "cocoa-ns", type: "INTEGER", stored: { "\($0 - cocoaEpoch * 1_000_000_000)" },
            seconds: "t / 1000000000.0 + \(cocoaEpoch)", fine: true),
        Layout(
            name: "webkit", type: "INTEGER", stored: { "\(floorDiv($0, 1000) + unixEpochSince1601 * 1_000_000)" },
            seconds: "t / 1000000.0 - \(unixEpochSince1601)", fine: true),
        Layout(
            name: "filetime", type: "INTEGER", stored: { "\(floorDiv($0, 100) + unixEpochSince1601 * 10_000_000)" },
            seconds: "t / 10000000.0 - \(unixEpochSince1601)", fine: true),
        Layout(
            name: "julian", type: "REAL", stored: { String(format: "%.10f", Double($0) / 1e9 / 86400 + 2_440_587.5) },
            seconds: "(t - 2440587.5) * 86400.0", fine: true)
    ]

    /// Times in Unix nanoseconds: one twice (a group of two), one before 1970, none on a
    /// millisecond's edge (SQLite's `unixepoch` rounds to the millisecond).
    static let times: [Int64] = [
        1_700_000_000_123_456_789, 1_600_000_000_987_654_321, 1_700_000_000_123_456_789, 946_684_799_900_000_000,
        1_234_567_890_000_000_000, -86_400_500_000_000
    ]

    /// A file with table `ev` of `layout`'s numbers (and a row without one).
    static func file(_ layout: Layout) throws -> String {
        let rows = times.enumerated().map { "(\($0.offset + 1), \(layout.stored($0.element)), 'n\($0.offset + 1)')" }
        return try foreignFile(
            """
            CREATE TABLE ev (id INTEGER PRIMARY KEY, t \(layout.type), n TEXT);
            INSERT INTO ev VALUES \(rows.joined(separator: ", ")), (\(times.count + 1), NULL, 'none');
            """)
    }

    /// Reads as SQLite's date functions read the numbers; compares with `date(...)` in SQL
    /// as the raw numbers compare; sorts, groups and sections as the numbers do.
    @Test(arguments: layouts) func readsComparesSortsAndGroupsAsTheNumbers(_ layout: Layout) throws {
        let path = try Self.file(layout)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("format('ev', 't', '\(layout.name)')")
        #expect(h.string("format('ev', 't')") == layout.name)
        let expected = try sqlAnswer(
            path, "SELECT coalesce(strftime('%Y-%m-%dT%H:%M:%S', \(layout.seconds), 'unixepoch'), 'nil') FROM ev ORDER BY id")
        let read = (1...Self.times.count + 1).map { id in
            h.string("(function() local t = ev:get(\(id)).t; return t == nil and 'nil' or tostring(t):sub(1, 19) end)()") ?? "?"
        }
        #expect(read.joined(separator: ",") == expected)
        #expect(h.string("typeof(ev:get(1).t)") == "date")
        // `date(...)` against the numbers, both ways, as SQL on the raw numbers counts.
        let threshold = layout.stored(1_500_000_000_000_000_000)
        for (op, sqlOp) in [(">=", ">="), ("<", "<"), ("==", "=")] {
            let given = op == "==" ? layout.stored(Self.times[0]) : threshold
            let at = op == "==" ? "ev:get(1).t" : "date(1500000000)"
            let sql = try sqlAnswer(path, "SELECT count(*) FROM ev WHERE t \(sqlOp) \(given)")
            #expect(h.string("count('ev', 't \(op) %@', \(at))") == sql, "t \(op) \(given)")
        }
        // Sorted and grouped as the numbers are (a missing time first, as SQL sorts NULL).
        let sorted = try sqlAnswer(path, "SELECT id FROM ev ORDER BY t DESC, id")
        #expect(
            h.string(
                "(function() local ids = {} for _, o in ipairs(fetch{ 'ev', sort = { '-t', 'id' } }) do ids[#ids + 1] = o.id end return table.concat(ids, ',') end)()"
            ) == sorted)
        let groups = try sqlAnswer(path, "SELECT count(*) FROM ev GROUP BY t ORDER BY t")
        h.run(
            """
            local g = fetch{ 'ev', result = 'dictionaries', properties = { 't', 'count(*) AS c' }, group = { 't' }, sort = { 't' } }
            local counts = {}
            for _, row in ipairs(g) do counts[#counts + 1] = tostring(row.c) end
            assert(table.concat(counts, ',') == '\(groups)', table.concat(counts, ','))
            assert(g[#g].t == fetch{ 'ev', sort = { '-t' }, limit = 1 }[1].t, tostring(g[#g].t))
            local s = fetch{ 'ev', section = 't', sort = { 't', 'id' } }
            assert(#s == #g, #s .. ' sections for ' .. #g .. ' groups')
            local a = fetch{ 'ev', result = 'dictionaries', properties = { 'min(t) AS lo', 'max(t) AS hi' } }[1]
            assert(typeof(a.lo) == 'date' and a.hi == g[#g].t, tostring(a.lo) .. ' ' .. tostring(a.hi))
            """)
    }

    /// Every row of a walk reads its time as the first row does: a batch after the first
    /// reads only the columns read so far, and read them bare (the raw number as seconds,
    /// "date out of range" from row 201 on, seen on a real Chrome history).
    @Test(arguments: layouts) func everyBatchReadsTheLayout(_ layout: Layout) throws {
        let times = (0..<450).map { Int64(1_600_000_000_000_000_000) + Int64($0) * 86_400_000_000_000 }
        let rows = times.enumerated().map { "(\($0.offset + 1), \(layout.stored($0.element)))" }
        let path = try foreignFile(
            """
            CREATE TABLE ev (id INTEGER PRIMARY KEY, t \(layout.type));
            INSERT INTO ev VALUES \(rows.joined(separator: ", "));
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("format('ev', 't', '\(layout.name)')")
        let expected = try sqlAnswer(
            path, "SELECT group_concat(strftime('%Y-%m-%d', \(layout.seconds), 'unixepoch'), ',') FROM (SELECT t FROM ev ORDER BY id)")
        let read = h.string(
            """
            (function() local days, r = {}, fetch{ 'ev', sort = 'id' }
              for i = 1, #r do days[i] = tostring(r[i].t):sub(1, 10) end
              return table.concat(days, ',') end)()
            """)
        #expect(read == expected)
    }

    /// Exported as ISO 8601; a changed date written in the column's unit; an unchanged one
    /// keeps its exact number, nanoseconds too; the declaration outlives the session.
    @Test(arguments: layouts) func exportsWritesBackAndIsKept(_ layout: Layout) throws {
        let path = try Self.file(layout)
        let csv = path + ".csv"
        defer { try? FileManager.default.removeItem(atPath: csv) }
        let before = try sqlAnswer(path, "SELECT quote(t) FROM ev ORDER BY id")
        do {
            let h = try Harness(context: try StoreOpener.open(path))
            h.run("format('ev', 't', '\(layout.name)')")
            h.run("export(fetch{ 'ev', sort = { 'id' } }, '\(csv)')")
            let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").map(String.init)
            let column = lines.first?.split(separator: ",").firstIndex(of: "t")
            let first = column.map { String(lines[1].split(separator: ",")[$0]) }
            let expected = try sqlAnswer(path, "SELECT strftime('%Y-%m-%dT%H:%M:%S', \(layout.seconds), 'unixepoch') FROM ev WHERE id = 1")
            #expect(first?.hasPrefix(expected) == true, "\(lines.prefix(2))")
            // Unchanged: the object saved for another attribute, and its date set to itself.
            h.run("for _, o in ipairs(fetch('ev')) do o.t = o.t; o.n = 'changed' end; save()")
            #expect(try sqlAnswer(path, "SELECT quote(t) FROM ev ORDER BY id") == before)
            #expect(try sqlAnswer(path, "SELECT count(*) FROM ev WHERE n = 'changed'") == "\(Self.times.count + 1)")
            // Changed: in the column's own unit.
            let seconds = layout.fine ? "1650000000.25" : "1650000000"
            h.run("ev:get(2).t = date(\(seconds)); save()")
            let written = layout.stored(layout.fine ? 1_650_000_000_250_000_000 : 1_650_000_000_000_000_000)
            if layout.type == "REAL" {
                #expect(try sqlAnswer(path, "SELECT abs(t - \(written)) < 1e-9 FROM ev WHERE id = 2") == "1")
            } else {
                #expect(try sqlAnswer(path, "SELECT t FROM ev WHERE id = 2") == written)
                #expect(try sqlAnswer(path, "SELECT typeof(t) FROM ev WHERE id = 2") == "integer")
            }
            #expect(h.string("ev:get(2).t == date(\(seconds))") == "true")
            // A new object's time too.
            h.run("ev:new{ t = date(\(seconds)), n = 'new' }; save()")
            #expect(
                try sqlAnswer(path, "SELECT \(layout.type == "REAL" ? "abs(t - \(written)) < 1e-9" : "t") FROM ev WHERE n = 'new'")
                    == (layout.type == "REAL" ? "1" : written))
        }
        // Reopened: the sidecar declares it again.
        let again = try Harness(context: try StoreOpener.open(path))
        #expect(again.string("format('ev', 't')") == layout.name)
        #expect(again.string("typeof(ev:get(2).t)") == "date")
        #expect(again.string("ev:get(2).t == date(\(layout.fine ? "1650000000.25" : "1650000000"))") == "true")
    }

    /// Chrome's 0 for "never": declared, it reads as nil, is found by `t == nil` as SQL
    /// finds the zeros, and nil is written back as 0; kept across reopening.
    @Test func neverReadsAsNilAndIsWrittenBack() throws {
        let path = try foreignFile(
            """
            CREATE TABLE urls (id INTEGER PRIMARY KEY, last_visit_time INTEGER NOT NULL DEFAULT 0, title TEXT);
            INSERT INTO urls VALUES (1, 13345678901234567, 'a'), (2, 0, 'b'), (3, 13300000000000000, 'c'), (4, 0, 'd');
            """)
        do {
            let h = try Harness(context: try StoreOpener.open(path))
            h.run("format('urls', 'last_visit_time', 'webkit', { never = 0 })")
            #expect(h.string("urls:get(2).last_visit_time") == "nil")
            #expect(
                h.string("count('urls', 'last_visit_time == nil')") == (try sqlAnswer(path, "SELECT count(*) FROM urls WHERE last_visit_time = 0")))
            #expect(h.string("count('urls', 'last_visit_time > %@', date(0))") == "2")
            // In memory as in SQL.
            h.run(
                """
                local p, n = predicate('last_visit_time == nil'), 0
                for _, o in ipairs(fetch('urls')) do if p:matches(o) then n = n + 1 end end
                assert(n == 2, n)
                """)
            h.run("urls:get(1).last_visit_time = nil; save()")
            #expect(try sqlAnswer(path, "SELECT last_visit_time FROM urls WHERE id = 1") == "0")
            // A new object takes the column's default, 0: never.
            h.run("local o = urls:new{ title = 'e' }; assert(o.last_visit_time == nil); save()")
            #expect(try sqlAnswer(path, "SELECT last_visit_time FROM urls WHERE title = 'e'") == "0")
        }
        let sidecar = try String(contentsOfFile: path + ".quarry", encoding: .utf8)
        #expect(sidecar.contains("\"format\": \"webkit\", \"never\": 0"))
        let again = try Harness(context: try StoreOpener.open(path))
        #expect(again.string("urls:get(4).last_visit_time") == "nil")
        #expect(again.string("typeof(urls:get(3).last_visit_time)") == "date")
    }

    /// A time moved by a second keeps every stored microsecond: Chrome's counts since 1601
    /// (1.3e16) are read with the epoch taken off as integers, since dividing first leaves
    /// a double too coarse for them (2 µs at 1.3e10 s). Layouts a date's double holds
    /// exactly, to their unit, for today's times.
    @Test(arguments: ["unix-ms", "unix-us", "webkit", "cocoa"]) func aTimeMovedBySecondKeepsEveryUnit(_ name: String) throws {
        let layout = try #require(Self.layouts.first { $0.name == name })
        let path = try Self.file(layout)
        let before = try sqlAnswer(path, "SELECT group_concat(t, ' ') FROM (SELECT t FROM ev WHERE t IS NOT NULL ORDER BY id)")
        let perSecond: Int64 = ["unix-ms": 1000, "unix-us": 1_000_000, "webkit": 1_000_000, "cocoa": 1][name] ?? 0
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("format('ev', 't', '\(name)')")
        h.run("for _, o in ipairs(fetch('ev', 't != nil')) do o.t = o.t + 1 end; save()")
        let after = try sqlAnswer(path, "SELECT group_concat(t, ' ') FROM (SELECT t FROM ev WHERE t IS NOT NULL ORDER BY id)")
        let moved = before.split(separator: " ").compactMap { Int64($0) }.map { String($0 + perSecond) }.joined(separator: " ")
        #expect(after == moved)
        // And back: read again (a new session) and moved back, the file holds its first numbers.
        let again = try Harness(context: try StoreOpener.open(path))
        again.run("for _, o in ipairs(fetch('ev', 't != nil')) do o.t = o.t - 1 end; save()")
        #expect(try sqlAnswer(path, "SELECT group_concat(t, ' ') FROM (SELECT t FROM ev WHERE t IS NOT NULL ORDER BY id)") == before)
    }

    /// A to-many's `@max` and `@min` of a number column of times read it as its date in
    /// SQL, as in memory (SQL took the raw milliseconds, so every parent's maximum was
    /// "after" any date); so does one of ISO text in a file's date column.
    @Test func aToManysMaximumOfTimesIsADate() throws {
        let path = try foreignFile(
            """
            CREATE TABLE a (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE p (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a (id), at_ms INTEGER, at TIMESTAMP);
            INSERT INTO a VALUES (1, 'x'), (2, 'y'), (3, 'z');
            INSERT INTO p VALUES (1, 1, 1600000000000, '2020-09-13 12:26:40'), (2, 1, 1700000000000, '2023-11-14 22:13:20'),
              (3, 2, 1500000000000, '2017-07-14 02:40:00');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("format('p', 'at_ms', 'unix-ms')")
        for (predicate, expected) in [
            ("ps.@max.at_ms > %@", 1), ("ps.@min.at_ms < %@", 2), ("ps.@max.at > %@", 1), ("ps.@min.at < %@", 2)
        ] {
            h.run(
                """
                local q, n = predicate("\(predicate)", date("2022-01-01T00:00:00Z")), 0
                for _, o in ipairs(fetch("a")) do if q:matches(o) then n = n + 1 end end
                memory = n
                """)
            #expect(h.string("count('a', '\(predicate)', date('2022-01-01T00:00:00Z'))") == "\(expected)", "\(predicate)")
            #expect(h.string("memory") == "\(expected)", "\(predicate)")
        }
    }

    /// Seconds since 2001 in a REAL column (as Safari keeps visit times) keep their
    /// fraction when written; in an INTEGER column they are whole.
    @Test func cocoaSecondsInARealColumnKeepTheirFraction() throws {
        let path = try foreignFile(
            """
            CREATE TABLE visits (id INTEGER PRIMARY KEY, visit_time REAL, whole INTEGER);
            INSERT INTO visits VALUES (1, 721692800.5, 721692800);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("format('visits', 'visit_time', 'cocoa'); format('visits', 'whole', 'cocoa')")
        #expect(h.string("visits:get(1).visit_time - visits:get(1).whole") == "0.5")
        h.run("local v = visits:get(1); v.visit_time = date(1700000000.25); v.whole = date(1700000000.25); save()")
        #expect(try sqlAnswer(path, "SELECT visit_time || ' ' || whole FROM visits") == "721692800.25 721692800")
    }

    /// A layout Quarry does not know, or an option it does not read, is refused in one line
    /// naming it; the column stays a number.
    @Test func badLayoutsAndOptionsAreRefusedInOneLine() throws {
        let path = try foreignFile("CREATE TABLE ev (id INTEGER PRIMARY KEY, t INTEGER); INSERT INTO ev VALUES (1, 1700000000000);")
        let h = try Harness(context: try StoreOpener.open(path))
        // Undeclared, a date is refused against the number, pointing at format() with the
        // unit that reads the number near today (issue 85, item 1).
        let compared = h.error("count('ev', 't > %@', date(0))")
        #expect(compared.contains("format(\"ev\", \"t\", \"unix-ms\")") && !compared.contains("\n"), "\(compared)")
        let bad = h.error("format('ev', 't', 'unix-sec')")
        #expect(bad.contains("'unix-sec' is no format for int64 column t") && bad.contains("unix-ms") && !bad.contains("\n"), "\(bad)")
        let option = h.error("format('ev', 't', 'webkit', { nevr = 0 })")
        #expect(option.contains("unknown option 'nevr'") && !option.contains("\n"), "\(option)")
        let notTime = h.error("format('ev', 't', 'plain', { never = 0 })")
        #expect(notTime.contains("never is for times kept as numbers") && !notTime.contains("\n"), "\(notTime)")
        #expect(h.string("typeof(ev:get(1).t)") == "number")
        #expect(!FileManager.default.fileExists(atPath: path + ".quarry"))
        // A number pending in the column is not turned into a date by a declaration.
        let pending = h.error("ev:new{ t = 5 }; format('ev', 't', 'unix-ms')")
        #expect(pending.contains("unsaved changes") && !pending.contains("\n"), "\(pending)")
        h.run("rollback()")
        // Declared, then undeclared: a number again.
        h.run("format('ev', 't', 'unix-ms')")
        #expect(h.string("typeof(ev:get(1).t)") == "date")
        h.run("format('ev', 't', 'plain')")
        #expect(h.string("ev:get(1).t") == "1700000000000")
    }
}

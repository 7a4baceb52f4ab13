import Foundation
import QuarryTestSupport
import Testing

/// A time written to a column that keeps days alone (a foreign SQLite file's `DATE` column
/// of `2024-01-22` texts) is dropped, as psql drops it writing a timestamp to a `date`
/// column, and said in one note per column, not one per row (issue 45, item 8).
@Suite struct DayColumnNoteTests {
    @Test func aTimeWrittenToADayColumnIsDroppedWithOneNote() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "days.sql",
            """
            CREATE TABLE visit (id INTEGER PRIMARY KEY, day DATE, note TEXT);
            INSERT INTO visit VALUES (1, '2024-01-22', 'a'), (2, '2024-01-23', 'b'), (3, '2024-01-24', 'c');
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "days.db", file: "days.sql")
        let result = try await sandbox.quarry([
            "days.db", "-e",
            #"""
            visit:get(1).day = date("2024-02-01T10:30:00Z"); visit:get(2).day = date("2024-02-02T23:00:00Z")
            visit:get(3).day = date("2024-02-03T00:00:00Z")
            print(save().updated)
            print(visit:updateall("id == 3", {}, { day = date("2024-02-05T08:00:00Z") }))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["3", "1"], "\(result)")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("visit.day keeps days alone") }
        #expect(notes.count == 1, "\(result)")
        #expect(notes.first?.contains("time of day") == true, "\(result)")
        let stored = try await sandbox.run(
            URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell()), ["days.db", "SELECT day FROM visit ORDER BY id"])
        #expect(stored.stdout == "2024-02-01\n2024-02-02\n2024-02-05\n", "\(stored)")
        // Days alone say nothing.
        let quiet = try await sandbox.quarry(["days.db", "-e", #"visit:get(1).day = date("2024-03-01"); save()"#])
        #expect(quiet.status == 0 && !quiet.stderr.contains("keeps days alone"), "\(quiet)")
    }

    /// A column of whole seconds (`2024-01-22 10:00:00`) rounds a written fraction to the
    /// second, as PostgreSQL's timestamp(0) rounds it: said once per column, where it was
    /// rounded without a word. Whole seconds say nothing.
    @Test func aFractionWrittenToAColumnOfWholeSecondsIsRoundedWithOneNote() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "times.sql",
            """
            CREATE TABLE visit (id INTEGER PRIMARY KEY, at DATETIME);
            INSERT INTO visit VALUES (1, '2024-01-22 10:00:00'), (2, '2024-01-23 11:00:00');
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "times.db", file: "times.sql")
        let quiet = try await sandbox.quarry(["times.db", "-e", #"visit:get(1).at = date("2024-03-01T05:05:05Z"); save()"#])
        #expect(quiet.status == 0 && !quiet.stderr.contains("keeps whole seconds"), "\(quiet)")
        let result = try await sandbox.quarry([
            "times.db", "-e",
            #"""
            visit:get(1).at = date("2024-01-01T00:00:00.5Z"); visit:get(2).at = date("2024-01-01T05:05:05.25Z")
            print(save().updated)
            """#
        ])
        #expect(result.status == 0 && result.lines == ["2"], "\(result)")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("visit.at keeps whole seconds") }
        #expect(notes.count == 1 && notes.first?.hasPrefix("note: ") == true, "\(result)")
        let stored = try await sandbox.run(
            URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell()), ["times.db", "SELECT at FROM visit ORDER BY id"])
        #expect(stored.stdout == "2024-01-01 00:00:01\n2024-01-01 05:05:05\n", "\(stored)")
    }

    /// PostgreSQL's `date` is a date attribute (its day at midnight UTC, as a SQLite
    /// file's column of days reads); a time written to it is dropped by the server, and
    /// said once; a comparison with an instant is exact, in SQL as in memory.
    @Test func aServersDateColumnTakesDatesAndSaysADroppedTime() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "days", in: sandbox,
            schema: """
                CREATE TABLE visit (id integer PRIMARY KEY, day date, note text);
                INSERT INTO visit VALUES (1, '2024-01-22', 'a'), (2, '2024-01-23', 'b'), (3, '0044-03-15 BC', 'c');
                """)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            print(visit:get(1).day, typeof(visit:get(1).day), #fetch("visit"))
            local noon = date("2024-01-22T12:00:00Z")
            print(count("visit", "day == %@", noon), count("visit", "day < %@", noon), count("visit", "day == %@", date("2024-01-22")))
            local p = predicate("day < %@", noon); local n = 0
            for _, v in ipairs(fetch("visit")) do if p:matches(v) then n = n + 1 end end
            print(n)
            visit:get(1).day = date("2024-02-01T10:30:00Z"); visit:get(2).day = date("2024-02-02T23:00:00Z")
            print(save().updated, visit:get(1).day)
            print(visit:updateall("id == 2", {}, { day = date("2024-02-05T08:00:00Z") }))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["2024-01-22\tdate\t3", "0\t2\t1", "2", "2\t2024-02-01", "1"], "\(result)")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("visit.day keeps days alone") }
        #expect(notes.count == 1, "\(result)")
        let stored = try await PostgresDecimalTests.psqlRows(sandbox, url, "SELECT day FROM visit ORDER BY id")
        #expect(stored == "2024-02-01\n2024-02-05\n0044-03-15 BC\n", "\(stored)")
    }

    /// Several such columns written in one save are said in the entity's attribute order,
    /// the same in every run (they followed the pending values' dictionary order, which
    /// is another in each process).
    @Test func severalDayColumnsAreSaidInAttributeOrder() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "dayorder", in: sandbox, schema: "CREATE TABLE span (id bigserial PRIMARY KEY, d1 date, d2 date, d3 date, d4 date, d5 date)")
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            local t = date(90000)
            span:new{ d1 = t, d2 = t, d3 = t, d4 = t, d5 = t }
            print(save().inserted)
            """#
        ])
        #expect(result.status == 0 && result.lines == ["1"], "\(result)")
        let said = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "span.d"), line.contains("keeps days alone") else { return nil }
            return String(line[range.lowerBound...].prefix(7))
        }
        #expect(said == ["span.d1", "span.d2", "span.d3", "span.d4", "span.d5"], "\(result)")
    }
}

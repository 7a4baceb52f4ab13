import Foundation
import Testing

/// Moments of a newcomer's trial, run or typed as they were: a GTFS table's times of day
/// read as dates, a grouped sort written as NSExpression writes an aggregate, `sql()` beside
/// unsaved edits, and a summary of dates of one week. Each says what and where, and what works.
@Suite struct NewcomerTrialTests {
    /// GTFS's stop_times in another program's file: times of day as text, hours past 24.
    private func stopTimes(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("gtfs.db"),
                "CREATE TABLE stop_times (trip_id TEXT, arrival_time TEXT, departure_time TEXT, stop_id TEXT, stop_sequence INTEGER);"
                    + "INSERT INTO stop_times VALUES ('t1', '08:15:00', '08:16:00', 's1', 1), ('t1', '09:02:30', '09:03:00', 's2', 2),"
                    + " ('t2', '25:10:00', '25:11:00', 's1', 1)"
            ])
        try #require(made.status == 0, "\(made)")
    }

    @Test func aTimeOfDaysHourSaysTheColumnHoldsTimesOfDayAndWhatReadsThem() async throws {
        let sandbox = try Sandbox()
        try await stopTimes(sandbox)
        let tried = try await sandbox.quarry([
            "gtfs.db", "-e",
            #"""
            local function said(f) local ok, e = pcall(f); print(ok and "no error" or e) end
            said(function() return count("stop_times", "arrival_time.hour >= 8") end)
            said(function() return fetch{ "stop_times", sort = "arrival_time.hour" } end)
            said(function() return fetch{ "stop_times", properties = { "arrival_time.hour", "count(*)" }, group = { "arrival_time.hour" } } end)
            said(function() return fetch{ "stop_times", result = "dictionaries", properties = { "departure_time.day" } } end)
            """#
        ])
        #expect(tried.status == 0 && tried.lines.count == 4, "\(tried)")
        let what = "'arrival_time.hour': arrival_time is text holding times of day ('08:15:00'), not a date, so it has no hour; "
        let works =
            "read the hour in sql() (SELECT CAST(arrival_time AS INTEGER) AS hour FROM stop_times), "
            + "or compare or sort by the text as it is (arrival_time >= '08:15:00')"
        for (line, role) in zip(tried.lines.prefix(3), ["predicate", "sort", "properties"]) {
            #expect(line.contains("\(role): \(what)\(works) at column 1"), "\(line)")
        }
        #expect(
            tried.lines[3].contains("departure_time is text holding times of day ('08:16:00'), not a date, so it has no day; compare or sort"),
            "\(tried.lines[3])")
        // What the line names works: the hours, 25 past midnight included, and the text compared.
        let works2 = try await sandbox.quarry([
            "gtfs.db", "-e",
            #"""
            for _, r in ipairs(sql("SELECT CAST(arrival_time AS INTEGER) AS hour FROM stop_times ORDER BY hour")) do print(r.hour) end
            print(count("stop_times", "arrival_time >= '09:00:00'"))
            """#
        ])
        #expect(works2.lines == ["8", "9", "25", "2"], "\(works2)")
        // Text that is not times of day is refused as before (no relationship there).
        let other = try await sandbox.quarry(["gtfs.db", "-e", #"print(pcall(count, "stop_times", "stop_id.hour == 1"))"#])
        #expect(other.lines.first?.contains("'stop_id.hour': stop_id is text, not a date, so it has no hour") == true, "\(other)")
    }

    @Test func aGroupedSortWrittenAsNSExpressionNamesTheFormThatSorts() async throws {
        let sandbox = try Sandbox()
        try await stopTimes(sandbox)
        let tried = try await sandbox.quarry([
            "gtfs.db", "-e",
            #"""
            local function said(f) local ok, e = pcall(f); print(ok and "no error" or e) end
            said(function() return fetch{ "stop_times", properties = { "trip_id", "sum(stop_sequence) AS total" }, group = { "trip_id" }, sort = "-@sum.stop_sequence" } end)
            said(function() return fetch{ "stop_times", properties = { "trip_id", "count(*)" }, group = { "trip_id" }, sort = "@count" } end)
            said(function() return fetch{ "stop_times", properties = { "trip_id" }, group = { "trip_id" }, sort = "-@avg.stop_sequence" } end)
            said(function() return fetch{ "stop_times", properties = { "trip_id", "@max.stop_sequence" }, group = { "trip_id" } } end)
            local r = fetch{ "stop_times", properties = { "trip_id", "sum(stop_sequence) AS total" }, group = { "trip_id" }, sort = "-sum(stop_sequence)" }
            print(r[1].trip_id, r[1].total, r[2].trip_id, r[2].total)
            """#
        ])
        #expect(tried.status == 0 && tried.lines.count == 5, "\(tried)")
        let lines = tried.lines
        let aggregate = "is an aggregate written as NSExpression's key path; grouped rows sort by an aggregate as properties write it: "
        #expect(lines[0].hasSuffix(#"sort: '-@sum.stop_sequence' \#(aggregate)sort = "-total" (or "-sum(stop_sequence)")"#), "\(lines[0])")
        #expect(lines[1].hasSuffix(#"sort: '@count' \#(aggregate)sort = "count(*)""#), "\(lines[1])")
        #expect(lines[2].hasSuffix(#"sort: '-@avg.stop_sequence' \#(aggregate)sort = "-avg(stop_sequence)""#), "\(lines[2])")
        let property =
            "'@max.stop_sequence' is an aggregate written as NSExpression's key path; properties takes it as a function: max(stop_sequence)"
        #expect(lines[3].hasSuffix("properties: " + property), "\(lines[3])")
        // The form named sorts: t1's 1 + 2 before t2's 1.
        #expect(lines[4] == "t1\t3\tt2\t1", "\(lines[4])")
    }

    @Test func sqlAtThePromptSaysUnsavedChangesAreNotInItsRows() async throws {
        let sandbox = try Sandbox()
        try await stopTimes(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["gtfs.db"])
        try await repl.waitForPrompt()
        // Nothing pending: nothing said.
        #expect(try await repl.enter(#"=sql("SELECT count(*) AS n FROM stop_times")"#) == ["n", "-", "3", "(1 row)"])
        _ = try await repl.enter(#"o = stop_times:first("stop_sequence == 2"); o.stop_sequence = 5"#)
        let note = "note: sql() reads the saved store; 1 unsaved change is not in it (save() first)"
        #expect(try await repl.enter(#"=sql("SELECT max(stop_sequence) AS m FROM stop_times")"#) == [note, "m", "-", "2", "(1 row)"])
        // SQL typed at the prompt runs as sql() does, and says it too.
        #expect(try await repl.enter("SELECT max(stop_sequence) AS m FROM stop_times") == [note, "m", "-", "2", "(1 row)"])
        _ = try await repl.enter(#"stop_times:new{ trip_id = "t3", arrival_time = "07:00:00", stop_sequence = 1 }"#)
        let two = try await repl.enter(#"=#sql("SELECT * FROM stop_times")"#)
        #expect(two == ["note: sql() reads the saved store; 2 unsaved changes are not in it (save() first)", "3"], "\(two)")
        _ = try await repl.enter("save()")
        #expect(try await repl.enter(#"=sql("SELECT max(stop_sequence) AS m FROM stop_times")"#) == ["m", "-", "5", "(1 row)"])

        // A script's output is its own: no such note on stdout or stderr (a batch run
        // that ends with unsaved changes says so once, as ever).
        let script = try await sandbox.quarry([
            "gtfs.db", "-e", #"stop_times:first().stop_sequence = 9; print(sql("SELECT max(stop_sequence) AS m FROM stop_times")[1].m)"#
        ])
        #expect(script.status == 0 && script.lines == ["5"], "\(script)")
        #expect(!script.stderr.contains("sql() reads the saved store") && script.errorLines.count == 1, "\(script)")
    }

    @Test func aSummaryShowsDatesWhole() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "s.db", "-e",
            #"""
            entity "Sale" { artist = "string", price = "double", qty = "int64", sold = "date?" }
            for i = 1, 30 do
              Sale:new{ artist = i % 3 == 0 and "Queen" or "Metallica", price = i, qty = 1, sold = date(1600000000 + i * 3600 * 3) }
            end
            save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"])
        try await repl.waitForPrompt()
        // Three days of sales: their min and max are times, whole (they read `2020-09-13T…`).
        let summary = try await repl.enter(#"=summarize("Sale")"#)
        let sold = try #require(summary.first { $0.hasPrefix("sold") }, "\(summary)")
        #expect(sold.contains("| 2020-09-13T15:26:40Z | 2020-09-17T06:26:40Z |") && !sold.contains("…"), "\(summary)")
        #expect(summary.allSatisfy { $0.count <= 120 }, "\(summary)")
        #expect(summary.last?.contains(" (.mode line, .width 0 or .pager always shows them)") == true, "\(summary)")
    }
}

import Foundation
import QuarryTestSupport
import Testing

/// Issue 86's decision on `date` columns: a date at midnight UTC that prints as its day.
extension PostgresAsPsqlTests {
    static let daysSchema = """
        CREATE TABLE visit (id int PRIMARY KEY, day date, at timestamptz);
        INSERT INTO visit VALUES (1, '2013-01-01', '2013-01-01 10:00:00+00'), (2, '2013-02-03', NULL);
        CREATE VIEW visit_days AS SELECT id, day FROM visit;

        """

    /// `print`, `tostring` and `..` show a `date` column's value as its day, on a table's
    /// object and a view's, read by `get` and through a fetch; it compares, subtracts and
    /// reads its parts as the midnight it is (equal to `date("2013-01-01")`, not to a second
    /// later), and what it computes is a full date again.
    @Test func aDateColumnPrintsAsItsDay() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("days", in: sandbox, schema: Self.daysSchema)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            local v = visit:get(1)
            print(v.day, tostring(v.day), "on " .. v.day, typeof(v.day))
            print(v.day == date("2013-01-01"), date("2013-01-01") == v.day, v.day == date("2013-01-01T00:00:01Z"))
            print(v.day < v.at, v.at - v.day, v.day + 3600, v.day - 86400, v.day.year, v.day.month, v.day.day, v.day.timestamp)
            for _, o in ipairs(fetch{ "visit", sort = { "id" } }) do print(o.day) end
            for _, o in ipairs(fetch{ "visit_days", sort = { "id" } }) do print(o.day) end
            print(count("visit", "day == %@", v.day), count("visit", "day < %@", date("2013-01-02")))
            v.day = date("2013-05-05")
            print(v.day, v:changes().day[1], v:changes().day[2])
            -- A time of day given to a day, unsaved, is shown whole.
            v.day = date("2013-05-05T10:00:00Z")
            print(v.day)
            """#
        ])
        #expect(
            result.lines == [
                "2013-01-01\t2013-01-01\ton 2013-01-01\tdate", "true\ttrue\tfalse",
                "true\t36000.0\t2013-01-01T01:00:00Z\t2012-12-31T00:00:00Z\t2013\t1\t1\t1356998400.0", "2013-01-01", "2013-02-03",
                "2013-01-01", "2013-02-03", "1\t1", "2013-05-05\t2013-01-01\t2013-05-05", "2013-05-05T10:00:00Z"
            ], "\(result)")
    }

    /// `=expr` at the prompt prints a day as its day too; a day plus seconds is a date.
    @Test func aDayAtThePromptPrintsAsItsDay() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("promptdays", in: sandbox, schema: Self.daysSchema)
        let result = try await sandbox.quarry(
            [url, "-e", "v = visit:get(2)", "-i"], stdin: "=v.day\n=v.day + 60\n=v.day == date(\"2013-02-03\")\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.filter { !$0.hasPrefix(">") } == ["2013-02-03", "2013-02-03T00:01:00Z", "true"], "\(result)")
    }

    /// Rows of `properties` and `group` (a `date` column, its min and max) and
    /// `summarize()`'s min and max of one hold days, which print as their day in Lua and in
    /// the printed table; they stay dates that compare as their midnight.
    @Test func daysInRowsGroupsAndSummaries() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("rowdays", in: sandbox, schema: Self.daysSchema)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            local rows = fetch{ "visit", properties = { "id", "day" }, sort = { "id" } }
            print(rows[1].day, rows[2].day, typeof(rows[1].day), rows[1].day == date("2013-01-01"))
            local g = fetch{ "visit_days", properties = { "day", "count(*)", "min(day) AS first" }, group = { "day" } }
            print(g[1].day, g[1].first, g[2].day, #g)
            local s = summarize("visit")
            for _, r in ipairs(s) do if r.column == "day" then print(r.min, r.max, r.max - r.min) end end
            print(rows)
            print(s)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            Array(result.lines.prefix(3)) == [
                "2013-01-01\t2013-02-03\tdate\ttrue", "2013-01-01\t2013-01-01\t2013-02-03\t2", "2013-01-01\t2013-02-03\t2851200.0"
            ],
            "\(result)")
        // The printed tables show the days, and no midnight of them.
        #expect(result.stdout.contains("2013-02-03") && !result.stdout.contains("T00:00:00Z"), "\(result)")
    }
}

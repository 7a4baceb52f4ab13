import Foundation
import QuarryTestSupport
import Testing

/// A date's parts on PostgreSQL (issue 85, item 9): `timestamptz`, `timestamp`, `date`
/// columns and a bigint of milliseconds declared `unix-ms`, read in UTC as psql's own
/// `to_char` reads them (weekday `D`: 1 is Sunday), in SQL (a dictionary request, a count)
/// and in memory (Lua's `d.year`, `p:matches`), and the seconds between two dates as
/// psql's `extract(epoch ...)` counts them. Fails, never skips, without a server.
@Suite struct PostgresDatePartTests {
    static let schema = """
        CREATE TABLE ev (id serial PRIMARY KEY, tz timestamptz, ts timestamp, d date, ms bigint);
        INSERT INTO ev (tz, ts, d, ms) VALUES
          ('2000-02-29 23:59:59.999999+00', '2000-02-29 23:59:59.999999', '2000-02-29', 951868799999),
          ('1999-12-31 23:59:59.5+00', '1999-12-31 23:59:59.5', '1999-12-31', 946684799500),
          ('1969-12-31 23:59:59.5+00', '1960-02-29 12:00:00', '1969-12-31', -500),
          ('2013-01-01 00:00:00+00', '2013-01-06 05:00:00', '2013-01-01', 1356998400000),
          ('2013-01-01 07:30:00+05', NULL, NULL, NULL),
          (NULL, '2024-02-29 23:00:00', NULL, 1709247599999);
        """

    static let columns = [
        ("tz", "tz AT TIME ZONE 'UTC'"), ("ts", "ts"), ("d", "d::timestamp"),
        ("ms", "to_timestamp(ms / 1000.0) AT TIME ZONE 'UTC'")
    ]
    static let parts = [
        ("year", "FMYYYY"), ("month", "FMMM"), ("day", "FMDD"), ("hour", "FMHH24"), ("weekday", "D"),
        ("date", "YYYY-MM-DD\"T00:00:00Z\"")
    ]

    @Test func partsAreReadInUTCAsPsqlReadsThem() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("dateparts", in: sandbox, schema: Self.schema)
        var queries: [String] = []
        for (_, utc) in Self.columns {
            for (_, format) in Self.parts {
                queries.append("SELECT string_agg(coalesce(to_char(\(utc), '\(format)'), 'nil'), ',' ORDER BY id) FROM ev")
            }
        }
        queries.append(
            "SELECT string_agg(coalesce(round(extract(epoch from tz - (ts AT TIME ZONE 'UTC')), 3)::text, 'nil'), ',' ORDER BY id) FROM ev")
        let expected = try await PostgresDecimalTests.psqlRows(sandbox, url, queries.joined(separator: " UNION ALL "))
        var script = #"""
            format("ev", "ms", "unix-ms")
            local function joined(t) return table.concat(t, ",") end
            """#
        for (column, _) in Self.columns {
            for (part, _) in Self.parts {
                let key = "\(column).\(part)"
                script += """

                    do
                      local sql, lua, p, agree = {}, {}, nil, true
                      for _, r in ipairs(fetch{ "ev", result = "dictionaries", properties = { "id", "\(key)" }, sort = { "id" } }) do sql[#sql + 1] = tostring(r["\(key)"]) end
                      for _, o in ipairs(fetch{ "ev", sort = { "id" } }) do
                        local v = nil
                        if o.\(column) ~= nil then v = \(part == "date" ? "date(string.format('%04d-%02d-%02d', o.\(column).year, o.\(column).month, o.\(column).day))" : "o.\(column).\(part)") end
                        lua[#lua + 1] = tostring(v)
                        p = predicate("\(key) == %@", v == nil and null or v)
                        agree = agree and count("ev", p) == #(function() local k = {} for _, x in ipairs(fetch("ev")) do if p:matches(x) then k[#k + 1] = x end end return k end)()
                      end
                      print(joined(sql) == joined(lua) and joined(sql) or ("SQL " .. joined(sql) .. " Lua " .. joined(lua)), agree)
                    end
                    """
            }
        }
        script += """

            local s = {}
            for _, r in ipairs(fetch{ "ev", result = "dictionaries", properties = { "id", "tz - ts AS secs" }, sort = { "id" } }) do
              s[#s + 1] = r.secs == nil and "nil" or string.format("%.3f", r.secs) end
            print(joined(s), count("ev", "tz - ts > 0"), count("ev", "tz - ts < %@", 0))
            """
        let result = try await sandbox.quarry([url, "-e", script])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let truth = expected.split(separator: "\n").map(String.init)
        #expect(lines.count == truth.count, "\(result)")
        for (i, line) in lines.dropLast().enumerated() where i < truth.count {
            #expect(line == truth[i] + "\ttrue", "\(Self.columns[i / Self.parts.count].0).\(Self.parts[i % Self.parts.count].0)")
        }
        let differences = truth.last ?? ""
        #expect(lines.last?.hasPrefix(differences + "\t") == true, "\(result)")
        let positive = differences.split(separator: ",").filter { Double($0).map { $0 > 0 } ?? false }.count
        let negative = differences.split(separator: ",").filter { Double($0).map { $0 < 0 } ?? false }.count
        #expect(lines.last == "\(differences)\t\(positive)\t\(negative)", "\(result)")
    }
}

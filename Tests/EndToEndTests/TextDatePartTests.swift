import Foundation
import QuarryTestSupport
import Testing

/// Text holding a time of day is a Lua string, so `o.arrival_time.hour` was nil: now an
/// error that says what reads the hour.
@Suite struct TextDatePartTests {
    /// Text holding a time of day is a string (the contract's "text is the stored bytes");
    /// a date's part asked of it is an error saying so and what reads it, not nil, while
    /// strings' own functions read as before.
    @Test func aDatePartOfTextIsAnError() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE stop_times (id INTEGER PRIMARY KEY, arrival_time TEXT);
            INSERT INTO stop_times VALUES (1, '13:45'), (2, '08:05:00');
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "g.db", file: "schema.sql")
        let result = try await sandbox.quarry([
            "g.db", "-e",
            #"""
            local o = stop_times:get(1)
            print(o.arrival_time.hour)
            """#
        ])
        #expect(result.status == 1, "\(result)")
        #expect(result.lines.isEmpty, "\(result)")
        #expect(
            result.stderr.contains(
                #"(command line):2: text has no field 'hour': a string is no date; date(text).hour reads ISO 8601 text, and for a time of day such as '13:45' tonumber(text:match("^%d+")) is its hour"#
            ), "\(result)")
        let read = try await sandbox.quarry([
            "g.db", "-e",
            #"""
            local o = stop_times:get(1)
            print(type(o.arrival_time), o.arrival_time:upper(), ("x").len == string.len, pcall(function() return o.arrival_time.hour end))
            print(tonumber(o.arrival_time:match("^%d+")), date("2024-01-22T16:26:12Z").hour)
            """#
        ])
        #expect(read.status == 0, "\(read)")
        #expect(read.lines.first?.hasPrefix("string\t13:45\ttrue\tfalse\t(command line):2: text has no field 'hour'") == true, "\(read)")
        #expect(read.lines.last == "13\t16", "\(read)")
    }
}

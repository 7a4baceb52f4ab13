import Foundation
import QuarryShell
import Testing

/// What a newcomer met on a GTFS feed and an F1 file: dates in ISO 8601's basic form
/// (`20180903`) that `format()` refused, a text column of numbers refused with no way
/// forward, a sort typo with no suggestion, and `@Query private var resultses`.
@Suite struct NewcomerGTFSTests {
    static func feed() throws -> String {
        try foreignFile(
            """
            CREATE TABLE calendar (service_id TEXT PRIMARY KEY, start_date TEXT, end_date TEXT);
            INSERT INTO calendar VALUES ('a', '20180903', '20181231'), ('b', '20190105', '20190630'), ('c', '20180101', NULL);
            CREATE TABLE stop_times (id INTEGER PRIMARY KEY, trip_id TEXT, stop_sequence TEXT);
            INSERT INTO stop_times (trip_id, stop_sequence) VALUES ('t', '1'), ('t', '2'), ('t', '10');
            """)
    }

    /// `format(e, a, "20180903")` takes the basic form: SQL filters, sorts and reads date
    /// parts as memory does, and a date written back keeps the form.
    @Test func basicDatesAreALayout() throws {
        let path = try Self.feed()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"format("calendar", "start_date", "20180903")"#)
        #expect(h.string(#"format("calendar", "start_date")"#) == "20210101")
        #expect(h.string(#"count("calendar", "start_date >= %@", date("2018-06-01"))"#) == "2")
        #expect(h.string(#"count("calendar", "start_date.year == 2018")"#) == "2")
        #expect(h.string(#"count("calendar", "start_date.month == 9")"#) == "1")
        let sorted =
            #"(function() local t = {} for _, o in ipairs(fetch{ "calendar", sort = "-start_date" }) do t[#t + 1] = o.service_id end return table.concat(t, ",") end)()"#
        #expect(h.string(sorted) == "b,a,c")
        #expect(h.string(#"tostring(calendar:first("service_id == 'a'").start_date)"#)?.hasPrefix("2018-09-03") == true)
        // Memory agrees with SQL.
        h.run(
            #"""
            local p, n = predicate("start_date >= %@", date("2018-06-01")), 0
            for _, o in ipairs(fetch("calendar")) do if p:matches(o) then n = n + 1 end end
            assert(n == 2, n)
            calendar:first("service_id == 'c'").start_date = date("2020-02-29T13:00:00Z")
            save()
            """#)
        #expect(try sqlAnswer(path, "SELECT start_date FROM calendar WHERE service_id = 'c'") == "20200229")
        // With a time, the basic form with whole seconds.
        h.run(#"format("calendar", "end_date", "20180903T141500")"#)
        h.run(#"calendar:first("service_id == 'c'").end_date = date("2021-03-04T05:06:07Z"); save()"#)
        #expect(try sqlAnswer(path, "SELECT end_date FROM calendar WHERE service_id = 'c'") == "20210304T050607")
        #expect(h.string(#"count("calendar", "end_date > %@", date("2021-03-04T05:06:06Z"))"#) == "1")
    }

    /// A text column of numbers compared with a number: the refusal names the SQL that
    /// reads it as numbers, and format()'s list says no format makes text a number.
    @Test func aTextColumnOfNumbersSaysWhatWorks() throws {
        let path = try Self.feed()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let refused = h.error(#"count("stop_times", "stop_sequence > 5")"#)
        #expect(refused.contains(#"sql('SELECT count(*) FROM stop_times WHERE CAST(stop_sequence AS REAL) > 5')"#), "\(refused)")
        let format = h.error(#"format("stop_times", "stop_sequence", "int64")"#)
        #expect(format.contains("no format makes text a number") && format.contains("CAST(column AS REAL)"), "\(format)")
    }

    @Test func aSortKeyAbbreviatedGetsItsSuggestion() throws {
        let path = try foreignFile("CREATE TABLE results (id INTEGER PRIMARY KEY, position INTEGER, points INTEGER);")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let sort = h.error(#"fetch{ "results", sort = "-pts" }"#)
        #expect(sort.contains("unknown key 'pts' on entity results (did you mean 'points'?)"), "\(sort)")
        // Two keys it could abbreviate: no guess.
        let both = h.error(#"fetch{ "results", sort = "po" }"#)
        #expect(both.contains("unknown key 'po'") && !both.contains("did you mean"), "\(both)")
        // An entity already plural is not pluralized again.
        let swift = h.string(#"fetch("results"):swift("query")"#) ?? ""
        #expect(swift.contains("private var allResults: [results]") && !swift.contains("resultses"), "\(swift)")
    }
}

import Foundation
import QuarryShell
import Testing

/// A word in a number column declared a time (`'abc'` among Unix counts): SQL reads it as
/// no date (nil), and so does memory (`p:matches`, observers), which compared it later
/// than every date (issue 81). A BLOB is no date either: nil on both sides (it counted as
/// later than every date in memory). Differential over every number layout and the
/// operators that meet a date, nil and NOT.
@Suite struct WordInTimeColumnTests {
    @Test(arguments: [
        ("unix", "1700000000", "1600000000"), ("unix-ms", "1700000000000", "1600000000000"),
        ("cocoa", "721692800", "621692800"), ("webkit", "13344473600000000", "13244473600000000"),
        ("julian", "2460263.5", "2459000.5"), ("filetime", "133444736000000000", "132444736000000000")
    ])
    func sqlAndMemoryAgree(_ layout: String, _ late: String, _ early: String) throws {
        let path = try foreignFile(
            """
            CREATE TABLE ev (id INTEGER PRIMARY KEY, t \(layout == "julian" ? "REAL" : "INTEGER"));
            INSERT INTO ev (t) VALUES (\(late)), ('abc'), (NULL), (\(early)), ('2022-13-45'), (''), (x'0102'), (x'');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            format("ev", "t", "\#(layout)")
            failures = {}
            local d = date("2021-06-01T00:00:00Z")
            for _, p in ipairs{ "t > %@", "t < %@", "t == %@", "t != %@", "t == nil", "t != nil", "NOT (t > %@)",
                                "t >= %@ OR t == nil", "t BETWEEN {%@, %@}" } do
              -- As many arguments as the predicate has placeholders: an extra one is refused.
              local args = { table.unpack({ d, d }, 1, select(2, p:gsub("%%@", ""))) }
              local inSQL = count("ev", p, table.unpack(args))
              local pr, inMemory = predicate(p, table.unpack(args)), 0
              for _, o in ipairs(fetch("ev")) do if pr:matches(o) then inMemory = inMemory + 1 end end
              if inSQL ~= inMemory then failures[#failures + 1] = p .. ": SQL " .. inSQL .. ", memory " .. inMemory end
            end
            """#)
        #expect(h.string("#failures") == "0", "\(layout): \(h.string("table.concat(failures, '; ')") ?? "")")
        // Not vacuous: the dates are read, the words are not.
        #expect(h.string(#"count("ev", "t > %@", date("2021-06-01T00:00:00Z"))"#) == "1", "\(layout)")
        #expect(h.string(#"count("ev", "t < %@", date("2021-06-01T00:00:00Z"))"#) == "1", "\(layout)")
    }
}

import Foundation
import QuarryTestSupport
import Testing

/// A new user's trial on SQLite files Quarry did not create, through the real binary: a
/// link `relate()` makes between columns of two affinities (INTEGER to TEXT, TEXT to a
/// rowid) reads the same object and value before a save, after it and after reopening,
/// as SQLite stores the link column and joins the two, and a fetch through it agrees with
/// `p:matches`.
@Suite struct RelateAcrossAffinitiesTests {
    /// The script run before and after the save, and its lines.
    private static let linking = #"""
        relate("Survey", "taken", "Visited", "id", "visit")
        local s, t = Survey:get(1), Survey:get(2)
        s.visit = Visited:get(KEY1)
        t.visit = Visited:get(KEY2)
        local function show(when)
          print(when, math.type(s.taken) or type(s.taken), s.taken, s.visit and s.visit.site, t.taken, t.visit and t.visit.site,
            count("Survey", "visit.site == 'DR-3'"), predicate("visit.site == 'DR-3'"):matches(t), predicate("visit.site == 'DR-3'"):matches(s))
        end
        show("before")
        save()
        show("after")
        """#

    private static let reopened = #"""
        local s, t = Survey:get(1), Survey:get(2)
        print("reopened", math.type(s.taken) or type(s.taken), s.taken, s.visit and s.visit.site, t.taken, t.visit and t.visit.site,
          count("Survey", "visit.site == 'DR-3'"), predicate("visit.site == 'DR-3'"):matches(t))
        """#

    /// `taken INTEGER` linked to `Visited.id TEXT`: the link column holds the key as its
    /// own column stores it (900, and 901 for '0901'), and the link reads the row SQLite's
    /// join names, in memory and in SQL alike.
    @Test func anIntegerColumnLinkedToTextKeysHoldsNumbers() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE Survey (sid INTEGER PRIMARY KEY, taken INTEGER, note TEXT);
            CREATE TABLE Visited (id TEXT PRIMARY KEY, site TEXT);
            INSERT INTO Visited VALUES ('900', 'DR-1'), ('0901', 'DR-3');
            INSERT INTO Survey VALUES (1, NULL, 'a'), (2, NULL, 'b');
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "a.db", file: "schema.sql")
        let script = Self.linking.replacingOccurrences(of: "KEY1", with: #""900""#).replacingOccurrences(of: "KEY2", with: #""0901""#)
        try sandbox.write("link.lua", script)
        try sandbox.write("read.lua", Self.reopened)
        let first = try await sandbox.quarry(["a.db", "link.lua"])
        #expect(first.status == 0, "\(first)")
        #expect(
            first.lines == [
                "before\tinteger\t900\tDR-1\t901\tDR-3\t1\ttrue\tfalse",
                "after\tinteger\t900\tDR-1\t901\tDR-3\t1\ttrue\tfalse"
            ], "\(first)")
        let again = try await sandbox.quarry(["a.db", "read.lua"])
        #expect(again.lines == ["reopened\tinteger\t900\tDR-1\t901\tDR-3\t1\ttrue"], "\(again)")
        let stored = try await sandbox.run(
            URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell()), ["a.db", "SELECT typeof(taken) || ':' || taken FROM Survey ORDER BY sid"])
        #expect(stored.lines == ["integer:900", "integer:901"], "\(stored)")
    }

    /// The reverse: `taken TEXT` linked to `Visited.id INTEGER PRIMARY KEY` (the rowid)
    /// holds the key's text, which names the row as SQLite's join converts it.
    @Test func aTextColumnLinkedToRowNumbersHoldsText() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE Survey (sid INTEGER PRIMARY KEY, taken TEXT, note TEXT);
            CREATE TABLE Visited (id INTEGER PRIMARY KEY, site TEXT);
            INSERT INTO Visited VALUES (900, 'DR-1'), (901, 'DR-3');
            INSERT INTO Survey VALUES (1, NULL, 'a'), (2, NULL, 'b');
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "b.db", file: "schema.sql")
        try sandbox.write("link.lua", Self.linking.replacingOccurrences(of: "KEY1", with: "900").replacingOccurrences(of: "KEY2", with: "901"))
        try sandbox.write("read.lua", Self.reopened)
        let first = try await sandbox.quarry(["b.db", "link.lua"])
        #expect(first.status == 0, "\(first)")
        #expect(
            first.lines == [
                "before\tstring\t900\tDR-1\t901\tDR-3\t1\ttrue\tfalse",
                "after\tstring\t900\tDR-1\t901\tDR-3\t1\ttrue\tfalse"
            ], "\(first)")
        let again = try await sandbox.quarry(["b.db", "read.lua"])
        #expect(again.lines == ["reopened\tstring\t900\tDR-1\t901\tDR-3\t1\ttrue"], "\(again)")
    }

    /// A new object's link column set as a number names the TEXT key the join names
    /// (`901` names `'0901'`, converted as SQLite converts the TEXT column against an
    /// INTEGER one), in memory before its save, in SQL, and after the save.
    @Test func aNewObjectsNumberNamesTheTextKeyTheJoinNames() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE Survey (sid INTEGER PRIMARY KEY, taken INTEGER);
            CREATE TABLE Visited (id TEXT PRIMARY KEY, site TEXT);
            INSERT INTO Visited VALUES ('900', 'DR-1'), ('0901', 'DR-3');
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "n.db", file: "schema.sql")
        let result = try await sandbox.quarry([
            "n.db", "-e",
            #"""
            relate("Survey", "taken", "Visited", "id", "visit")
            local n = Survey:new{ taken = 901 }
            print(n.visit and n.visit.site, predicate("visit.site == %@", "DR-3"):matches(n), count("Survey", "visit.site == %@", "DR-3"))
            save()
            print(n.visit and n.visit.site, count("Survey", "visit.site == %@", "DR-3"), sql("SELECT count(*) AS n FROM Survey s JOIN Visited v ON v.id = s.taken")[1].n)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["DR-3\ttrue\t1", "DR-3\t1\t1"], "\(result)")
    }
}

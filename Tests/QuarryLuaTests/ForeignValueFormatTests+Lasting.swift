import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// Declared formats outlast the session, and booleans kept as text compare as booleans in
/// SQL as they do in memory.
extension ForeignValueFormatTests {
    /// A declaration is kept in the sidecar: reopened, the column writes in the declared
    /// format without being declared again; the file's schema is untouched.
    @Test func aDeclaredFormatLastsAcrossOpens() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, d DATETIME, b BOOLEAN);
            INSERT INTO t VALUES (1, '2021-01-01 00:00:00', 'Y'), (2, 1609459200, 'y');
            """)
        let schema = try schemaRows(path)
        do {
            let h = try Harness(context: try StoreOpener.open(path))
            #expect((h.string(#"select(2, format("t", "d"))"#) ?? "").contains("t.d"))
            h.run(#"format("t", "d", "iso-t"); format("t", "d", "2021-01-01 00:00"); format("t", "b", "Y/N")"#)
        }
        let sidecar = try String(contentsOfFile: path + ".quarry", encoding: .utf8)
        #expect(sidecar.contains(#"{"entity": "t", "column": "d", "format": "2021-01-01 00:00"}"#), "\(sidecar)")
        #expect(!sidecar.contains("iso-t") && sidecar.contains(#""format": "Y/N""#), "\(sidecar)")
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"format("t", "d") .. "," .. format("t", "b")"#) == "2021-01-01 00:00,Y/N")
        h.run("t:get(2).d = date('2022-03-04T05:06:00Z'); t:get(2).b = false; save()")
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT d || '|' || b FROM t WHERE id = 2") } == "2022-03-04 05:06|N")
        #expect(try schemaRows(path) == schema)
        // A declaration that no longer applies is noted on opening, and kept.
        try queue.write { db in try db.execute(sql: "ALTER TABLE t DROP COLUMN b") }
        let reopened = try StoreOpener.open(path)
        #expect(
            reopened.openingNotes.contains { $0.contains(#"format("t", "b", "Y/N")"#) && $0.contains("no longer applies") },
            "\(reopened.openingNotes)")
        #expect(try String(contentsOfFile: path + ".quarry", encoding: .utf8).contains(#""format": "Y/N""#))
    }

    /// `b == YES`, `b == NO`, `NOT b == YES` and `b IN {YES}` select in SQL the rows they
    /// select in memory, whatever texts the column keeps its booleans as.
    @Test(arguments: [("Y", "N"), ("true", "false"), ("T", "F"), ("yes", "no"), ("On", "Off")])
    func textBooleansCompareAsBooleans(_ spelling: (String, String)) throws {
        let (t, f) = spelling
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, b BOOLEAN);
            INSERT INTO t VALUES (1, '\(t)'), (2, '\(f)'), (3, '\(t)'), (4, NULL), (5, 1), (6, 0);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        for (predicate, expected) in [
            ("b == YES", 3), ("b == true", 3), ("b == NO", 2), ("NOT b == YES", 3), ("b IN {YES}", 3), ("b != NO", 4), ("b == 1", 3)
        ] {
            #expect(h.string("count('t', '\(predicate)')") == "\(expected)", "\(predicate)")
            h.run(
                """
                local p, n = predicate('\(predicate)'), 0
                for _, o in ipairs(fetch('t')) do if p:matches(o) then n = n + 1 end end
                assert(n == \(expected), '\(predicate): ' .. n)
                """)
        }
    }

    /// Rows imported into an existing table are written in its columns' formats; a column
    /// of no one format refuses the import whole, naming it, and nothing is written.
    @Test func importIntoAnExistingTableKeepsTheFormats() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, d DATETIME, b BOOLEAN, u TEXT, n TEXT);
            INSERT INTO t VALUES (1, '2021-01-01 00:00:00', 'Y', '0E984725-C51C-4BF4-9960-E1C80E27ABA0', 'x');
            CREATE TABLE m (id INTEGER PRIMARY KEY, d DATETIME);
            INSERT INTO m VALUES (1, '2021-01-01'), (2, 1609459200);
            """)
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-import-\(UUID().uuidString).csv").path
        try "id,d,b,u,n\n7,2022-05-06T07:08:09Z,false,1e984725-c51c-4bf4-9960-e1c80e27aba1,y\n3,,true,,z\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: csv) }
        let schema = try schemaRows(path)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("import('\(csv)', { entity = 't' })")
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let rows = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT id || '|' || quote(d) || '|' || quote(b) || '|' || quote(u) FROM t ORDER BY id")
        }
        #expect(
            rows == [
                "1|'2021-01-01 00:00:00'|'Y'|'0E984725-C51C-4BF4-9960-E1C80E27ABA0'",
                "3|NULL|'Y'|NULL", "7|'2022-05-06 07:08:09'|'N'|'1E984725-C51C-4BF4-9960-E1C80E27ABA1'"
            ])
        #expect(h.string("count('t', 'b == NO') .. ',' .. tostring(t:get(7).d == date('2022-05-06T07:08:09Z'))") == "1,true")
        // Two formats in m.d: refused, naming the column; nothing written.
        let mixed = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-import-\(UUID().uuidString).csv").path
        try "d\n2022-05-06\n".write(toFile: mixed, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: mixed) }
        let refusal = h.error("import('\(mixed)', { entity = 'm' })")
        #expect(refusal.contains("m.d") && refusal.contains("format("), "\(refusal)")
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM m") } == 2)
        #expect(try schemaRows(path) == schema)
    }

    /// Dates kept as Unix milliseconds or Julian days read back as those instants, in
    /// objects, in SQL's comparisons and sorts, and in memory; what Quarry writes reads back
    /// the same, so a second save of the object is no conflict.
    @Test func millisecondsAndJulianDaysReadAsSuch() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, ms TIMESTAMP, jd DATETIME, later DATETIME);
            INSERT INTO t VALUES (1, 1609459200250, julianday('2021-01-01 00:00:00'), NULL),
                                 (2, 1640995200000, julianday('2022-01-01 12:00:00'), NULL),
                                 (3, 1577836800000, julianday('2020-01-01 06:00:00'), NULL);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(
            h.string("tostring(t:get(1).ms) .. ' ' .. tostring(t:get(1).jd) .. ' ' .. tostring(t:get(2).jd)")
                == "2021-01-01T00:00:00.25Z 2021-01-01T00:00:00Z 2022-01-01T12:00:00Z")
        for predicate in ["ms > %@", "jd > %@", "ms < %@ AND jd < %@"] {
            // As many arguments as placeholders: an extra one is refused.
            let dates = ["date('2021-01-01T00:00:00.1Z')", "date('2021-06-01T00:00:00Z')"]
                .prefix(predicate.components(separatedBy: "%@").count - 1).joined(separator: ", ")
            let sql = h.string("count('t', '\(predicate)', \(dates))")
            h.run(
                """
                local p, n = predicate('\(predicate)', \(dates)), 0
                for _, o in ipairs(fetch('t')) do if p:matches(o) then n = n + 1 end end
                __n = n
                """)
            #expect(sql == h.string("__n") && sql != "0" && sql != "3", "\(predicate): \(sql ?? "")")
        }
        #expect(h.string("fetch{ 't', sort = 'jd' }[1].id .. fetch{ 't', sort = '-ms' }[1].id") == "32")
        h.run(
            """
            local o = t:get(3); o.ms = date('2023-01-01T00:00:00.5Z'); o.jd = date('2023-01-01T00:00:00Z'); save()
            assert(o.ms == date('2023-01-01T00:00:00.5Z') and o.jd == date('2023-01-01T00:00:00Z'))
            o.jd = date('2023-01-02T00:00:00Z'); save()
            """)
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT ms || '|' || jd FROM t WHERE id = 3") } == "1672531200500|2459946.5")
        // A column with no values yet reads in the scale declared for it.
        h.run("format('t', 'later', 'unix-ms'); t:get(2).later = date('2024-02-03T04:05:06Z'); save()")
        #expect(try queue.read { db in try Int64.fetchOne(db, sql: "SELECT later FROM t WHERE id = 2") } == 1_706_933_106_000)
        let again = try Harness(context: try StoreOpener.open(path))
        #expect(again.string("tostring(t:get(2).later) .. ' ' .. count('t', 'later > %@', date('2024-01-01T00:00:00Z'))") == "2024-02-03T04:05:06Z 1")
    }
}

import Foundation
import GRDB
import QuarryShell
import Testing

/// New rows of another program's table go several to an INSERT, and each value the save
/// writes is asked its column's format only where it may keep one (`WrittenForm`): dates
/// and booleans always, text only when it could be a UUID. Written together, every row
/// must keep each column's format exactly as a row written alone does.
@Suite struct ForeignRowsTogetherFormatTests {
    @Test func rowsWrittenTogetherKeepEachColumnsFormat() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, d DATETIME, ok BOOLEAN, u CHAR(32), note TEXT, n INTEGER);
            INSERT INTO t VALUES (1, '2020-01-02 03:04:05', 'Y', '0123456789ABCDEF0123456789ABCDEF', 'seed', 1);
            INSERT INTO t VALUES (2, '2021-05-06 07:08:09', 'N', 'FEDCBA9876543210FEDCBA9876543210', NULL, NULL);
            """)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let h = try Harness(context: try StoreOpener.open(path))
        // 40 rows in one save (more than one statement's 32), then one alone.
        let uuid = "01234567-89ab-cdef-0123-456789abcdef"
        // 36 characters that are no UUID: kept as given in a text column.
        let lookalike = String(repeating: "z", count: 36)
        h.run(
            #"""
            for i = 1, 40 do
              t:new{ d = date(1600000000 + i), ok = (i % 2 == 0), u = "\#(uuid)", note = (i % 3 == 0) and "\#(lookalike)" or nil, n = i }
            end
            save()
            t:new{ d = date(1600000041), ok = false, u = "\#(uuid)", note = "\#(lookalike)", n = 41 }
            save()
            """#)
        #expect(try sqlAnswer(path, "SELECT count(*) FROM t") == "43")
        // Dates in the column's layout, booleans as its letters, UUIDs as its compact upper hex.
        #expect(try sqlAnswer(path, "SELECT count(*) FROM t WHERE id > 2 AND d = strftime('%Y-%m-%d %H:%M:%S', 1600000000 + n, 'unixepoch')") == "41")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM t WHERE ok = CASE WHEN n % 2 = 0 THEN 'Y' ELSE 'N' END AND id > 2") == "41")
        #expect(try sqlAnswer(path, "SELECT DISTINCT u FROM t WHERE id > 2") == "0123456789ABCDEF0123456789ABCDEF")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM t WHERE note = '\(lookalike)'") == "14")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM t WHERE id > 2 AND note IS NULL") == "27")
        #expect(try sqlAnswer(path, "SELECT sum(n) FROM t WHERE id > 2 AND typeof(n) = 'integer'") == "861")
        // Each object reads back what its row holds: a second save finds no conflict.
        h.run("for _, o in ipairs(fetch('t')) do o.n = (o.n or 0) + 1 end save()")
        #expect(try sqlAnswer(path, "SELECT sum(n) FROM t WHERE id > 2") == "902")
    }
}

import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// A loop over every row of a table in key order reads windows of `min...max` before the
/// keys are counted (`FetchResults.rows(around:)`): whatever gaps the keys have, and
/// wherever, the loop sees each row once, in order, as the same object `r[i]` gives.
@Suite struct KeyOrderWalkTests {
    /// A file whose table `t` holds keys `first..<first+rows` less `deleted`, and `extra`,
    /// each row's `n` its key.
    private func file(rows: Int, deleted: [Int], first: Int = 1, extra: [Int] = []) throws -> (Harness, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let path = folder.path("walk.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER);
                    WITH RECURSIVE c(x) AS (SELECT \(first) UNION ALL SELECT x + 1 FROM c WHERE x < \(first + rows - 1))
                    INSERT INTO t (id, n) SELECT x, x FROM c;
                    """)
            for key in deleted { try db.execute(sql: "DELETE FROM t WHERE id = ?", arguments: [key]) }
            for key in extra { try db.execute(sql: "INSERT INTO t (id, n) VALUES (?, ?)", arguments: [key, key]) }
        }
        try queue.close()
        return (try Harness(context: try StoreOpener.open(path)), folder)
    }

    /// The `n` of every row a loop sees, checked against `r[i]` (the same object) and `#r`.
    private func walk(_ h: Harness, loops: Int = 1) -> (seen: [Int], count: Int) {
        h.run(
            """
            r = fetch("t")
            got, mismatches = {}, 0
            for pass = 1, \(loops) do
              got = {}
              for i, o in ipairs(r) do
                got[#got + 1] = o.n
                if not rawequal(o, r[i]) then mismatches = mismatches + 1 end
              end
            end
            seen = table.concat(got, ",")
            """)
        #expect(h.string("mismatches") == "0")
        let seen = (h.string("seen") ?? "").split(separator: ",").compactMap { Int($0) }
        return (seen, Int(h.string("#r") ?? "") ?? -1)
    }

    @Test(arguments: [
        // No gap; gaps in the first window, far past it, at either end, and many.
        [Int](), [3], [4_500], [1], [5_000], [1, 2, 3, 4_999, 5_000], Array(stride(from: 2, through: 5_000, by: 7))
    ])
    func everyRowOnceInOrder(deleted: [Int]) throws {
        let (h, folder) = try file(rows: 5_000, deleted: deleted)
        defer { withExtendedLifetime(folder) {} }
        let expected = (1...5_000).filter { !Set(deleted).contains($0) }
        // Twice over the same results: the second walk reads what the first learned.
        let (seen, count) = walk(h, loops: 2)
        // A Bool, so a failure names the first row that differs, not two lists of 5,000.
        let same = seen == expected
        let shorter = min(seen.count, expected.count)
        let differs = (0..<shorter).first { seen[$0] != expected[$0] } ?? shorter
        #expect(same, "deleted \(deleted.prefix(8)): \(seen.count) rows seen, \(expected.count) expected, the first difference at row \(differs + 1)")
        #expect(count == expected.count)
    }

    @Test func anEmptyTableAndOneRowFarFromZero() throws {
        let (empty, emptyFolder) = try file(rows: 3, deleted: [1, 2, 3])
        defer { withExtendedLifetime(emptyFolder) {} }
        #expect(walk(empty).seen.isEmpty)
        #expect(walk(empty).count == 0)
        let (far, farFolder) = try file(rows: 2, deleted: [], first: 9_000_000_000_000)
        defer { withExtendedLifetime(farFolder) {} }
        #expect(walk(far).seen == [9_000_000_000_000, 9_000_000_000_001])
    }

    /// Keys spread too far apart for any window to come back whole: the walk goes to
    /// the counted keys at the first window and still sees every row.
    @Test func sparseKeys() throws {
        let (h, folder) = try file(rows: 1, deleted: [], extra: [1_000, 1_000_000, 4_000_000_000_000])
        defer { withExtendedLifetime(folder) {} }
        #expect(walk(h).seen == [1, 1_000, 1_000_000, 4_000_000_000_000])
        #expect(walk(h).count == 4)
    }
}

import Foundation
import QuarryShell
import Testing

/// A foreign file of a thousand views (issue 61 item 5: opening one asked SQLite for its
/// shadow tables with `PRAGMA table_list`, which works out every view's columns, in time
/// quadratic in the views; it is asked now only when the file has a virtual table). Its
/// time belongs in `scripts/scaling`; this checks every view is an entity, and that a
/// virtual table's shadow tables stay out of sight beside many views.
@Suite struct ManyViewsTests {
    static func views(_ count: Int) -> String {
        (0..<count).map { "CREATE VIEW v\($0) AS SELECT id, x FROM t WHERE x >= \($0 % 10);" }.joined(separator: "\n")
    }

    @Test func aThousandViewsAreAThousandEntities() throws {
        let path = try foreignFile(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER); INSERT INTO t (x) VALUES (1), (5), (9);\n" + Self.views(1_000))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string("#entities()") == "1001")
        #expect(h.string(#"count("v999") .. "," .. count("v5") .. "," .. count("v0")"#) == "1,2,3")
    }

    @Test func shadowTablesStayHiddenBesideManyViews() throws {
        let path = try foreignFile(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER); CREATE VIRTUAL TABLE ft USING fts5(body);\n" + Self.views(200))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string("#entities()") == "202")
        h.run(#"shadows = 0; for _, e in ipairs(entities()) do if e.name:find("^ft_") then shadows = shadows + 1 end end"#)
        #expect(h.string("shadows") == "0")
    }
}

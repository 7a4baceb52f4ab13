import Foundation
import GRDB
import QuarryShell
import Testing

/// `@count` and ANY/ALL/NONE over a to-many kept by its members' foreign key, in a file
/// another program wrote, are answered for every owner at once (a grouped sub-select, a
/// list SQLite makes once), where the correlated forms read the members' table again for
/// each owner: 142 s for nycflights' planes when `flights.tailnum` has no index. The
/// answer must stay the correlated one to the row, on keys stored in mixed types (5, 5.0,
/// '5' in an untyped column), text keys, collations, filters, nil and negations, in SQL
/// and in memory.
@Suite struct MemberCountTests {
    static let schema = """
        CREATE TABLE k (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE m (id INTEGER PRIMARY KEY, k_id REFERENCES k (id), v REAL);
        INSERT INTO k VALUES (1, 'a'), (2, 'b'), (3, 'c'), (5, 'e');
        INSERT INTO m (k_id, v) VALUES (1, 1), (1, 2), (5, 3), (5.0, 5), (NULL, 7), ('x', 8), (2, NULL), (2, 9), (2, 3);
        CREATE TABLE tk (code TEXT PRIMARY KEY, name TEXT);
        CREATE TABLE tm (id INTEGER PRIMARY KEY, code REFERENCES tk (code), v REAL);
        INSERT INTO tk VALUES ('5', 'five'), ('5.0', 'point'), ('a', 'lower'), ('A', 'upper'), ('z', 'none');
        INSERT INTO tm (code, v) VALUES (5, 1), (5.0, 2), ('5', 3), ('5.0', 4), ('a', 5), ('A', 6), (NULL, 7), ('a', 8);
        CREATE TABLE nk (code TEXT PRIMARY KEY, name TEXT);
        CREATE TABLE nm (id INTEGER PRIMARY KEY, code TEXT COLLATE NOCASE REFERENCES nk (code));
        INSERT INTO nk VALUES ('a', 'lower'), ('A', 'upper'), ('b', 'b');
        INSERT INTO nm (code) VALUES ('a'), ('A'), ('a'), ('b');
        """

    /// The file, written with foreign keys unchecked, as an application that never turns
    /// them on writes them (members naming no owner, keys in other types).
    static func file() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-member-count-\(UUID().uuidString).db").path
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in try db.execute(sql: schema) }
        try queue.close()
        return path
    }

    /// Each `@count` test beside the correlated count SQLite gives for it.
    static func cases(_ relationship: String, _ child: String, _ match: String) -> [(predicate: String, sql: String)] {
        let count = "(SELECT count(*) FROM \(child) c WHERE \(match))"
        return [
            ("\(relationship).@count == 0", "\(count) = 0"),
            ("\(relationship).@count == 1", "\(count) = 1"),
            ("\(relationship).@count >= 2", "\(count) >= 2"),
            ("\(relationship).@count < 3", "\(count) < 3"),
            ("\(relationship).@count != 2", "\(count) <> 2"),
            ("NOT (\(relationship).@count > 1)", "NOT (\(count) > 1)"),
            ("2 <= \(relationship).@count", "2 <= \(count)"),
            ("\(relationship).@count * 2 > 3", "\(count) * 2 > 3"),
            ("SUBQUERY(\(relationship), $x, $x.v > 2).@count >= 1", "(SELECT count(*) FROM \(child) c WHERE \(match) AND c.v > 2) >= 1"),
            ("ANY \(relationship).v > 2", "EXISTS (SELECT 1 FROM \(child) c WHERE \(match) AND c.v > 2)"),
            ("NOT (ANY \(relationship).v > 2)", "NOT EXISTS (SELECT 1 FROM \(child) c WHERE \(match) AND c.v > 2)"),
            ("ANY \(relationship).v == nil", "EXISTS (SELECT 1 FROM \(child) c WHERE \(match) AND c.v IS NULL)"),
            ("ALL \(relationship).v > 2", "NOT EXISTS (SELECT 1 FROM \(child) c WHERE \(match) AND NOT (c.v > 2))"),
            ("NONE \(relationship).v > 2", "NOT EXISTS (SELECT 1 FROM \(child) c WHERE \(match) AND c.v > 2)")
        ]
    }

    @Test func countsAgreeWithTheCorrelatedCountOnHostileKeys() throws {
        let path = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        try expectCountsAgreeWithSQLite(h, path, table: "k", Self.cases("ms", "m", "c.k_id = k.id"))
        try expectCountsAgreeWithSQLite(h, path, table: "tk", Self.cases("tms", "tm", "tk.code = c.code"))
        // The members' column is NOCASE: grouped, 'a' and 'A' would be one group, which
        // the parent's BINARY key tells apart; it keeps the correlated count.
        try expectCountsAgreeWithSQLite(h, path, table: "nk", Array(Self.cases("nms", "nm", "nk.code = c.code").prefix(6)))
    }

    /// A SUBQUERY's filter reads the members (a bare key is the member's), inside the
    /// grouped sub-select.
    @Test func aFilteredCountIsGroupedToo() throws {
        let path = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        try expectCountsAgreeWithSQLite(
            h, path, table: "k",
            [("SUBQUERY(ms, $x, $x.v > id).@count >= 1", "(SELECT count(*) FROM m c WHERE c.k_id = k.id AND c.v > c.id) >= 1")])
        let plan = h.string(#"explain(fetch("k", "SUBQUERY(ms, $x, $x.v > id).@count >= 1"))"#) ?? ""
        #expect(plan.contains("GROUP BY"), "\(plan)")
    }

    /// The count is grouped once, a sub-select SQLite reads once (with an index of its own
    /// on a table of any size).
    @Test func aCountIsGroupedOnce() throws {
        let path = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let plan = h.string(#"explain(fetch("k", "ms.@count >= 2"))"#) ?? ""
        #expect(plan.contains("GROUP BY"), "\(plan)")
    }
}

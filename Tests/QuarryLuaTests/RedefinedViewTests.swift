import Foundation
import GRDB
import QuarryShell
import QuarryStore
import Testing

/// A view another program redefines while a session is open (issue 81, item 2) is read as
/// the new definition keys it, once the session looks for others' commits (`refresh()`,
/// the prompt, a save), as a fresh session reads it: redefined as a `UNION ALL`, each row
/// is an object of its own; redefined with a text `id`, every row reads.
@Suite struct RedefinedViewTests {
    /// Each object of `v` as `id=x`, sorted, and the number of distinct objects among them.
    static let objects =
        #"(function() local t, seen, n = {}, {}, 0; for _, o in ipairs(fetch("v")) do t[#t + 1] = tostring(o.id) .. "=" .. o.x; if not seen[o] then seen[o] = true; n = n + 1 end end; table.sort(t); return table.concat(t, ",") .. " " .. n end)()"#

    /// What sqlite3 reads of the view, as `objects` prints it when each row is an object.
    static func rows(_ path: String) throws -> String {
        let all = try sqlAnswer(path, "SELECT CAST(id AS TEXT) || '=' || x FROM v").split(separator: ",").map(String.init).sorted()
        return all.joined(separator: ",") + " \(all.count)"
    }

    static func redefine(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "DROP VIEW v; " + sql) }
        try queue.close()
    }

    @Test func aRedefinedViewIsKeyedAgain() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT);
            INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');
            CREATE VIEW v AS SELECT id, x FROM t;
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(Self.objects) == (try Self.rows(path)))
        #expect(h.string("v:first('x == %@', 'a'):objectID()") == "v/1")
        // A UNION ALL repeats ids: each row is an object, by its place.
        try Self.redefine(path, "CREATE VIEW v AS SELECT id, x FROM t UNION ALL SELECT id, x || '2' FROM t WHERE id < 3;")
        h.run("refresh()")
        #expect(h.string(Self.objects) == (try Self.rows(path)))
        #expect(h.string(#"count("v")"#) == "5")
        // A text id: every row reads, typed as the new definition types it.
        try Self.redefine(path, "CREATE VIEW v AS SELECT 'k' || id AS id, x FROM t;")
        h.run("refresh()")
        #expect(h.string(Self.objects) == (try Self.rows(path)))
        #expect(h.string("typeof(v:first().id)") == "string")
        // A fresh session reads what this one now reads.
        let fresh = try Harness(context: try StoreOpener.open(path))
        #expect(fresh.string(Self.objects) == h.string(Self.objects))
        // Back to the table's key: objects are the table's rows again.
        try Self.redefine(path, "CREATE VIEW v AS SELECT id, x FROM t WHERE id > 1;")
        h.run("refresh()")
        #expect(h.string(Self.objects) == (try Self.rows(path)))
        #expect(h.string("v:first('x == %@', 'c'):objectID()") == "v/3")
    }
}

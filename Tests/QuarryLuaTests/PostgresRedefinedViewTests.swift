import Foundation
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// A view another session redefines while a session is open (issue 81, item 2), on
/// PostgreSQL as `RedefinedViewTests` on a SQLite file: read as the new definition keys it
/// once the session looks for others' commits (`refresh()`), as a fresh session
/// reads it. Redefined as a `UNION ALL` (`CREATE OR REPLACE VIEW`), each row is an object
/// of its own; redefined with a text `id` (dropped with what depends on it, the session's
/// temporary view among them, and made again), every row reads. Against a real server
/// (`PostgresServer`): the test fails, never skips, without one.
@Suite struct PostgresRedefinedViewTests {
    /// What psql reads of the view, as `RedefinedViewTests.objects` prints it when each
    /// row is an object.
    static func rows(_ url: String) throws -> String {
        let all = try psql(url, "SELECT id::text || '=' || x FROM v").split(separator: "\n").map(String.init).sorted()
        return all.joined(separator: ",") + " \(all.count)"
    }

    @discardableResult
    static func psql(_ url: String, _ sql: String) throws -> String {
        let ran = try Subprocess.run("/usr/bin/psql", [url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", "-c", sql])
        let output = String(decoding: ran.output, as: UTF8.self)
        try #require(ran.status == 0, "psql failed on \(sql): \(String(decoding: ran.errors, as: UTF8.self))")
        return output
    }

    @Test func aRedefinedViewIsKeyedAgain() throws {
        let url = try PostgresServer.database("redefinedview")
        try Self.psql(
            url,
            """
            CREATE TABLE t (id integer PRIMARY KEY, x text);
            INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');
            CREATE VIEW v AS SELECT id, x FROM t;
            """)
        let h = try Harness(context: try StoreOpener.open(url))
        let objects = RedefinedViewTests.objects
        #expect(h.string(objects) == (try Self.rows(url)))
        #expect(h.string("v:first('x == %@', 'a'):objectID()") == "v/1")
        // A UNION ALL repeats ids: each row is an object, by its place.
        try Self.psql(url, "CREATE OR REPLACE VIEW v AS SELECT id, x FROM t UNION ALL SELECT id, x || '2' FROM t WHERE id < 3")
        h.run("refresh()")
        #expect(h.string(objects) == (try Self.rows(url)))
        #expect(h.string(#"count("v")"#) == "5")
        // A text id: the view is dropped with the session's temporary view over it, and
        // every row reads, typed as the new definition types it.
        try Self.psql(url, "DROP VIEW v CASCADE; CREATE VIEW v AS SELECT 'k' || id AS id, x FROM t")
        h.run("refresh()")
        #expect(h.string(objects) == (try Self.rows(url)))
        #expect(h.string("typeof(v:first().id)") == "string")
        // A fresh session reads what this one now reads.
        let fresh = try Harness(context: try StoreOpener.open(url))
        #expect(fresh.string(objects) == h.string(objects))
        // Back to the table's key: objects are the table's rows again.
        try Self.psql(url, "DROP VIEW v CASCADE; CREATE VIEW v AS SELECT id, x FROM t WHERE id > 1")
        h.run("refresh()")
        #expect(h.string(objects) == (try Self.rows(url)))
        #expect(h.string("v:first('x == %@', 'c'):objectID()") == "v/3")
        // A new connection makes the view as now defined, not as first defined.
        h.run(#"pcall(sql, "SELECT pg_terminate_backend(pg_backend_pid())")"#)
        #expect(h.string(objects) == (try Self.rows(url)))
    }
}

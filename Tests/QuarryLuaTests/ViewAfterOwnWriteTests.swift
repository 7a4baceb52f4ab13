import Foundation
import QuarryShell
import QuarryStore
import Testing

/// A view's objects in use follow this session's own writes (a save, `updateall`,
/// `deleteall`), as they follow another program's: a view's rows come from the tables it
/// reads, so after a write a fetch of the view reads what sqlite3 reads, whether the
/// view is keyed by its rows' places (a join) or by a table's key.
@Suite struct ViewAfterOwnWriteTests {
    static let schema = """
        CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, done INTEGER);
        CREATE TABLE u (id INTEGER PRIMARY KEY, t_id INTEGER REFERENCES t(id), label TEXT);
        INSERT INTO t VALUES (1, 'a', 0), (2, 'b', 0), (3, 'c', 0);
        INSERT INTO u VALUES (10, 1, 'x'), (20, 2, 'y'), (30, 3, 'z');
        CREATE VIEW open AS SELECT u.id AS uid, t.name AS name FROM u JOIN t ON t.id = u.t_id WHERE t.done = 0;
        CREATE VIEW shout AS SELECT id, name || '!' AS loud FROM t;
        """

    /// Each object of the view, in fetch order, as `uid:name` (or `id:loud`).
    static func objects(_ view: String, _ a: String, _ b: String) -> String {
        #"(function() local t = {}; for _, o in ipairs(fetch{ "\#(view)", sort = "\#(a)" }) do t[#t + 1] = o.\#(a) .. ":" .. o.\#(b) end; return table.concat(t, ",") end)()"#
    }

    static func truth(_ path: String, _ view: String, _ a: String, _ b: String) throws -> String {
        try sqlAnswer(path, "SELECT \(a) || ':' || \(b) FROM \(view) ORDER BY \(a)")
    }

    @Test func aViewReadsWhatTheSessionWrote() throws {
        let path = try foreignFile(Self.schema)
        let h = try Harness(context: try StoreOpener.open(path))
        // Printed first, as a person at the prompt looks before changing anything: the
        // objects printed stay in use until Lua collects them.
        h.run(#"print(fetch("open")); print(fetch("shout"))"#)
        #expect(h.string(Self.objects("open", "uid", "name")) == (try Self.truth(path, "open", "uid", "name")))
        h.run("t:get(1).done = 1; save()")
        #expect(h.string(Self.objects("open", "uid", "name")) == (try Self.truth(path, "open", "uid", "name")))
        #expect(h.string(Self.objects("open", "uid", "name")) == "20:b,30:c")
        h.run("t:get(2).name = 'bb'; save()")
        #expect(h.string(Self.objects("shout", "id", "loud")) == (try Self.truth(path, "shout", "id", "loud")))
        #expect(h.string("shout:get(2).loud") == "bb!")
        h.run(#"t:updateall("id == 3", {}, { done = 1 })"#)
        #expect(h.string(Self.objects("open", "uid", "name")) == (try Self.truth(path, "open", "uid", "name")))
        #expect(h.string(#"count("open")"#) == "1")
        h.run(#"u:deleteall("id == 20")"#)
        #expect(h.string(Self.objects("open", "uid", "name")) == (try Self.truth(path, "open", "uid", "name")))
        #expect(h.string(#"count("open")"#) == "0")
    }
}

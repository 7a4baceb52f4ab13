import Foundation
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// A write a trigger of the file or schema refuses (its RAISE, or a function it calls
/// that the database lacks) is said alike by every write (issue 81): after the
/// operation's name (`save:`, `updateall:`, `deleteall:`, `import:`), and naming the
/// trigger where `save` names it: on a SQLite file, the triggers calling a function
/// SQLite lacks; on PostgreSQL, the triggers running the function the refusal came from.
/// The PostgreSQL half runs against a real server (`PostgresServer`): it fails, never
/// skips, without one.
@Suite struct TriggerRefusalTests {
    static let rows = "id,x\n5,e\n"

    @Test func sqliteWritesSayTheirOperationAndTheTrigger() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT);
            INSERT INTO t VALUES (1, 'a');
            CREATE TRIGGER t_refuse BEFORE UPDATE ON t BEGIN SELECT RAISE(ABORT, 'no updates to t'); END;
            CREATE TRIGGER t_nodelete BEFORE DELETE ON t BEGIN SELECT RAISE(ABORT, 'no deletes from t'); END;
            CREATE TABLE u (id INTEGER PRIMARY KEY, x TEXT);
            INSERT INTO u VALUES (1, 'a');
            CREATE TRIGGER u_sort AFTER INSERT ON u BEGIN UPDATE u SET x = title_sort(NEW.x) WHERE id = NEW.id; END;
            """)
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("trigger-\(UUID().uuidString).csv").path
        try Self.rows.write(toFile: csv, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: csv) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.error(#"t:get(1).x = "z"; save()"#) == "t:1: save: no updates to t")
        h.run("rollback()")
        #expect(h.error(#"t:updateall("id == 1", {}, { x = "z" })"#) == "t:1: updateall: no updates to t")
        #expect(h.error(#"t:deleteall("id == 1")"#) == "t:1: deleteall: no deletes from t")
        let saved = h.error(#"u:new{ id = 9, x = "q" }; save()"#)
        #expect(saved.contains("save: no such function: title_sort (trigger u_sort calls it"), "\(saved)")
        h.run("rollback()")
        let imported = h.error(#"import("\#(csv)", { entity = "u" })"#)
        #expect(imported.contains("import: \(csv): no such function: title_sort (trigger u_sort calls it"), "\(imported)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func postgresWritesNameTheTrigger() throws {
        let url = try PostgresServer.database("triggers")
        try PostgresRedefinedViewTests.psql(
            url,
            """
            CREATE TABLE t (id integer PRIMARY KEY, x text);
            INSERT INTO t VALUES (1, 'a');
            CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no changes to t'; END $$;
            CREATE TRIGGER t_refuse BEFORE INSERT OR UPDATE OR DELETE ON t FOR EACH ROW EXECUTE FUNCTION refuse();
            CREATE TABLE u (id integer PRIMARY KEY, x text);
            INSERT INTO u VALUES (1, 'a');
            CREATE FUNCTION sorts() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.x := title_sort(NEW.x); RETURN NEW; END $$;
            CREATE TRIGGER u_sort BEFORE INSERT OR UPDATE ON u FOR EACH ROW EXECUTE FUNCTION sorts();
            """)
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("trigger-\(UUID().uuidString).csv").path
        try Self.rows.write(toFile: csv, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: csv) }
        let h = try Harness(context: try StoreOpener.open(url))
        let refused = "PostgreSQL: no changes to t (trigger t_refuse on t runs refuse(); nothing was written)"
        #expect(h.error(#"t:get(1).x = "z"; save()"#) == "t:1: save: \(refused)")
        h.run("rollback()")
        #expect(h.error(#"t:updateall("id == 1", {}, { x = "z" })"#) == "t:1: updateall: \(refused)")
        #expect(h.error(#"t:deleteall("id == 1")"#) == "t:1: deleteall: \(refused)")
        let imported = h.error(#"import("\#(csv)", { entity = "t" })"#)
        #expect(imported == "t:1: import: \(csv):2: no changes to t (trigger t_refuse on t runs refuse(); nothing was written)", "\(imported)")
        let missing = "function title_sort(text) does not exist"
        let named = "(trigger u_sort on u runs sorts(); nothing was written)"
        for (write, operation) in [(#"u:get(1).x = "z"; save()"#, "save"), (#"u:updateall("id == 1", {}, { x = "z" })"#, "updateall")] {
            let said = h.error(write)
            #expect(said.hasPrefix("t:1: \(operation): PostgreSQL: \(missing)") && said.hasSuffix(named), "\(said)")
            h.run("rollback()")
        }
        let copied = h.error(#"import("\#(csv)", { entity = "u" })"#)
        #expect(copied.hasPrefix("t:1: import: \(csv):2: \(missing)") && copied.hasSuffix(named), "\(copied)")
        #expect(
            try PostgresRedefinedViewTests.psql(
                url, "SELECT string_agg(x, ',' ORDER BY id) FROM (SELECT id, x FROM t UNION ALL SELECT id, x FROM u) s") == "a,a\n")
    }
}

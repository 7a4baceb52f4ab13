import Foundation
import QuarryTestSupport
import Testing

/// A PostgreSQL session survives its server (issue 45, item 7): after a restart the next
/// statement connects again, with the session set up as before (LISTEN, the temporary
/// view a join table is written through), and pending changes survive and save. A save
/// whose connection breaks before COMMIT runs once more on a new connection, or fails
/// with nothing written and its changes still pending. `.open` refuses while changes are
/// pending, on both engines. Against a server of the test's own (`PostgresOwnServer`):
/// a restart of the shared one would break every other test's sessions.
@Suite struct PostgresSessionTests {
    static let schema = """
        CREATE TABLE item (id serial PRIMARY KEY, n text);
        INSERT INTO item (n) VALUES ('a'), ('b');
        CREATE TABLE playlist (playlist_id integer PRIMARY KEY, name text);
        CREATE TABLE track (track_id integer PRIMARY KEY, name text);
        CREATE TABLE playlist_track (playlist_id integer NOT NULL REFERENCES playlist (playlist_id),
          track_id integer NOT NULL REFERENCES track (track_id), PRIMARY KEY (playlist_id, track_id));
        INSERT INTO playlist VALUES (1, 'Music'), (2, 'Movies');
        INSERT INTO track VALUES (1, 'a'), (2, 'b');
        INSERT INTO playlist_track VALUES (1, 1);
        -- A row whose first insert ends its own session (a sequence is not rolled back),
        -- and one whose every insert does.
        CREATE SEQUENCE kills;
        CREATE TABLE fragile (id serial PRIMARY KEY, n text);
        CREATE FUNCTION kill_first() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN IF nextval('kills') = 1 THEN PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(5); END IF; RETURN NEW; END $$;
        CREATE TRIGGER kill_first BEFORE INSERT ON fragile FOR EACH ROW EXECUTE FUNCTION kill_first();
        CREATE TABLE doomed (id serial PRIMARY KEY, n text);
        CREATE FUNCTION kill_always() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(5); RETURN NEW; END $$;
        CREATE TRIGGER kill_always BEFORE INSERT ON doomed FOR EACH ROW EXECUTE FUNCTION kill_always();

        """

    static func psql(_ sandbox: Sandbox, _ url: String, _ statement: String) async throws -> String {
        let result = try await sandbox.run(URL(fileURLWithPath: "/usr/bin/psql"), ["-qAt", url, "-c", statement], timeout: 60)
        guard result.status == 0 else { throw HarnessError("psql -c \(statement) failed: \(result)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aSessionSurvivesARestartOfItsServer() async throws {
        let sandbox = try Sandbox()
        let server = try await PostgresOwnServer.start("restart")
        try await PostgresStoreTests.load(Self.schema, into: server.url, in: sandbox)
        try sandbox.write(
            "session.lua",
            """
            local o = item:get(1)
            o.n = "changed"
            item:new{ n = "new" }
            playlist:get(2).tracks:add(track:get(2))
            assert(os.execute([[\(server.restartCommand)]]))
            print(count("item"), haschanges())
            print(sql("SELECT string_agg(c, ',') AS c FROM pg_listening_channels() AS c")[1].c)
            local s = save()
            print(s.inserted, s.updated)
            print(#playlist:get(2).tracks)
            fragile:new{ n = "x" }
            print(save().inserted)
            doomed:new{ n = "y" }
            local ok, err = pcall(save)
            print(ok, haschanges())
            io.stderr:write(tostring(err), "\\n")
            rollback()
            print(count("doomed"), count("fragile"))
            """)
        let result = try await sandbox.quarry([server.url, "session.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                // The next statement works (counting the pending insert), the changes still
                // pending; LISTEN was issued again.
                "3\ttrue", "quarry_changes",
                // They save: the link through the join table's temporary view, made again
                // (the item updated, and the playlist and track linked).
                "1\t3", "1",
                // A save that lost its connection before COMMIT ran once more...
                "1",
                // ... and one that lost it twice failed, its changes still pending.
                "false\ttrue", "0\t1"
            ], "\(result)")
        // Each reconnection says so in one line: at the count after the restart, at each
        // save's second try, and at the count after the save that failed.
        let notes = result.errorLines.filter { $0 == "note: connection lost, reconnecting" }
        #expect(notes.count == 4, "\(result)")
        #expect(
            result.errorLines.count == notes.count + 1 && result.stderr.contains("save: PostgreSQL: ")
                && result.stderr.contains("(the connection to the server was lost; the next statement connects again)"), "\(result)")
        #expect(try await Self.psql(sandbox, server.url, "SELECT string_agg(n, ',' ORDER BY id) FROM item") == "changed,b,new")
        #expect(
            try await Self.psql(sandbox, server.url, "SELECT string_agg(playlist_id || '-' || track_id, ',' ORDER BY 1) FROM playlist_track")
                == "1-1,2-2")
        #expect(try await Self.psql(sandbox, server.url, "SELECT (SELECT count(*) FROM fragile) || ' ' || (SELECT count(*) FROM doomed)") == "1 0")
    }

    /// The REPL, as a person meets it: the server restarts while the prompt waits; the
    /// next line works and the change typed before it saves.
    @Test func theREPLWorksOnAfterARestart() async throws {
        let sandbox = try Sandbox()
        let server = try await PostgresOwnServer.start("repl")
        try await PostgresStoreTests.load(Self.schema, into: server.url, in: sandbox)
        let repl = try await TmuxSession(sandbox, arguments: [server.url])
        try await repl.waitForPrompt()
        #expect(try await repl.enter(#"o = item:get(2); o.n = "typed""#) == [])
        try await server.restartAwaited()
        #expect(try await repl.enter(#"count("item")"#) == ["2"])
        // The change is not dropped by an .open (of the same URL, the way the REPL said to
        // reconnect before): it is named, and the session goes on.
        #expect(try await repl.enter(".open \(server.url)") == [".open: 1 pending change (1 updated): save() or rollback() first"])
        #expect(try await repl.enter("save().updated") == ["1"])
        #expect(try await Self.psql(sandbox, server.url, "SELECT n FROM item WHERE id = 2") == "typed")
    }

    /// Another session's update of a row observed results hold, though no object of
    /// this session holds it: the results observer hears an `updated` entry carrying the
    /// keys that changed (as it does for a row an object holds), on both engines.
    @Test func observersHearAnotherSessionsUpdateWithItsKeys() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresServer.database("outsidekeys")
        let schema =
            "CREATE TABLE item (id integer PRIMARY KEY, n text, k integer);\nINSERT INTO item VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3);\n"
        try sandbox.write("schema.sql", schema)
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "schema.sql")
        for store in [url, "lite.db"] {
            // The other session: another quarry, which changes row 2 (never read here) and
            // row 1 (read here); then refresh() takes the news in.
            let other = "'\(sandbox.binary.path)' '\(store)' -e 'item:get(2).n = \"z\"; item:get(2).k = 20; item:get(1).k = 10; save()'"
            let result = try await sandbox.quarry([
                store, "-e",
                """
                r = fetch{ "item", sort = { "id" } }
                print(item:get(1).k)
                observe(r, function(ev)
                  for _, u in ipairs(ev.updated) do print("updated", u.index, u.object.id, table.concat(u.keys, ",")) end
                  print("inserted", #ev.inserted, "deleted", #ev.deleted, "moved", #ev.moved)
                end)
                assert(os.execute([[\(other)]]))
                print(refresh())
                """
            ])
            #expect(result.status == 0, "\(store): \(result)")
            #expect(
                result.lines == ["1", "updated\t1\t1\tk", "updated\t2\t2\tk,n", "inserted\t0\tdeleted\t0\tmoved\t0", "true"], "\(store): \(result)")
        }
    }

    /// `.open` with pending changes refuses, naming them, on both engines; saved or
    /// rolled back, it opens.
    @Test func openRefusesWhileChangesArePending() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresServer.database("pendingopen")
        try sandbox.write("schema.sql", "CREATE TABLE item (id serial PRIMARY KEY, n text);\nINSERT INTO item (n) VALUES ('a'), ('b');\n")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        try sandbox.write("lite.sql", "CREATE TABLE item (id INTEGER PRIMARY KEY, n TEXT);\nINSERT INTO item (n) VALUES ('a'), ('b');\n")
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "lite.sql")
        try sandbox.write("other.sql", "CREATE TABLE thing (id INTEGER PRIMARY KEY, t TEXT);\nINSERT INTO thing (t) VALUES ('x');\n")
        try await PostgresStoreTests.sqlite3(sandbox, "other.db", file: "other.sql")
        let change = #"o = item:get(1); o.n = "x"; item:new{ n = "y" }"# + "\n"
        for store in [url, "lite.db"] {
            // A batch stops at the refused dot-command, as at any failed one.
            let refused = try await sandbox.quarry([store, "-"], stdin: change + ".open other.db\nprint(count(\"thing\"))\n")
            #expect(refused.status == 1, "\(store): \(refused)")
            #expect(refused.errorLines == [".open: 2 pending changes (1 inserted, 1 updated): save() or rollback() first"], "\(store): \(refused)")
            #expect(refused.lines.isEmpty, "\(store): \(refused)")
            let rolledBack = try await sandbox.quarry([store, "-"], stdin: change + "rollback()\n.open other.db\nprint(count(\"thing\"))\n")
            #expect(rolledBack.status == 0 && rolledBack.lines == ["1"], "\(store): \(rolledBack)")
        }
        #expect(try await Self.psql(sandbox, url, "SELECT string_agg(n, ',' ORDER BY id) FROM item") == "a,b")
    }
}

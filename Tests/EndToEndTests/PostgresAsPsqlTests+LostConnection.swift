import Foundation
import QuarryTestSupport
import Testing

/// Issue 86, item 2: live views and observers when their connection dies.
extension PostgresAsPsqlTests {
    /// Observers at the prompt and a `watch` on a `?notify=triggers` session go on hearing
    /// after psql terminates Quarry's backend: the loss is said in one line, the session is
    /// made again and listens again, and what the re-read finds reaches the observers and
    /// redraws the watch.
    @Test func liveViewsReconnectWhenTheConnectionDies() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "lostviews", in: sandbox,
            schema: """
                CREATE TABLE airlines (carrier text PRIMARY KEY, name text);
                INSERT INTO airlines VALUES ('AA', 'American Airlines Inc.');

                """)
        func psql(_ statement: String) async throws {
            let result = try await sandbox.run(URL(fileURLWithPath: "/usr/bin/psql"), ["-qAt", url, "-c", statement])
            #expect(result.status == 0, "\(result)")
        }
        // Quarry's backends in this database (only the REPL's): each ended as by an administrator.
        let terminate =
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'quarry' AND datname = current_database()"
        let note = "connection lost, reconnecting"
        let repl = try await TmuxSession(sandbox, arguments: [url + "?notify=triggers"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(
            #"r = fetch{ "airlines", sort = { "carrier" } }; observe(r, function(ev) print("R " .. #r .. " " .. #ev.inserted) end)"#)
        _ = try await repl.enter(#"observe("airlines", function(c) print("E " .. #c.inserted) end)"#)
        try await psql(terminate)
        try await psql("INSERT INTO airlines VALUES ('B6', 'JetBlue Airways')")
        var screen = try await repl.waitUntil("the observers after the loss") { $0.contains("R 2 1") && $0.contains("E 1") }
        // Said once, in one line, however many turns of the wait found the session gone.
        #expect(screen.filter { $0.contains(note) } == ["note: " + note], "\(screen)")
        // Listening again: the next commit is heard with no loss in between.
        try await psql("INSERT INTO airlines VALUES ('DL', 'Delta Air Lines Inc.')")
        screen = try await repl.waitUntil("the observers after the next commit") { $0.contains("R 3 1") }
        #expect(screen.filter { $0.contains(note) }.count == 1, "\(screen)")
        // A watch: the same, its table redrawn with the row the re-read found.
        try await repl.type("watch(r)")
        try await repl.press("Enter")
        _ = try await repl.waitUntil("the watch's table") { $0.contains("(3 objects)") }
        try await psql(terminate)
        try await psql("INSERT INTO airlines VALUES ('UA', 'United Air Lines Inc.')")
        screen = try await repl.waitUntil("the watch redrawn after the loss") { $0.contains("(4 objects)") }
        #expect(screen.filter { $0.contains(note) }.count == 2, "\(screen)")
        #expect(screen.contains { $0.contains("UA") && $0.contains("United Air Lines Inc.") }, "\(screen)")
        try await repl.press("C-c")
        try await repl.waitForPrompt()
        #expect(try await repl.enter("count('airlines')") == ["4"])
    }

    /// A loss found at a statement is said as one found while waiting is: one line on
    /// standard error for each loss, whatever statement meets it (a count, a fetch, `sql()`,
    /// `refresh()`, a save), before the statement runs on the new connection.
    @Test func everyReconnectSaysTheLossOnce() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "loststatements", in: sandbox,
            schema: """
                CREATE TABLE airlines (carrier text PRIMARY KEY, name text);
                INSERT INTO airlines VALUES ('AA', 'American Airlines Inc.'), ('B6', 'JetBlue Airways');

                """)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            -- The session's own backend ended, as by pg_terminate_backend from psql: the
            -- statement that ends it fails, the next one finds the session lost.
            local function lose() return (pcall(sql, "SELECT pg_terminate_backend(pg_backend_pid())")) end
            print(count("airlines"), lose())
            print(count("airlines"), lose())
            print(#fetch{ "airlines" }, lose())
            print(sql("SELECT count(*) AS n FROM airlines")[1].n, lose())
            refresh()
            airlines:get("AA").name = "American"
            print(lose())
            save()
            print(sql("SELECT name FROM airlines WHERE carrier = 'AA'")[1].name)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["2\tfalse", "2\tfalse", "2\tfalse", "2\tfalse", "false", "American"], "\(result)")
        // Four losses met by a count, a fetch, sql() and refresh(), one by the save.
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("reconnecting") }
        #expect(notes == Array(repeating: "note: connection lost, reconnecting", count: 5), "\(result)")
    }
}

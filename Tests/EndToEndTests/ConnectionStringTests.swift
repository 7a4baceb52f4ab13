import Foundation
import QuarryTestSupport
import Testing

/// Issue 61, item 2: no secret in a file name. A libpq keyword/value connection string
/// (`host=… dbname=… password=…`, as psql takes it) opens the server as the URL does and
/// makes no file; no password reaches a file's name, a message, the history or the
/// REPL's banner, whatever shape the location has (a mistyped scheme, a password with a
/// space, a file name that holds `password=`).
@Suite struct ConnectionStringTests {
    /// `url` (`postgres://quarry@HOST:PORT/DB`) written as a keyword/value string.
    static func keywordValue(_ url: String) throws -> String {
        guard let parts = URLComponents(string: url), let host = parts.host, let port = parts.port, let user = parts.user else {
            throw HarnessError("not a server URL: \(url)")
        }
        return "host=\(host) port=\(port) user=\(user) dbname=\(parts.path.dropFirst())"
    }

    @Test func aConnectionStringOpensTheServerAndMakesNoFile() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "kvopen", in: sandbox,
            schema: """
                CREATE TABLE item (id serial PRIMARY KEY, n text);
                INSERT INTO item (n) VALUES ('a'), ('b');
                CREATE SCHEMA other;
                CREATE TABLE other.thing (id serial PRIMARY KEY, n text);
                INSERT INTO other.thing (n) VALUES ('x');

                """)
        try FileManager.default.removeItem(atPath: sandbox.path("kvopen.sql"))
        let address = try Self.keywordValue(url)
        let result = try await sandbox.quarry([address + " password=SECRET", "-e", #"print(count("item")); item:new{ n = "c" }; save()"#])
        #expect(result.status == 0 && result.lines == ["2"], "\(result)")
        #expect(try sandbox.listing() == [], "no file was made")
        // Written on the server: another run, through the URL, counts it.
        let again = try await sandbox.quarry([url, "-e", #"print(count("item"))"#])
        #expect(again.lines == ["3"], "\(again)")
        // Quarry's schema= and a quoted value with a space (the password, ignored by the
        // test server's trust) as libpq reads them.
        let schema = try await sandbox.quarry([address + " schema=other password='SEC RET'", "-e", #"print(fetch("thing")[1].n)"#])
        #expect(schema.status == 0 && schema.lines == ["x"], "\(schema)")
        for run in [result, again, schema] {
            #expect(!run.stdout.contains("SEC") && !run.stderr.contains("SEC"), "\(run)")
        }
        #expect(try sandbox.listing() == [], "no file was made")
    }

    /// Locations that cannot open say why in one line, without the password, and make no
    /// file: a server that is not there, malformed strings, a mistyped scheme (with and
    /// without its slashes), a name that holds a password.
    @Test(arguments: [
        "host=127.0.0.1 port=1 user=quarry dbname=quarry password=SECRET",
        "host=127.0.0.1 port=1 password='SEC RET'",
        "host=127.0.0.1 port=1 password=SEC RET",
        "host=127.0.0.1 port=1 password=SECRET pasword=SECRET",
        "host=127.0.0.1 port=1 notify=x password=SECRET",
        "password='SECRET",
        "postgress://u:SECRET@127.0.0.1:1/db",
        "postgress:u:SECRET@127.0.0.1",
        "mysql://u@h/db?password=SECRET",
        "mydb password=SECRET",
        "mydb.db sslpassword='SEC RET'"
    ])
    func nothingOpenedShowsThePasswordOrMakesAFile(_ location: String) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([location, "-e", "print(1)"])
        #expect(result.status == 1 && result.errorLines.count == 1 && result.stdout.isEmpty, "\(result)")
        #expect(!result.stderr.contains("SEC") && !result.stderr.contains("RET"), "\(result)")
        #expect(try sandbox.listing() == [], "no file was made")
    }

    /// A file whose name merely looks like a location still opens: one that exists, and a
    /// new one whose name starts with no keyword.
    @Test func filesWithAnEqualsSignStillOpen() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry(["a=b.db", "-e", #"entity "T" { n = "int" }; T:new{ n = 1 }; save()"#])
        #expect(made.status == 0, "\(made)")
        #expect(try sandbox.listing() == ["a=b.db"])
        // `./host=…` is a file's path, not a connection string.
        let dotted = try await sandbox.quarry(["./host=x.db", "-e", #"entity "T" { n = "int" }; print(1)"#])
        #expect(dotted.status == 0 && dotted.lines == ["1"], "\(dotted)")
        #expect(try sandbox.listing() == ["a=b.db", "host=x.db"])
    }

    /// With a server that asks for passwords: the password of a connection string (quoted,
    /// with a space) and PGPASSWORD (for a string and for a URL with none) both reach
    /// libpq, and a wrong one is refused without being repeated.
    @Test func passwordsReachTheServerAndNoMessage() async throws {
        let sandbox = try Sandbox()
        let server = try await PostgresOwnServer.start("password")
        // The server's own user keeps trust; `pw` must give its password.
        try await PostgresStoreTests.load(
            """
            CREATE ROLE pw LOGIN PASSWORD 'SEC RET';
            CREATE TABLE item (id serial PRIMARY KEY, n text);
            GRANT ALL ON item TO pw;
            INSERT INTO item (n) VALUES ('a');
            CREATE TEMPORARY TABLE hba (line text);
            INSERT INTO hba VALUES ('local all all trust'), ('host all quarry 127.0.0.1/32 trust'),
              ('host all pw 127.0.0.1/32 scram-sha-256');
            DO $$ BEGIN EXECUTE format('COPY hba TO %L', current_setting('hba_file')); END $$;
            SELECT pg_reload_conf();

            """, into: server.url, in: sandbox)
        let base = try Self.keywordValue(server.url).replacingOccurrences(of: "user=quarry", with: "user=pw")
        let count = ["-e", #"print(count("item"), sql("SELECT current_user AS u")[1].u)"#]
        let given = try await sandbox.quarry([base + " password='SEC RET'"] + count)
        #expect(given.status == 0 && given.lines == ["1\tpw"], "\(given)")
        let fromEnvironment = try await sandbox.quarry([base] + count, environment: ["PGPASSWORD": "SEC RET"])
        #expect(fromEnvironment.status == 0 && fromEnvironment.lines == ["1\tpw"], "\(fromEnvironment)")
        let urlFromEnvironment = try await sandbox.quarry(
            [server.url.replacingOccurrences(of: "quarry@", with: "pw@")] + count,
            environment: ["PGPASSWORD": "SEC RET"])
        #expect(urlFromEnvironment.status == 0 && urlFromEnvironment.lines == ["1\tpw"], "\(urlFromEnvironment)")
        // Without it, the server refuses; a wrong one is not repeated.
        let none = try await sandbox.quarry([base] + count, environment: ["PGPASSWORD": ""])
        #expect(none.status == 1 && none.errorLines.count == 1, "\(none)")
        let wrong = try await sandbox.quarry([base + " password=WRONGSECRET"] + count)
        #expect(wrong.status == 1 && wrong.errorLines.count == 1 && wrong.stderr.contains("password authentication failed"), "\(wrong)")
        #expect(!wrong.stderr.contains("WRONG"), "\(wrong)")
        for run in [given, fromEnvironment, urlFromEnvironment, none] {
            #expect(!run.stdout.contains("SEC") && !run.stderr.contains("SEC"), "\(run)")
        }
        #expect(try sandbox.listing() == ["schema.sql"])
    }

    /// At the REPL: the banner names the server without the password; `.open` takes a
    /// connection string typed without quotes around it; a mistyped `.open` says so in
    /// one line without the password; the history file keeps no password; no file is made.
    @Test func theREPLShowsNoPassword() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "kvrepl", in: sandbox,
            schema: """
                CREATE TABLE item (id serial PRIMARY KEY, n text);
                INSERT INTO item (n) VALUES ('a'), ('b');

                """)
        try FileManager.default.removeItem(atPath: sandbox.path("kvrepl.sql"))
        let address = try Self.keywordValue(url)
        let state = sandbox.path("state")
        let repl = try await TmuxSession(sandbox, arguments: [address + " password=SECRET"], environment: ["XDG_STATE_HOME": state])
        let banner = try await repl.waitForPrompt()
        // Rows joined without white space: a long banner wraps at the pane's width.
        func squeezed(_ text: String) -> String { text.filter { !$0.isWhitespace } }
        #expect(squeezed(banner.joined()).contains(squeezed("Lua 5.4 over PostgreSQL at \(address).")), "\(banner)")
        #expect(try await repl.enter(#"count("item")"#) == ["2"])
        #expect(try await repl.enter(".open :memory:").allSatisfy { $0.hasPrefix("opened ") && !$0.contains("SEC") })
        #expect(try await repl.enter(".open \(address) password='SEC RET'").allSatisfy { $0.hasPrefix("opened ") && !$0.contains("SEC") })
        #expect(try await repl.enter(#"count("item")"#) == ["2"])
        let mistyped = try await repl.enter(".open postgress://quarry:SECRET@127.0.0.1:1/db")
        #expect(squeezed(mistyped.joined()).contains("noschemeQuarryopens"), "\(mistyped)")
        let named = try await repl.enter(#".open "mydb password=SECRET""#)
        #expect(squeezed(named.joined()).contains("holdsapassword"), "\(named)")
        #expect(try await repl.enter(#"s = "host=h password=SECRET""#) == [])
        let screen = try await repl.screen()
        try await repl.press("C-d")
        _ = try await repl.waitForExit()
        // The screen holds the password only where it was typed: on the lines entered.
        #expect(screen.filter { $0.contains("SEC") }.allSatisfy { $0.hasPrefix("> ") }, "\(screen)")
        let history = try String(contentsOfFile: state + "/quarry/history", encoding: .utf8)
        #expect(!history.contains("SEC") && !history.contains("RET"), "\(history)")
        #expect(history.contains("password=***") && history.contains("password='***'"), "\(history)")
        #expect(try sandbox.listing() == ["state"], "no file was made")
    }
}

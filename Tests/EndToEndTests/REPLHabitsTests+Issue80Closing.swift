import Foundation
import Testing

/// The closing newcomer moments of issue 80, typed as a person types (each test says
/// which one it is about).
@Suite struct REPLIssue80ClosingTests {
    private func sqlite3(_ sandbox: Sandbox, _ file: String, _ sql: String) async throws -> String {
        let result = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(file), sql])
        try #require(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// `o:isDeleted()` is true while the delete is pending and false once `save()` wrote
    /// it, as Core Data's `isDeleted`; the object still prints as deleted; a rolled-back
    /// delete is no longer pending either.
    @Test func isDeletedTurnsFalseOnceTheDeleteIsSaved() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(sandbox, "a.db", "CREATE TABLE a (id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO a VALUES (1, 1), (2, 2)")
        let repl = try await TmuxSession(sandbox, arguments: ["a.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter("o = a:get(1); p = a:get(2)")
        _ = try await repl.enter("o:delete(); p:delete()")
        #expect(try await repl.enter("=o:isDeleted() and p:isDeleted()") == ["true"])
        _ = try await repl.enter("rollback()")
        #expect(try await repl.enter("=p:isDeleted()") == ["false"])
        _ = try await repl.enter("o:delete()")
        _ = try await repl.enter("save()")
        #expect(try await repl.enter("=o:isDeleted()") == ["false"])
        let shown = try await repl.enter("print(o)").joined()
        #expect(shown.hasPrefix("a/1 (deleted)"), "\(shown)")
        #expect(try await sqlite3(sandbox, "a.db", "SELECT group_concat(id) FROM a") == "2")
    }

    /// A file made for MySQL (Sakila's views call MySQL's functions): a batch run says the
    /// views left out in one line, counting and naming them and pointing at `.notes`, which
    /// lists each with SQLite's reason; the REPL's open says the same line; a view that
    /// reads stays an entity, and one view left out alone keeps its own note.
    @Test func viewsLeftOutAtOpenAreOneLineThatNotesUnfolds() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "m.db",
            """
            CREATE TABLE film (id INTEGER PRIMARY KEY, title TEXT, price REAL);
            INSERT INTO film (title, price) VALUES ('Alien', 2.99), ('Brazil', 4.99);
            CREATE VIEW film_list AS SELECT id, group_concat_ws(title) AS titles FROM film;
            CREATE VIEW sales_by_store AS SELECT concat_mysql('$', price) AS total FROM film;
            CREATE VIEW staff_list AS SELECT if_mysql(id > 1, 'a', 'b') AS who FROM film;
            CREATE VIEW nicer_but_slower AS SELECT ifnull_mysql(title) AS t FROM film;
            CREATE VIEW cheap AS SELECT id, title FROM film WHERE price < 3;
            """)
        let run = try await sandbox.quarry(["m.db", "-e", "print(count('film'), count('cheap'))"])
        #expect(run.status == 0 && run.lines == ["2\t1"], "\(run)")
        #expect(
            run.errorLines == [
                "note: 4 views are left out (film_list, nicer_but_slower, sales_by_store, …), as they cannot be read here: .notes lists them and why"
            ], "\(run)")
        // `.notes` has each, with the function SQLite lacks.
        let notes = try await sandbox.quarry(["m.db", "-"], stdin: ".notes\n")
        for (view, function) in [
            ("film_list", "group_concat_ws"), ("sales_by_store", "concat_mysql"), ("staff_list", "if_mysql"), ("nicer_but_slower", "ifnull_mysql")
        ] {
            #expect(notes.lines.contains { $0.hasPrefix("\(view) is left out: ") && $0.contains("no such function: \(function)") }, "\(notes)")
        }
        // Typed at the REPL: the same one line before the prompt.
        let repl = try await TmuxSession(sandbox, arguments: ["m.db"], columns: 160)
        let screen = try await repl.waitForPrompt()
        #expect(screen.filter { $0.contains("left out") } == [run.errorLines[0]], "\(screen)")
        // One view alone is its own note, as before.
        _ = try await sqlite3(sandbox, "m.db", "DROP VIEW film_list; DROP VIEW sales_by_store; DROP VIEW staff_list")
        let alone = try await sandbox.quarry(["m.db", "-e", "print(count('cheap'))"])
        #expect(
            alone.errorLines == ["note: nicer_but_slower is left out: no such function: ifnull_mysql (sqlite3 cannot read it either)"], "\(alone)")
    }
}

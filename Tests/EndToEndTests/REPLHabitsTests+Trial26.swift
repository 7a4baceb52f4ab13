import Foundation
import Testing

/// Trial 26's moments, typed as a psql user types them: `BEGIN;` and `ROLLBACK;` printed
/// `nil` (a nil global) as if they had run, `rollback;` printed a function's address and
/// `START TRANSACTION` was a Lua syntax error; `n != 1` counted the rows whose `n` is nil
/// as well (NSPredicate's `!=`) without a word, where psql's `<> 1` leaves them out.
@Suite struct REPLTrial26Tests {
    @Test func transactionStatementsAreAnsweredWithTheWayHere() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(sandbox, "t.db", "CREATE TABLE item (id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO item (n) VALUES (1);")
        let repl = try await TmuxSession(sandbox, arguments: ["t.db"], columns: 260)
        try await repl.waitForPrompt()
        let begin = try await repl.enter("BEGIN")
        #expect(begin.count == 1 && begin[0].contains("psql's BEGIN") && begin[0].contains("save()"), "\(begin)")
        let start = try await repl.enter("start transaction")
        #expect(start.count == 1 && start[0].contains("psql's START TRANSACTION"), "\(start)")
        let back = try await repl.enter("rollback")
        #expect(back.count == 1 && back[0].contains("psql's ROLLBACK") && back[0].contains("rollback()"), "\(back)")
        let commit = try await repl.enter("COMMIT")
        #expect(commit.count == 1 && commit[0].contains("save() commits"), "\(commit)")
        // A global a person set is theirs: the word shows what it holds.
        _ = try await repl.enter("begin = 5")
        #expect(try await repl.enter("begin") == ["5"])
        // Quarry's rollback() still runs as itself.
        _ = try await repl.enter("item:new{ n = 2 }")
        let dropped = try await repl.enter("rollback()")
        #expect(dropped.first?.contains("rolled back 1 pending change") == true, "\(dropped)")
    }

    @Test func notEqualSaysOnceThatItMatchesNils() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "n.db",
            "CREATE TABLE item (id INTEGER PRIMARY KEY, n INTEGER, m INTEGER); INSERT INTO item (n, m) VALUES (1, 1), (NULL, 2), (3, 3);"
        )
        let repl = try await TmuxSession(sandbox, arguments: ["n.db"], columns: 260)
        try await repl.waitForPrompt()
        // No nil in m: nothing to say.
        #expect(try await repl.enter(#"=count("item", "m != 1")"#) == ["2"])
        let note =
            "note: != on n also matches the 1 object of item whose n is nil (NSPredicate), unlike SQL's <>, which leaves them out; add AND n != nil for SQL's count"
        #expect(try await repl.enter(#"=count("item", "n != 1")"#) == [note, "2"])
        // (`!= nil` says its own note, once.)
        #expect(try await repl.enter(#"=count("item", "n != 1 AND n != nil")"#).last == "1")
        #expect(try await repl.enter(#"=count("item", "n != 3")"#) == ["2"])
        // A script counts the same and says nothing.
        let script = try await sandbox.quarry(["n.db", "-e", #"print(count("item", "n != 1"))"#])
        #expect(script.status == 0 && script.stdout == "2\n" && !script.stderr.contains("note"), "\(script)")
    }

    /// A watch of dictionary rows (`properties = ...`) or `sql()` rows says, as a watch of
    /// objects does, that psql's commits reach it only at `refresh()` on a schema without
    /// Quarry's triggers: it said nothing, and the table stayed as it was while psql wrote.
    @Test func watchOfRowsSaysPsqlsCommitsAreNotHeard() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "trial26watch", in: sandbox, schema: "CREATE TABLE t (id serial PRIMARY KEY, n int); INSERT INTO t (n) VALUES (1);\n")
        let repl = try await TmuxSession(sandbox, arguments: [url], columns: 260)
        try await repl.waitForPrompt()
        try await repl.type(#"watch(fetch{ "t", properties = { "id", "n" } })"#)
        try await repl.press("Enter")
        let screen = try await repl.waitUntil("the table") { $0.contains("(1 row)") }
        #expect(
            screen.contains { $0.contains("note: other programs' commits to the schema (psql's, an app's) reach observers and watch at refresh()") },
            "\(screen)")
        try await repl.press("q")
        try await repl.waitForPrompt()
    }

    /// psql's `SHOW timezone` read the setting nowhere (it was answered as MySQL's `SHOW
    /// TABLES`), and `SET TIME ZONE 'UTC';` was a Lua syntax error near 'TIME'.
    @Test func showReadsASettingAndSetIsAnswered() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("trial26show", in: sandbox, schema: "CREATE TABLE t (id serial PRIMARY KEY);\n")
        let repl = try await TmuxSession(sandbox, arguments: [url], columns: 260)
        try await repl.waitForPrompt()
        let zone = try await repl.enter("SHOW timezone")
        #expect(zone.first == "TimeZone" && zone.last == "(1 row)", "\(zone)")
        let tables = try await repl.enter("SHOW TABLES")
        #expect(tables.count == 1 && tables[0].contains(".tables lists the tables"), "\(tables)")
        let set = try await repl.enter("SET TIME ZONE 'America/New_York'")
        #expect(set.count == 1 && set[0].contains("options=-c name=value") && !set[0].contains("syntax error"), "\(set)")
        // A SQLite file has no settings to show: the way here is said.
        let elsewhere = try Sandbox()
        _ = try await sqlite3(elsewhere, "s.db", "CREATE TABLE item (id INTEGER PRIMARY KEY);")
        let file = try await TmuxSession(elsewhere, arguments: ["s.db"], columns: 260)
        try await file.waitForPrompt()
        let show = try await file.enter("SHOW timezone")
        #expect(show.count == 1 && show[0].contains(".show lists the settings"), "\(show)")
    }

    /// `quarry db "SELECT …"` into a pipe wrote the first and last 10 rows of 36,684 and a
    /// `…` row, where sqlite3 (and psql) write every row: a script reading the output got
    /// 20 names. Every row goes to a pipe, as sqlite3 writes them.
    @Test func aStatementOnTheCommandLineWritesEveryRowToAPipe() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "rows.db",
            "CREATE TABLE item (id INTEGER PRIMARY KEY, n INTEGER); WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 50) INSERT INTO item (n) SELECT i FROM k;"
        )
        let result = try await sandbox.quarry(["rows.db", "SELECT n FROM item ORDER BY n"])
        let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(result.status == 0 && !lines.contains("…"), "\(result)")
        #expect(lines.filter { Int($0) != nil } == (1...50).map(String.init), "\(result)")
        #expect(lines.last == "(50 rows)", "\(result)")
    }
}

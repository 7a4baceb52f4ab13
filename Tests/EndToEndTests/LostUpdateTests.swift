import Foundation
import QuarryTestSupport
import Testing

/// No lost update between prompts (issue 61 item 0): a pending change to a value another
/// program committed since the object was read is a conflict at `save()`, whether that
/// commit was noticed at the prompt, at `refresh()` or at the save; `save{ merge = ... }`
/// settles it, and another program's change to other attributes of the row merges
/// silently. On a SQLite file (the other program the sqlite3 shell) and on PostgreSQL
/// (psql), through the REPL and through a script.
@Suite struct LostUpdateTests {
    private static let schema = """
        CREATE TABLE genre (id integer PRIMARY KEY, name text, note text);
        INSERT INTO genre VALUES (1, 'Rock', 'loud'), (2, 'Jazz', 'cool');

        """

    /// The store (a file or a URL) holding `schema`, and how another program runs SQL on it.
    private func store(_ engine: String, in sandbox: Sandbox) async throws -> (location: String, other: [String]) {
        try sandbox.write("schema.sql", Self.schema)
        if engine == "postgres" {
            let url = try await PostgresServer.database("lostupdate")
            try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
            return (url, ["/usr/bin/psql", "-qAt", url, "-c"])
        }
        try await PostgresStoreTests.sqlite3(sandbox, "genre.db", file: "schema.sql")
        return ("genre.db", [try PostgresStoreTests.sqlite3Shell(), "genre.db"])
    }

    /// Runs `script.lua` on a SQLite file and on PostgreSQL (the other program's command
    /// line in `arg`); each must exit 0 and print `count` lines, which `check` then reads,
    /// and both must print the same.
    private func runOnBothEngines(
        _ sandbox: Sandbox, lines count: Int, check: (_ engine: String, _ lines: [String], _ other: [String]) async throws -> Void
    ) async throws {
        var outputs: [[String]] = []
        for engine in ["sqlite", "postgres"] {
            let (location, other) = try await store(engine, in: sandbox)
            let result = try await sandbox.quarry([location, "script.lua"] + other)
            #expect(result.status == 0, "\(engine): \(result)")
            outputs.append(result.lines)
            #expect(result.lines.count == count, "\(engine): \(result)")
            guard result.lines.count == count else { continue }
            try await check(engine, result.lines, other)
        }
        #expect(outputs.count == 2 && outputs[0] == outputs[1], "SQLite and PostgreSQL differ: \(outputs)")
    }

    /// Runs `sql` as the other program: its output, which must say nothing on stderr.
    @discardableResult
    private func outside(_ other: [String], _ sql: String, in sandbox: Sandbox) async throws -> String {
        let result = try await sandbox.run(URL(fileURLWithPath: other[0]), Array(other.dropFirst()) + [sql])
        guard result.status == 0, result.stderr.isEmpty else { throw HarnessError("\(other[0]) \(sql) failed: \(result)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// At the REPL, the other program's commit heard at the prompt (an entity observer
    /// prints it) before `save()` is entered. PostgreSQL is opened with `notify=triggers`,
    /// so that psql's commits are heard at the prompt as the sqlite3 shell's are.
    @Test(arguments: ["sqlite", "postgres"])
    func theREPLRefusesToWriteOverACommitHeardAtThePrompt(_ engine: String) async throws {
        let sandbox = try Sandbox()
        let (location, other) = try await store(engine, in: sandbox)
        let repl = try await TmuxSession(sandbox, arguments: [engine == "postgres" ? location + "?notify=triggers" : location])
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"observe("genre", function(ch) print("heard " .. #ch.updated) end)"#)
        func heard(_ screen: [String]) -> Int { screen.filter { $0.hasPrefix("heard ") }.count }
        /// The other program commits `sql`; returns once the REPL heard it at its prompt.
        func theirCommit(_ sql: String) async throws {
            let before = heard(try await repl.screen())
            try await outside(other, sql, in: sandbox)
            try await repl.waitUntil("the REPL to hear \(sql)") { heard($0) > before && $0.last == ">" }
        }

        _ = try await repl.enter(#"h = genre:get(1); h.name = "Mine""#)
        try await theirCommit("UPDATE genre SET name = 'Theirs' WHERE id = 1")
        let refused = try await repl.enter("save()")
        #expect(
            refused.contains { $0.contains("conflict") && $0.contains("another process changed genre/1 (name)") }, "\(engine): \(refused)")
        #expect(try await outside(other, "SELECT name FROM genre WHERE id = 1", in: sandbox) == "Theirs", "nothing was written")
        #expect(try await repl.enter(#"print(h.name .. " " .. tostring(haschanges()))"#) == ["Mine true"], "the change is kept")
        _ = try await repl.enter(#"save{ merge = "store" }"#)
        #expect(try await repl.enter(#"print(h.name .. " " .. tostring(haschanges()))"#) == ["Theirs false"])

        // Mine, when asked, over theirs.
        _ = try await repl.enter(#"h.name = "Mine2""#)
        try await theirCommit("UPDATE genre SET name = 'Theirs2' WHERE id = 1")
        let again = try await repl.enter("save()")
        #expect(again.contains { $0.contains("another process changed genre/1 (name)") }, "\(engine): \(again)")
        _ = try await repl.enter(#"save{ merge = "mine" }"#)
        #expect(try await outside(other, "SELECT name FROM genre WHERE id = 1", in: sandbox) == "Mine2")

        // Another attribute of the same row: merged, without a word.
        _ = try await repl.enter(#"h.note = "quiet""#)
        try await theirCommit("UPDATE genre SET name = 'Theirs3' WHERE id = 1")
        // The observer hears the save too.
        let merged = try await repl.enter(#"print(save().updated .. " " .. h.name)"#)
        #expect(merged.filter { !$0.hasPrefix("heard ") } == ["1 Theirs3"], "\(engine): \(merged)")
        #expect(try await outside(other, "SELECT name || '/' || note FROM genre WHERE id = 1", in: sandbox) == "Theirs3/quiet")
    }

    /// In a script, the other program's commit noticed at `refresh()`: observers hear its
    /// values for the keys with no pending change; the pending change is a conflict at the
    /// save, each merge settles it as documented, and a change to another attribute merges.
    /// The same lines on a file and on PostgreSQL.
    @Test func aScriptRefusesToWriteOverACommitNoticedAtRefresh() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "script.lua",
            #"""
            local other = table.concat(arg, " ", 1)
            local function outside(sql) assert(os.execute(other .. ' "' .. sql .. '"')) end
            local h = genre:get(1)
            observe(h, { "note" }, function(_, key, old, new) print("heard", key, old, new) end)
            h.name = "Mine"
            outside("UPDATE genre SET name = 'Theirs', note = 'theirs' WHERE id = 1")
            print(refresh(), h.name, h.note)
            print(pcall(save))
            print(h.name, haschanges())
            save{ merge = "store" }
            print(h.name, haschanges())
            h.name = "Mine2"
            outside("UPDATE genre SET name = 'Theirs2' WHERE id = 1")
            refresh()
            print(pcall(save))
            save{ merge = "mine" }
            print(h.name, haschanges())
            -- A change rolled back leaves nothing behind to conflict with the next.
            h.name = "Mine3"
            outside("UPDATE genre SET name = 'Theirs3' WHERE id = 1")
            refresh()
            rollback()
            h.name = "Mine4"
            print(save().updated, h.name)
            -- Another attribute of the same row merges.
            h.name = "Mine5"
            outside("UPDATE genre SET note = 'theirs5' WHERE id = 1")
            refresh()
            print(save().updated, h.name, h.note)
            """#)
        try await runOnBothEngines(sandbox, lines: 10) { engine, lines, other in
            #expect(lines[0] == "heard\tnote\tloud\ttheirs", "\(engine): \(lines[0])")
            #expect(lines[1] == "true\tMine\ttheirs", "\(engine): \(lines[1])")
            #expect(
                lines[2].hasPrefix("false\t") && lines[2].contains("conflict") && lines[2].contains("another process changed genre/1 (name)"),
                "\(engine): \(lines[2])")
            #expect(lines[3] == "Mine\ttrue", "\(engine): \(lines[3])")
            #expect(lines[4] == "Theirs\tfalse", "\(engine): \(lines[4])")
            #expect(lines[5].hasPrefix("false\t") && lines[5].contains("another process changed genre/1 (name)"), "\(engine): \(lines[5])")
            #expect(lines[6] == "Mine2\tfalse", "\(engine): \(lines[6])")
            #expect(lines[7] == "1\tMine4", "\(engine): \(lines[7])")
            #expect(lines[8] == "heard\tnote\ttheirs\ttheirs5", "\(engine): \(lines[8])")
            #expect(lines[9] == "1\tMine5\ttheirs5", "\(engine): \(lines[9])")
            let stored = try await outside(other, "SELECT name || '/' || note FROM genre WHERE id = 1", in: sandbox)
            #expect(stored == "Mine5/theirs5")
        }
    }

    /// A pending delete of a row the other program changed since (noticed at `refresh()`)
    /// is a conflict too: nothing is deleted; `store` keeps their row, and the object
    /// lives again with their values; `mine` deletes it anyway. The same lines on a file
    /// and on PostgreSQL.
    @Test func aScriptsDeleteOfARowChangedSinceIsAConflict() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "script.lua",
            #"""
            local other = table.concat(arg, " ", 1)
            local function outside(sql) assert(os.execute(other .. ' "' .. sql .. '"')) end
            local h = genre:get(1)
            h:delete()
            outside("UPDATE genre SET note = 'theirs' WHERE id = 1")
            refresh()
            print(pcall(save))
            print(haschanges(), #sql("SELECT id FROM genre"))
            save{ merge = "store" }
            print(h.name, h.note, haschanges(), #sql("SELECT id FROM genre"))
            local j = genre:get(2)
            j:delete()
            outside("UPDATE genre SET name = 'Theirs2' WHERE id = 2")
            refresh()
            print(save{ merge = "mine" }.deleted, haschanges(), #sql("SELECT id FROM genre"))
            """#)
        try await runOnBothEngines(sandbox, lines: 4) { engine, lines, other in
            #expect(
                lines[0].hasPrefix("false\t") && lines[0].contains("conflict") && lines[0].contains("another process changed genre/1 (note)"),
                "\(engine): \(lines[0])")
            #expect(lines[1] == "true\t2", "\(engine): \(lines[1])")
            #expect(lines[2] == "Rock\ttheirs\tfalse\t2", "\(engine): \(lines[2])")
            #expect(lines[3] == "1\tfalse\t1", "\(engine): \(lines[3])")
        }
    }
}

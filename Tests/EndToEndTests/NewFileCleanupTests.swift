import Foundation
import Testing

/// `quarry nonexist.db` makes the missing DB the contract promises, but a session that
/// never writes to it leaves no file (it left an empty 4096-byte database): sqlite3's shell
/// makes none until something is written. A session that defines an entity keeps it, a
/// WAL file as before.
@Suite struct NewFileCleanupTests {
    @Test func aBatchRunThatWritesNothingLeavesNoFile() async throws {
        let sandbox = try Sandbox()
        let printed = try await sandbox.quarry(["nonexist.db", "-e", "print(1)"])
        #expect(printed.status == 0 && printed.lines == ["1"] && printed.stderr.isEmpty, "\(printed)")
        #expect(try sandbox.listing() == [], "nothing made beside it either")
        // Reading the empty store (its entities, SQL) writes nothing either.
        let read = try await sandbox.quarry(["read.db", "-e", #"print(#entities(), sql("SELECT 1 AS x")[1].x)"#])
        #expect(read.status == 0 && read.lines == ["0\t1"] && read.stderr.isEmpty, "\(read)")
        #expect(try sandbox.listing() == [])
        // A name that is no database's is noted as a new store that is kept once written.
        let noted = try await sandbox.quarry(["flights", "-e", "print(1)"])
        let kept = "a new store, kept as a file once written to"
        #expect(noted.errorLines == ["note: flights did not exist: \(kept) (a typo? .open another file, or quarry NAME.db)"], "\(noted)")
        #expect(try sandbox.listing() == [])
    }

    @Test func aSessionThatDefinesAnEntityMakesTheFileAsBefore() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry(["made.db", "-e", #"entity "Stop" { name = "string" }; Stop:new{ name = "Main St" }; save()"#])
        #expect(made.status == 0 && made.stderr.isEmpty, "\(made)")
        #expect(try sandbox.listing() == ["made.db"])
        let mode = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path("made.db"), "PRAGMA journal_mode"])
        #expect(mode.lines == ["wal"], "Quarry's own file is WAL from its first entity: \(mode)")
        let again = try await sandbox.quarry(["made.db", "-e", #"print(count("Stop"), Stop:first().name)"#])
        #expect(again.lines == ["1\tMain St"], "\(again)")
        // An entity alone, nothing saved, is written too: the file stays.
        let defined = try await sandbox.quarry(["defined.db", "-e", #"entity "Trip" { code = "string" }"#])
        #expect(defined.status == 0 && sandbox.exists("defined.db"), "\(defined)")
        // An import into a new file defines its entity.
        try sandbox.write("stops.csv", "name\nMain St\n")
        let imported = try await sandbox.quarry(["imported.db", "-e", #"print(import("stops.csv", { entity = "Stop" }))"#])
        #expect(imported.status == 0 && imported.lines.last == "1" && sandbox.exists("imported.db"), "\(imported)")
    }

    @Test func theREPLQuitAtOnceOrSwitchedAwayByOpenLeavesNoFile() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox, arguments: ["nonexist.db"])
        try await repl.waitForPrompt()
        #expect(try await repl.enter(#"=#entities()"#) == ["0"])
        // `.open` of another missing name says what it opens, and the first file goes.
        let opened = try await repl.enter(".open other.db")
        let kept = "a new store, kept as a file once written to"
        #expect(opened == ["note: other.db did not exist: \(kept) (a typo? .open the file you meant)"], "\(opened)")
        #expect(!sandbox.exists("nonexist.db"), "switched away from, never written to")
        // The same name again is the store now open: its file stays while it is.
        #expect(try await repl.enter(".open other.db").allSatisfy { $0.hasPrefix("opened ") && !$0.contains("SEC") })
        #expect(sandbox.exists("other.db"), "the file of the store open now")
        try await repl.type(".quit")
        try await repl.press("Enter")
        #expect(try await repl.waitForExit() == 0)
        #expect(try sandbox.listing() == [])

        // Another sandbox (one tmux server each): an entity typed at the prompt keeps it.
        let second = try Sandbox()
        let keeping = try await TmuxSession(second, arguments: ["kept.db"])
        try await keeping.waitForPrompt()
        _ = try await keeping.enter(#"entity "Stop" { name = "string" }"#)
        try await keeping.type(".quit")
        try await keeping.press("Enter")
        #expect(try await keeping.waitForExit() == 0)
        #expect(try second.listing() == ["kept.db"])
    }
}

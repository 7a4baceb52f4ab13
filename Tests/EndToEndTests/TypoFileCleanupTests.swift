import Foundation
import Testing

/// `quarry pokemon.sqlit` beside pokemon.sqlite: the contract makes a missing DB, and the
/// note names the file meant; when the session ends (an `-e` chunk, a script, the REPL's
/// `.quit`, `os.exit()`, or `.open` switching away) with nothing written to the new file,
/// it is removed with what the run made beside it, and one line says so. A file written
/// to, or one that was there before, stays.
@Suite struct TypoFileCleanupTests {
    private func pokemon(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.run(
            HostileFileTests.sqlite3, [sandbox.path("pokemon.sqlite"), "CREATE TABLE pokemon (id INTEGER PRIMARY KEY, name TEXT)"])
        try #require(made.status == 0, "\(made)")
    }

    /// The sandbox's files other than the real one.
    private func leftBehind(_ sandbox: Sandbox) throws -> [String] {
        try sandbox.listing().filter { $0 != "pokemon.sqlite" && !$0.hasSuffix(".lua") }
    }

    @Test func aTypoNothingWasWrittenToIsRemovedAtTheEndOfABatchRun() async throws {
        let sandbox = try Sandbox()
        try await pokemon(sandbox)
        let chunk = try await sandbox.quarry(["pokemon.sqlit", "-e", "print(#entities())"])
        #expect(chunk.status == 0 && chunk.lines == ["0"], "\(chunk)")
        #expect(chunk.errorLines.count == 2, "\(chunk)")
        #expect(chunk.errorLines.first?.contains("(did you mean pokemon.sqlite?)") == true, "\(chunk)")
        #expect(
            chunk.errorLines.last
                == "note: pokemon.sqlit was made for a name that was not there and nothing was written to it: removed (did you mean pokemon.sqlite?)",
            "\(chunk)")
        #expect(try leftBehind(sandbox) == [])
        // A script, and os.exit() in one.
        try sandbox.write("t.lua", "print(1)\n")
        let script = try await sandbox.quarry(["pokemon.sqlit", "t.lua"])
        #expect(script.errorLines.last?.contains("removed") == true, "\(script)")
        #expect(try leftBehind(sandbox) == [])
        let exited = try await sandbox.quarry(["pokemon.sqlit", "-e", "os.exit(0)"])
        #expect(exited.status == 0 && exited.errorLines.last?.contains("removed") == true, "\(exited)")
        #expect(try leftBehind(sandbox) == [])
        // The real file is untouched throughout.
        let real = try await sandbox.quarry(["pokemon.sqlite", "-e", "print(#entities())"])
        #expect(real.lines == ["1"] && real.errorLines == [], "\(real)")
    }

    @Test func aTypoWrittenToOrThereBeforeStays() async throws {
        let sandbox = try Sandbox()
        try await pokemon(sandbox)
        let written = try await sandbox.quarry(["pokemon.sqlit", "-e", #"entity "Note" { text = "string" }"#])
        #expect(written.status == 0 && written.errorLines.count == 1, "\(written)")
        #expect(sandbox.exists("pokemon.sqlit"))
        // Now there before the run: never removed, and no note.
        let again = try await sandbox.quarry(["pokemon.sqlit", "-e", "print(#entities())"])
        #expect(again.lines == ["1"] && again.errorLines == [], "\(again)")
        #expect(sandbox.exists("pokemon.sqlit"))
        // A name with no file near it is made as the contract says, and kept once written
        // to (NewFileCleanupTests: one never written to goes without a word).
        let other = try await sandbox.quarry(["brandnew.db", "-e", #"entity "Note" { text = "string" }"#])
        #expect(other.status == 0 && other.stderr.isEmpty && sandbox.exists("brandnew.db"), "\(other)")
    }

    @Test func theREPLRemovesItAtQuitOrWhenOpenSwitchesAway() async throws {
        let sandbox = try Sandbox()
        try await pokemon(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["pokemon.sqlit"], columns: 200)
        _ = try await repl.waitForPrompt()
        #expect(sandbox.exists("pokemon.sqlit"))
        let switched = try await repl.enter(".open pokemon.sqlite")
        #expect(switched.contains { $0.contains("pokemon.sqlit was made for a name that was not there") && $0.contains("removed") }, "\(switched)")
        #expect(try leftBehind(sandbox) == [])
        #expect(try await repl.enter(#"=count("pokemon")"#) == ["0"])

        // Another sandbox: one tmux server each.
        let second = try Sandbox()
        try await pokemon(second)
        let quitting = try await TmuxSession(second, arguments: ["pokemon.sqlit"], columns: 200)
        _ = try await quitting.waitForPrompt()
        #expect(second.exists("pokemon.sqlit"))
        try await quitting.type(".quit")
        try await quitting.press("Enter")
        #expect(try await quitting.waitForExit() == 0)
        #expect(try leftBehind(second) == [])
    }

    /// `open("pokemon.sqlit")` in a script or chunk makes the file as the command line
    /// does, and it goes the same way at the end of the run when nothing was written to
    /// it (it stayed, an empty database, before); one written to stays.
    @Test func aTypoOpenedByOpenInAScriptIsRemovedAtTheEndToo() async throws {
        let sandbox = try Sandbox()
        try await pokemon(sandbox)
        try sandbox.write("t.lua", "local b = open(\"pokemon.sqlit\")\nprint(#entities(b))\n")
        let script = try await sandbox.quarry(["t.lua"])
        #expect(script.status == 0 && script.lines == ["0"], "\(script)")
        #expect(script.errorLines.first?.contains("(did you mean pokemon.sqlite?)") == true, "\(script)")
        #expect(
            script.errorLines.last
                == "note: pokemon.sqlit was made for a name that was not there and nothing was written to it: removed (did you mean pokemon.sqlite?)",
            "\(script)")
        #expect(try leftBehind(sandbox) == [])
        let written = try await sandbox.quarry(["-e", #"local b = open("pokemon.sqlit"); entity(b, "Note") { text = "string" }"#])
        #expect(written.status == 0 && !written.stderr.contains("removed"), "\(written)")
        #expect(sandbox.exists("pokemon.sqlit"))
    }
}

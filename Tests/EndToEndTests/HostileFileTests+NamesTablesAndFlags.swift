import Foundation
import Testing

/// The second hostile review's findings that need the real binary, real files or a
/// terminal: crashes on names and on Quarry's own tables changed by another program,
/// `--safe` escapes through the command line and dot-commands, and `--readonly` writing.
extension HostileFileTests {
    // MARK: Crashes

    @Test func aOneCharacterDatabaseName() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["x", "-e", #"entity "T" { n = "int64" }; print(1)"#])
        #expect(result.status == 0 && result.lines == ["1"], "\(result)")
        #expect(sandbox.exists("x"))
        let repl = try await TmuxSession(sandbox)
        try await repl.waitForPrompt()
        let opened = try await repl.enter(".open q") // a new file without a database's name: a note, no crash
        #expect(opened.count <= 1 && opened.allSatisfy { $0.hasPrefix("note: q did not exist") }, "\(opened)")
        #expect(try await repl.enter(#"entity "T" { n = "int64" }; T:new{ n = 1 }; save(); print(count("T"))"#) == ["1"])
        #expect(sandbox.exists("q"))
    }

    /// Quarry's model and history tables, changed by another program to hold values of
    /// other types: one line naming the table and column, the file unchanged.
    @Test(arguments: [
        ("UPDATE quarry_model SET name = NULL", "quarry_model.name"),
        ("UPDATE quarry_model SET definition = x'00ff'", "quarry_model.definition"),
        ("UPDATE quarry_history SET time = 'x'", "quarry_history.time"),
        ("UPDATE quarry_history SET inserted = x'ff00'", "quarry_history.inserted"),
        ("UPDATE quarry_history SET author = x'ff00'", "quarry_history.author"),
        ("UPDATE quarry_history SET time = x'00'", "quarry_history.time")
    ])
    func quarrysOwnTablesChangedByAnotherProgram(_ change: String, _ named: String) async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry(["store.db", "-e", #"entity "T" { n = "int64" }; T:new{ n = 1 }; save()"#])
        try #require(made.status == 0, "\(made)")
        let changed = try await sandbox.run(Self.sqlite3, [sandbox.path("store.db"), change])
        try #require(changed.status == 0, "\(changed)")
        let before = try bytes(sandbox, "store.db")
        let result = try await sandbox.quarry(["store.db", "-e", "print(count('T')); print(#history{})"])
        #expect(result.status == 1, "\(result)")
        #expect(result.errorLines.count == 1, "not one line: \(result)")
        #expect(result.stderr.contains(named), "\(result)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("crashed"), "\(result)")
        #expect(try bytes(sandbox, "store.db") == before, "the file changed")
    }

    // MARK: --safe

    /// A compiled chunk given as the script, or to .read, does not run under --safe (a
    /// crafted one can read and write any memory); it does run without --safe, as in lua.
    @Test func aBinaryScriptDoesNotRunUnderSafe() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "-e", #"local f = assert(io.open("chunk.lua", "wb")); f:write(string.dump(load("print('ran')"))); f:close()"#
        ])
        try #require(made.status == 0, "\(made)")
        let safe = try await sandbox.quarry(["--safe", ":memory:", "chunk.lua"])
        expectOneLine(safe, ["chunk.lua", "--safe"])
        #expect(safe.lines.isEmpty, "\(safe)")
        let plain = try await sandbox.quarry([":memory:", "chunk.lua"])
        #expect(plain.status == 0 && plain.lines == ["ran"], "\(plain)")

        let repl = try await TmuxSession(sandbox, arguments: ["--safe"])
        try await repl.waitForPrompt()
        let read = try await repl.enter(".read chunk.lua")
        #expect(read.count == 1 && read[0].contains("--safe") && !read.contains("ran"), "\(read)")
    }

    /// Under --safe the REPL's dot-commands create and write no files either.
    @Test func dotCommandsWriteNoFilesUnderSafe() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox, arguments: ["--safe"])
        try await repl.waitForPrompt()
        let opened = try await repl.enter(".open new.db")
        #expect(opened.count == 1 && opened[0].contains("--safe"), "\(opened)")
        let once = try await repl.enter(".once out.txt")
        #expect(once.count == 1 && once[0].contains("--safe"), "\(once)")
        #expect(try await repl.enter("1 + 1") == ["2"])
        let tmp = try await repl.enter("io.tmpfile()")
        #expect(tmp.count == 1 && tmp[0].contains("--safe: io.tmpfile is not allowed"), "\(tmp)")
        let files = try sandbox.listing()
        #expect(files.isEmpty, "files were written: \(files)")
    }

    // MARK: --readonly

    /// --readonly holds for a store opened later with .open, and leaves no -wal or -shm.
    @Test func readonlyHoldsForOpenAndLeavesNoFilesBehind() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry(["store.db", "-e", #"entity "T" { n = "int64" }; T:new{ n = 1 }; save()"#])
        try #require(made.status == 0, "\(made)")
        #expect(try sandbox.listing().filter { $0.hasPrefix("store.db") } == ["store.db"])
        let before = try bytes(sandbox, "store.db")

        let read = try await sandbox.quarry(["--readonly", "store.db", "-e", "print(count('T'))"])
        #expect(read.status == 0 && read.lines == ["1"], "\(read)")
        let afterRead = try sandbox.listing()
        #expect(afterRead == ["store.db"], "a read-only run left files: \(afterRead)")

        let repl = try await TmuxSession(sandbox, arguments: ["--readonly", "store.db"])
        try await repl.waitForPrompt()
        #expect(try await repl.enter(".open store.db").allSatisfy { $0.hasPrefix("opened ") && !$0.contains("SEC") })
        let saved = try await repl.enter("T:new{ n = 2 }; save()")
        #expect(saved.count == 1 && saved[0].contains("read-only"), "\(saved)")
        #expect(try await repl.enter("print(count('T'))") == ["2"]) // the pending insert counts
        // The first .quit says the pending insert would be lost; the second quits.
        #expect(try await repl.enter(".quit").contains { $0.contains("would be lost") })
        try await repl.type(".quit")
        try await repl.press("Enter")
        _ = try await repl.waitForExit()
        #expect(try bytes(sandbox, "store.db") == before, "the store changed")
        let afterREPL = try sandbox.listing()
        #expect(afterREPL == ["store.db"], "the REPL left files: \(afterREPL)")
    }

    // MARK: One line

    @Test func aTimeoutInsideAnObserverIsOneLine() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([
            "--timeout", "1", "-e",
            #"entity "T" { n = "int64" }; local r = fetch("T"); observe(r, function() while true do end end); T:new{ n = 1 }; save()"#
        ])
        expectOneLine(result, ["timeout: the script ran past its time limit"])
        #expect(result.errorLines.first?.hasPrefix("(command line):1: ") == true, "\(result)")
    }
}

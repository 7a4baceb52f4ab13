import Foundation
import Testing

/// Issue 80's last points, typed as a person types: keys named as the predicate grammar's
/// words (`first`, `last`, `size`), Tab inserting the form each string reads, `.open`
/// completing paths without sidecars or files of text, and format() under --readonly saying it lasts the
/// session.
@Suite struct REPLIssue80NamesTests {
    /// A file another program made, with columns named as reserved words.
    private func documents(_ sandbox: Sandbox, _ name: String = "d.db") async throws {
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path(name),
                """
                CREATE TABLE Doc (id INTEGER PRIMARY KEY, first TEXT, last TEXT, size INTEGER, stamp INTEGER);
                INSERT INTO Doc VALUES (1, 'bob', 'zed', 3145728, 1700000000), (2, 'ann', 'yu', 1048576, 1700000100),
                  (3, 'eve', 'xi', 5242880, 1700000200)
                """
            ])
        try #require(made.status == 0, "\(made)")
    }

    @Test func tabInsertsAReservedWordKeyAsEachStringReadsIt() async throws {
        let sandbox = try Sandbox()
        try await documents(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["d.db"])
        try await repl.waitForPrompt()

        // In a predicate `size` is the grammar's word: Tab writes the key as #size.
        try await repl.type(#"=count("Doc", "si"#)
        try await repl.press("Tab")
        var line = try await repl.waitUntil("#size inserted") { $0.last == ##"> =count("Doc", "#size"## }
        try await repl.type(#" > 2097152")"#)
        try await repl.press("Enter")
        var answer = try await repl.waitForPrompt(">", after: line.count)
        #expect(answer[answer.count - 2] == "2", "\(answer.suffix(3))")

        // In a sort key the bare word is read as the key, and `-#first` too.
        try await repl.type(#"=fetch{ "Doc", sort = "-fi"#)
        try await repl.press("Tab")
        line = try await repl.waitUntil("first inserted") { $0.last == #"> =fetch{ "Doc", sort = "-first"# }
        try await repl.type(#"", limit = 1 }[1].first"#)
        try await repl.press("Enter")
        answer = try await repl.waitForPrompt(">", after: line.count)
        #expect(answer[answer.count - 2] == "eve", "\(answer.suffix(3))")
        #expect(try await repl.enter(##"=fetch{ "Doc", sort = "-#first", limit = 1 }[1].first"##) == ["eve"])

        // In an aggregate, too: `sum(size / 1048576)` without the '#'.
        try await repl.type(#"=fetch{ "Doc", result = "dictionaries", properties = { "sum(si"#)
        try await repl.press("Tab")
        line = try await repl.waitUntil("size inserted") { $0.last?.hasSuffix(#"properties = { "sum(size"#) == true }
        try await repl.type(#" / 1048576) AS mb" } }[1].mb"#)
        try await repl.press("Enter")
        answer = try await repl.waitForPrompt(">", after: line.count)
        #expect(answer[answer.count - 2] == "9.0", "\(answer.suffix(3))")
        let grouped = try await repl.enter(##"=fetch{ "Doc", properties = { "first", "max(size)" }, group = { "first" }, sort = "-#first" }"##)
        #expect(grouped.first?.hasPrefix("first") == true && grouped.dropFirst(2).first?.hasPrefix("eve") == true, "\(grouped)")
    }

    @Test func openCompletesAPathWithoutTheSidecarBesideIt() async throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("data"), withIntermediateDirectories: true)
        try await documents(sandbox, "data/music.sqlite")
        // A declared format is kept in the sidecar data/music.sqlite.quarry.
        let kept = try await sandbox.quarry(["data/music.sqlite", "-e", #"format("Doc", "stamp", "unix")"#])
        try #require(kept.status == 0 && FileManager.default.fileExists(atPath: sandbox.path("data/music.sqlite.quarry")), "\(kept)")
        // Files of text beside it are no stores: `.open` does not offer them.
        _ = try sandbox.write("data/music.csv", "id\n1\n")
        _ = try sandbox.write("data/music.lua", "print(1)\n")
        let repl = try await TmuxSession(sandbox)
        try await repl.waitForPrompt()
        // Completed in data/, not in the current folder; a second Tab lists nothing more.
        try await repl.type(".open data/m")
        try await repl.press("Tab")
        _ = try await repl.waitUntil("the path completed") { $0.last == "> .open data/music.sqlite" }
        try await repl.press("Tab")
        try await repl.press("Tab")
        try await repl.type("x")
        let screen = try await repl.waitUntil("x typed") { $0.last == "> .open data/music.sqlitex" }
        #expect(!screen.contains { $0.contains("music.sqlite.quarry") }, "\(screen.suffix(4))")
        try await repl.press("BSpace")
        try await repl.press("Enter")
        _ = try await repl.waitForPrompt(">", after: screen.count)
        #expect(try await repl.enter(#"=count("Doc")"#) == ["3"])
    }

    @Test func formatUnderReadonlySaysItLastsTheSession() async throws {
        let sandbox = try Sandbox()
        try await documents(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["--readonly", "d.db"])
        try await repl.waitForPrompt()
        let declared = try await repl.enter(#"=format("Doc", "stamp", "unix")"#)
        #expect(declared.count == 2, "one line of note, then the format: \(declared)")
        #expect(declared.first?.contains("for this session only") == true && declared.first?.contains("--readonly") == true, "\(declared)")
        #expect(declared.last == "unix", "\(declared)")
        // It is in force for the session: the column reads as dates.
        let year = try await repl.enter(#"=fetch{ "Doc", sort = "id" }[1].stamp.year"#)
        #expect(year == ["2023"], "\(year)")
        // Said once for the column, and no sidecar written.
        #expect(try await repl.enter(#"=format("Doc", "stamp", "unix")"#) == ["unix"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("d.db.quarry")))
    }
}

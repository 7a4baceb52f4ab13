import Foundation
import QuarryTestSupport
import Testing

/// Every path that writes passes the checks that apply to it (issue 61 item 3; the table
/// is in docs/design.md, "Write paths"): each cell here runs the real binary and checks the
/// refusal is one line naming the path, and that no file in the folder changed or appeared.
@Suite struct WritePathTests {
    /// A Quarry file with `Item/1` (title "a") and a foreign file with a view and a
    /// generated column, plus a CSV of items.
    private func folder() async throws -> Sandbox {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "store.db", "-e", #"entity "Item" { title = "string" }; Item:new{ title = "a" }; save()"#
        ])
        try #require(made.status == 0, "\(made)")
        let foreign = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("other.db"),
                "CREATE TABLE t (id INTEGER PRIMARY KEY, a INT, g INT GENERATED ALWAYS AS (a * 2)); "
                    + "CREATE TABLE u (id INTEGER PRIMARY KEY, t_id INT, at INT); CREATE VIEW v AS SELECT id, a FROM t; "
                    + "INSERT INTO t (a) VALUES (1); INSERT INTO u (t_id, at) VALUES (1, 1700000000);"
            ])
        try #require(foreign.status == 0, "\(foreign)")
        _ = try sandbox.write("items.csv", "title\nb\n")
        _ = try sandbox.write("a.csv", "a\n5\n")
        _ = try sandbox.write("ag.csv", "a,g\n5,3\n")
        return sandbox
    }

    /// Every file of the folder and its bytes.
    private func files(_ sandbox: Sandbox) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try sandbox.listing() { files[name] = FileManager.default.contents(atPath: sandbox.path(name)) }
        return files
    }

    static let readOnlyCases: [(code: String, refusal: String)] = [
        ("Item:get(1).title = 'x'; save()", "save: the store is read-only"),
        ("Item:updateall('title == %@', {'a'}, { title = 'b' })", "updateall: the store is read-only"),
        ("Item:deleteall('title == %@', {'a'})", "deleteall: the store is read-only"),
        ("import('items.csv', { entity = 'Item' })", "import: the store is read-only"),
        ("import('items.csv', { entity = 'New' })", "import: the store is read-only"),
        (#"entity "Other" { x = "int" }"#, "entity Other: the store is read-only"),
        (#"entity "Item" { title = "string", n = "int?" }"#, "entity Item: the store is read-only"),
        ("history.prune(historytoken())", "history.prune: the store is read-only")
    ]

    @Test(arguments: readOnlyCases)
    func readonlyRefusesEveryWriteAndChangesNoFile(_ code: String, _ refusal: String) async throws {
        let sandbox = try await folder()
        let before = try files(sandbox)
        let result = try await sandbox.quarry(["--readonly", "store.db", "-e", code])
        #expect(result.status == 1 && result.errorLines == ["(command line):1: " + refusal], "\(result)")
        #expect(try files(sandbox) == before)
    }

    @Test func modelIsRefusedUnderReadonly() async throws {
        let sandbox = try await folder()
        let model = try SharedData.path("coredata/cars/SampleModel.xcdatamodeld")
        let before = try files(sandbox)
        let result = try await sandbox.quarry(["--readonly", "store.db", "-e", "model('\(model)')"])
        #expect(result.status == 1 && result.errorLines.count == 1 && result.stderr.contains("the store is read-only"), "\(result)")
        #expect(try files(sandbox) == before)
    }

    /// `relate()` and `format()` on another program's file keep their declarations in a
    /// sidecar; under --readonly or --safe they last the session and no file is written.
    @Test(arguments: [["--readonly"], ["--safe"], []])
    func declarationsWriteASidecarOnlyWhenWritesAreAllowed(_ flags: [String]) async throws {
        let sandbox = try await folder()
        let before = try files(sandbox)
        let code = #"relate("u", "t_id", "t", "id"); format("u", "at", "unix"); print(u:get(1).t.a, type(u:get(1).at))"#
        let result = try await sandbox.quarry(flags + ["other.db", "-e", code])
        #expect(result.status == 0 && result.stdout == "1\tuserdata\n", "\(result)")
        if flags.isEmpty {
            #expect(sandbox.exists("other.db.quarry"), "the sidecar is written when writes are allowed")
        } else {
            #expect(try files(sandbox) == before)
        }
    }

    /// An import is refused where a save of the same rows would be, in the same words.
    @Test(arguments: [
        ("import('a.csv', { entity = 'v' })", "v is a view"),
        ("import('ag.csv', { entity = 't' })", "t.g is generated")
    ])
    func anImportMeetsTheForeignFilesRulesAsASaveDoes(_ code: String, _ refusal: String) async throws {
        let sandbox = try await folder()
        let before = try files(sandbox)
        let result = try await sandbox.quarry(["other.db", "-e", code])
        #expect(result.status == 1 && result.errorLines.count == 1 && result.stderr.contains(refusal), "\(result)")
        #expect(try files(sandbox) == before)
    }
}

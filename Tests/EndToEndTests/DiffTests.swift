import Foundation
import QuarryTestSupport
import Testing

/// `.diff DB` and `diff()` through the binary, on copies of a real Core Data store: the
/// second copy changed by `sqlite3` as another program would change it.
@Suite struct DiffTests {
    func twoCopies(in sandbox: Sandbox) async throws {
        let source = try CoreDataFixtures.path("posts/CoreDataMigration_Example_3.sqlite")
        for name in ["a.sqlite", "b.sqlite"] { try FileManager.default.copyItem(atPath: source, toPath: sandbox.path(name)) }
        let changed = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"),
            [
                sandbox.path("b.sqlite"),
                "UPDATE ZPOST SET ZPOSTID = 'changed' WHERE Z_PK = 5; DELETE FROM ZPOST WHERE Z_PK = 7; "
                    + "INSERT INTO ZPOST (Z_PK, Z_ENT, Z_OPT, ZCOLOR, ZDATE, ZPOSTID) VALUES (9000, 2, 1, 1, 526913713.5, 'new');"
            ], stdin: nil, environment: sandbox.environment(), timeout: 60)
        #expect(changed.status == 0, "\(changed)")
    }

    @Test func theDotCommandListsEachChangedObjectMarkedAndLeavesBothFilesAsTheyWere() async throws {
        let sandbox = try Sandbox()
        try await twoCopies(in: sandbox)
        let before = try ["a.sqlite", "b.sqlite"].map { try Data(contentsOf: URL(fileURLWithPath: sandbox.path($0))) }
        let result = try await sandbox.quarry(["a.sqlite", "-"], stdin: ".mode csv\n.diff b.sqlite\n")
        #expect(result.status == 1, "they differ, as diff says: \(result)")
        #expect(
            Array(result.lines.prefix(2)) == ["change,entity,key,property,old,new", "~,Post,5,postID,983047DE-1952-4927-9285-9415BD3CEDD4,changed"],
            "\(result)")
        // The deleted post with what it held (old), the inserted one with its values (new).
        let gone = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), [sandbox.path("a.sqlite"), "SELECT ZPOSTID || ' ' || ZCOLOR FROM ZPOST WHERE Z_PK = 7"],
            stdin: nil, environment: sandbox.environment(), timeout: 60
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        try #require(gone.count == 2 && result.lines.count == 4, "\(result)")
        #expect(
            result.lines[2].hasPrefix(#"-,Post,7,,"date = "#) && result.lines[2].hasSuffix(#"postID = ""\#(gone[0])"", color = Color/\#(gone[1])","#),
            "\(result)")
        #expect(
            result.lines[3].hasPrefix(#"+,Post,9000,,,"date = "#) && result.lines[3].hasSuffix(#"postID = ""new"", color = Color/1""#), "\(result)")
        let after = try ["a.sqlite", "b.sqlite"].map { try Data(contentsOf: URL(fileURLWithPath: sandbox.path($0))) }
        #expect(after == before, "a store changed")
        // The same store: nothing to say.
        let same = try await sandbox.quarry(["a.sqlite", "-"], stdin: ".diff a.sqlite\n")
        #expect(same.status == 0 && same.lines == ["no differences"], "\(same)")
        // A file that is not there is not made.
        let missing = try await sandbox.quarry(["a.sqlite", "-"], stdin: ".diff nothere.sqlite\n")
        #expect(missing.status == 2 && missing.stderr.contains("nothere.sqlite does not exist"), "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("nothere.sqlite")))
    }

    @Test func diffOfTheStoreAgainstItsModelsCurrentVersionIsOneAddedAttribute() async throws {
        let sandbox = try Sandbox()
        try await twoCopies(in: sandbox)
        let model = try CoreDataFixtures.path("posts/CoreDataMigration_Example.xcdatamodeld")
        let result = try await sandbox.quarry(
            ["a.sqlite", "-e", "local d = diff(\"\(model)\") print(#d, d[1].change, d[1].entity, d[1].property, d[1].lightweight)"])
        #expect(result.status == 0 && result.lines == ["1\t+\tPost\thide\ttrue"], "\(result)")
        // Printed as a table, marked as watch marks rows.
        let printed = try await sandbox.quarry(["a.sqlite", "-e", "print(diff(\"\(model)\"))"])
        #expect(printed.status == 0, "\(printed)")
        // Under a line that says which way it reads, naming both sides.
        #expect(printed.lines.first?.hasPrefix("from a.sqlite (this session) to ") == true, "\(printed)")
        #expect(printed.lines.dropFirst().first?.hasPrefix("change | entity | property | what") == true, "\(printed)")
        #expect(printed.lines.contains { $0.hasPrefix("+      | Post   | hide     | added") }, "\(printed)")
        #expect(printed.lines.last == "(1 row)", "\(printed)")
    }
}

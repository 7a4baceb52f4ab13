import Foundation
import Testing

/// The declaration `relate()` or `format()` keeps beside a file Quarry did not create
/// makes `<file>.quarry` appear next to it: the first time, one note says where it is
/// kept and that the file itself is unchanged (a newcomer found the file and no word).
@Suite struct SidecarNoteTests {
    @Test func theSidecarsFirstWritingIsSaidOnce() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE b (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE a (id INTEGER PRIMARY KEY, b_ref INTEGER, seen TEXT);
            INSERT INTO b VALUES (1, 'x'); INSERT INTO a VALUES (1, 1, '2020-01-01 10:00:00');
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "r.db", file: "schema.sql")
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("r.db")))
        let note = "note: kept in r.db.quarry beside the file, read again at every open; the file itself is unchanged"
        let first = try await sandbox.quarry(["r.db", "-e", #"relate("a", "b_ref", "b", "id", "bee")"#])
        #expect(first.status == 0 && first.errorLines == [note], "\(first)")
        #expect(FileManager.default.fileExists(atPath: sandbox.path("r.db.quarry")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.path("r.db"))) == before)
        let again = try await sandbox.quarry(["r.db", "-e", #"format("a", "seen", "iso-space"); print(a:get(1).bee.name)"#])
        #expect(again.status == 0 && again.lines == ["x"] && again.errorLines.isEmpty, "\(again)")
        // --safe keeps no sidecar, so nothing is said.
        try FileManager.default.removeItem(atPath: sandbox.path("r.db.quarry"))
        let safe = try await sandbox.quarry(["--safe", "r.db", "-e", #"relate("a", "b_ref", "b", "id", "bee")"#])
        #expect(safe.status == 0 && safe.errorLines.isEmpty, "\(safe)")
    }
}

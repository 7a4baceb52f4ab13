import Foundation
import QuarryTestSupport
import Testing

/// The third hostile review's message findings that need the real binary: notes quote
/// names from the file, and printed them raw.
extension HostileFileTests {
    /// A Core Data store whose `Z_PRIMARYKEY` names an entity with terminal escapes and a
    /// newline: each note stays one line starting `note: `, with no escape byte, and no
    /// line can pass for Quarry's own.
    @Test func notesEscapeNamesFromTheFile() async throws {
        let sandbox = try Sandbox()
        let source = try CoreDataFixtures.path("cars/SampleModel_V1.sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: sandbox.path("store.sqlite" + suffix))
        }
        let hostile = "char(27)||']0;pwned'||char(7)||char(27)||'[2J'||char(10)||'quarry: forged'"
        let changed = try await sandbox.run(
            Self.sqlite3,
            [
                sandbox.path("store.sqlite"),
                "INSERT INTO Z_PRIMARYKEY VALUES (99, \(hostile), 0, 0); DELETE FROM Z_MODELCACHE"
            ])
        try #require(changed.status == 0, "\(changed)")
        let result = try await sandbox.quarry(["store.sqlite", "-e", "print(count('Car'))"])
        #expect(result.status == 0 && result.lines.count == 1, "\(result)")
        #expect(!result.stderr.unicodeScalars.contains("\u{1B}") && !result.stderr.unicodeScalars.contains("\u{07}"), "\(result)")
        #expect(result.errorLines.count >= 2 && result.errorLines.allSatisfy { $0.hasPrefix("note: ") }, "\(result)")
        #expect(result.stderr.contains(#"\27]0;pwned\7\27[2J\nquarry: forged"#), "\(result)")
    }

    /// Notes are bounded as errors are (issue 61 item 4): a store whose `Z_PRIMARYKEY`
    /// names 30 entities without tables and one with a 100 KB name prints at most 20
    /// notes at the open, each one line within the line bound (the long name cut with a
    /// count of what was left out), then one line saying how many more and that `.notes`
    /// lists them; `.notes` prints every one, each as bounded.
    @Test func notesAreBoundedInLengthAndNumber() async throws {
        let sandbox = try Sandbox()
        let source = try CoreDataFixtures.path("cars/SampleModel_V1.sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: sandbox.path("store.sqlite" + suffix))
        }
        let changed = try await sandbox.run(
            Self.sqlite3,
            [
                sandbox.path("store.sqlite"),
                """
                DELETE FROM Z_MODELCACHE;
                WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 30)
                  INSERT INTO Z_PRIMARYKEY SELECT 100 + i, 'Ghost' || i, 0, 0 FROM c;
                INSERT INTO Z_PRIMARYKEY VALUES (99, 'A' || hex(zeroblob(50000)), 0, 0);
                """
            ])
        try #require(changed.status == 0, "\(changed)")
        let result = try await sandbox.quarry(["store.sqlite", "-e", "print(count('Car'))"])
        #expect(result.status == 0 && result.lines.count == 1, "\(result.stdout)")
        let notes = result.errorLines
        // The model inferred, the 100 KB name's and 30 ghosts': 32 notes, 20 shown.
        #expect(notes.count == 21, "\(notes.count) lines")
        #expect(notes.allSatisfy { $0.hasPrefix("note: ") && $0.count <= 1_006 }, "\(notes.map(\.count))")
        #expect(notes.last == "note: 12 more notes left out (.notes lists them all)", "\(notes.last ?? "")")
        let long = notes.first { $0.contains("AAAA") || $0.contains("A0000") }
        #expect(long?.contains("characters left out") == true, "\(long?.prefix(200) ?? "no note of the long name")")
        let listed = try await sandbox.quarry(["store.sqlite", "-"], stdin: ".notes\n")
        #expect(listed.status == 0, "\(listed.stderr.prefix(300))")
        #expect(listed.lines.count == 32 && listed.lines.allSatisfy { $0.count <= 1_000 }, "\(listed.lines.map(\.count))")
        #expect(listed.lines.filter { $0.contains("Ghost") }.count == 30)
    }
}

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
}

import Foundation
import Testing

/// When an export waits for the disk. Replacing a file, the new text is on disk before
/// the rename (fsync), so a crash leaves the old file or the new, never an empty one. A
/// new file has no old one to keep, so it is written as `>` and `sqlite3 -csv` write it,
/// without the wait: the fsync of a 114 MB export of the flights was written out whole
/// before the export returned. Watched through `strace`, which scripts/test installs.
@Suite struct ExportDurabilityTests {
    static let strace = URL(fileURLWithPath: "/usr/bin/strace")

    /// The fsync and rename calls of `quarry -e SCRIPT`, one a line.
    func syncCalls(_ sandbox: Sandbox, _ script: String) async throws -> [String] {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.strace.path),
            "strace is missing at \(Self.strace.path): scripts/test installs it (apt-get install strace)")
        let result = try await sandbox.run(
            Self.strace, ["-f", "-qq", "-e", "trace=fsync,fdatasync,rename", "-o", sandbox.path("calls.txt"), sandbox.binary.path, "-e", script],
            environment: sandbox.environment(), timeout: 120)
        try #require(result.status == 0, "\(result)")
        return try sandbox.read("calls.txt").split(separator: "\n").map { String($0) }.filter { !$0.contains("exited with") }
    }

    @Test func aNewFileIsRenamedIntoPlaceWithoutWaitingForTheDisk() async throws {
        let sandbox = try Sandbox()
        let calls = try await syncCalls(sandbox, #"export(sql("SELECT 1 AS a"), "new.csv")"#)
        #expect(try sandbox.read("new.csv") == "a\n1\n")
        #expect(calls.contains { $0.contains("rename(") && $0.contains("new.csv") }, "\(calls)")
        #expect(!calls.contains { $0.contains("fsync(") || $0.contains("fdatasync(") }, "\(calls)")
    }

    @Test func aFileReplacedIsOnDiskBeforeTheRename() async throws {
        let sandbox = try Sandbox()
        try "old\n".write(toFile: sandbox.path("old.csv"), atomically: false, encoding: .utf8)
        let calls = try await syncCalls(sandbox, #"export(sql("SELECT 2 AS b"), "old.csv")"#)
        #expect(try sandbox.read("old.csv") == "b\n2\n")
        let sync = calls.firstIndex { $0.contains("fsync(") }
        let rename = calls.firstIndex { $0.contains("rename(") && $0.contains("old.csv") }
        #expect((sync ?? .max) < (rename ?? .min), "\(calls)")
    }
}

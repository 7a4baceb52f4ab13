import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C during an import, while its parser thread reads ahead of the inserts: the
/// import stops with one line, the parser thread is joined (the process exits), and the
/// store is as it was.
@Suite struct ImportInterruptTests {
    @Test func ctrlCDuringAnImportLeavesTheStoreAsItWas() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.quarry(["store.db", "-e", #"entity "Keep" { n = "int64" }; Keep:new{ n = 7 }; save()"#])
        // Enough rows that the import is still running when the signal comes, even from a
        // release build on a busy machine (5M rows, about 6 s of a release import): a block
        // of 10,000 rows written 500 times.
        var block = ""
        for i in 0..<10_000 { block += "\(i),row \(i),\(Double(i) / 8),2024-01-02T03:04:05Z\n" }
        let csv = try sandbox.write("big.csv", "a,b,c,when\n")
        let file = try #require(FileHandle(forWritingAtPath: csv))
        file.seekToEndOfFile()
        let data = Data(block.utf8)
        for _ in 0..<500 { file.write(data) }
        file.closeFile()
        try sandbox.write(
            "imp.lua",
            """
            io.stderr:write("importing\\n")
            import("big.csv", { entity = "Big" })
            print("finished")
            """)
        let err = sandbox.path("imp.err")
        let out = sandbox.path("imp.out")
        let (pid, started) = try await sandbox.startInBackground(["store.db", "imp.lua"], name: "imp", marker: "importing")
        #expect(started)
        try await Task.sleep(nanoseconds: 300_000_000)
        kill(pid, SIGINT)
        let status = try await ChildProcess.wait(pid, timeout: 60)
        #expect(status != nil && status != 0, "status \(String(describing: status))")
        let stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines[1].lowercased().contains("interrupt"), "\(stderr)")
        #expect(!((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("finished"))
        let check = try await sandbox.quarry(["store.db", "-e", #"print(count("Keep")); print((pcall(count, "Big")))"#])
        #expect(check.stdout == "1\nfalse\n", "\(check)")
    }
}

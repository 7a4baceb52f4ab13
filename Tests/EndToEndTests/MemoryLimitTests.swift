import Foundation
import Testing

/// What Quarry builds for Lua in one call (every row as a table) cannot pass `--memory`:
/// it fails as a script that allocates past the limit itself does, with one line.
@Suite struct MemoryLimitTests {
    @Test func bigValuesFailAsOtherMemoryErrorsDo() async throws {
        let sandbox = try Sandbox()
        let rows = (1...60_000).map { "\($0),row \($0)" }.joined(separator: "\n")
        let csv = try sandbox.write("t.csv", "n,s\n" + rows + "\n")
        let db = sandbox.path("t.db")
        let imported = try await sandbox.quarry([db, "-e", "print(import(\"\(csv)\", { entity = \"T\" }))"])
        #expect(imported.status == 0 && imported.stdout == "60000\n", "\(imported)")

        let own = try await sandbox.quarry(["--memory", "2M", db, "-e", "local t = {} for i = 1, 1e7 do t[i] = i end"])
        #expect(own.status == 1 && own.errorLines.count == 1 && own.stderr.contains("not enough memory"), "\(own)")
        for call in [#"fetch("T"):totable()"#, #"fetch{ "T", result = "ids" }"#, #"fetch{ "T", properties = { "n", "s" } }"#, #"sql("SELECT * FROM T")"#] {
            let result = try await sandbox.quarry(["--memory", "2M", db, "-e", "local t = \(call)"])
            #expect(result.status == own.status, "\(call): \(result)")
            #expect(result.errorLines.count == 1, "\(call): \(result)")
            #expect(result.stderr.hasPrefix("(command line):1: not enough memory:") && result.stderr.contains("--memory limit (2 MB)"),
                    "\(call): \(result)")
        }
        let fits = try await sandbox.quarry(["--memory", "64M", db, "-e", #"print(#fetch("T"):totable())"#])
        #expect(fits.status == 0 && fits.stdout == "60000\n", "under a higher limit it fits: \(fits)")
    }
}

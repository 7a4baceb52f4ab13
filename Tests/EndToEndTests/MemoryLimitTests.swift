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
        for call in [
            #"fetch("T"):totable()"#, #"fetch{ "T", result = "ids" }"#, #"fetch{ "T", properties = { "n", "s" } }"#, #"sql("SELECT * FROM T")"#
        ] {
            let result = try await sandbox.quarry(["--memory", "2M", db, "-e", "local t = \(call)"])
            #expect(result.status == own.status, "\(call): \(result)")
            #expect(result.errorLines.count == 1, "\(call): \(result)")
            #expect(
                result.stderr.hasPrefix("(command line):1: not enough memory:") && result.stderr.contains("--memory limit (2 MB)"),
                "\(call): \(result)")
        }
        let fits = try await sandbox.quarry(["--memory", "64M", db, "-e", #"print(#fetch("T"):totable())"#])
        #expect(fits.status == 0 && fits.stdout == "60000\n", "under a higher limit it fits: \(fits)")
    }

    /// SQLite's own allocations count against `--memory` (issue 48, carried from round
    /// three): a printf of 900 MB was refused only after SQLite built it, at a 1.7 GB
    /// peak. SQLite's heap is bounded through its C API, and its out-of-memory is one line
    /// naming the limit. The peak is read with `/usr/bin/time -v` as a generous bound only.
    @Test func sqlitesOwnHeapIsWithinTheLimit() async throws {
        let sandbox = try Sandbox()
        let db = sandbox.path("t.db")
        let made = try await sandbox.quarry([db, "-e", #"entity "T" { n = "int" } T:new{ n = 1 } save()"#])
        #expect(made.status == 0, "\(made)")
        let time = URL(fileURLWithPath: "/usr/bin/time")
        #expect(FileManager.default.isExecutableFile(atPath: time.path), "/usr/bin/time is needed (apt-get install time)")
        let big = #"print(#sql("SELECT printf('%.*c', 900000000, 'x') AS s")[1].s)"#
        let result = try await sandbox.run(time, ["-v", sandbox.binary.path, "--memory", "200M", db, "-e", big], timeout: 120)
        let own = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("\t") && !$0.hasPrefix("Command exited") }
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        #expect(own.count == 1 && own.first?.contains("not enough memory: SQLite's heap reached the --memory limit (200 MB)") == true, "\(result)")
        let peak = result.stderr.split(separator: "\n").first { $0.contains("Maximum resident set size") }
            .flatMap { $0.split(separator: ":").last }.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        #expect(peak.map { $0 < 600_000 } == true, "peak \(peak.map(String.init) ?? "unread") kB: \(result)")
        // Within the limit the same statement runs, and the store keeps working after a refusal.
        let fits = try await sandbox.quarry([
            "--memory", "200M", db, "-e",
            #"""
            print(pcall(sql, "SELECT printf('%.*c', 900000000, 'x') AS s"))
            print(#sql("SELECT printf('%.*c', 1000000, 'x') AS s")[1].s, count("T"))
            """#
        ])
        #expect(fits.status == 0 && fits.lines.count == 2 && fits.lines.last == "1000000\t1", "\(fits)")
        #expect(fits.lines.first?.contains("not enough memory: SQLite's heap") == true, "\(fits)")
    }
    /// A save of many large new values under `--memory` writes every value (issue 62's
    /// rows several to an INSERT bound them all at once: a bind SQLite refused was written
    /// as NULL, and a save that fitted a row at a time ran out of memory), and a value
    /// SQLite cannot take is refused in one line with nothing written.
    @Test func largeNewValuesAreWrittenWholeUnderTheLimit() async throws {
        let sandbox = try Sandbox()
        let db = sandbox.path("t.db")
        let script = """
            entity "Blob" { s = "string", n = "int" }
            local small, big = string.rep("a", 1900 * 1024), string.rep("b", 10 * 1024 * 1024)
            for i = 1, 31 do Blob:new{ s = small, n = i } end
            Blob:new{ s = big, n = 32 }
            save()
            local r = sql("SELECT count(*) AS c, sum(length(s)) AS l, sum(s IS NULL) AS nulls FROM Blob")[1]
            print(r.c, r.l, r.nulls)
            """
        let saved = try await sandbox.quarry(["--memory", "64M", db, "-e", script])
        #expect(saved.status == 0 && saved.stdout == "32\t\(31 * 1900 * 1024 + 10 * 1024 * 1024)\t0\n", "\(saved)")
    }
}

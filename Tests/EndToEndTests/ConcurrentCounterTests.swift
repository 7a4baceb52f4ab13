import Foundation
import Testing

/// Three processes incrementing counters in one file for a few seconds (the short form
/// of `scripts/stress --writers`): each has a counter of its own and all share one. No
/// save may fail with "database is locked"; a lost race on the shared counter is the
/// conflict error, retried after refresh(); at the end every private increment is there
/// and the shared counter equals the sum of the successful shared saves.
@Suite struct ConcurrentCounterTests {
    static let worker = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/stress.d/counters.lua")

    @Test func threeWritersForSixSecondsLoseNoIncrement() async throws {
        let sandbox = try Sandbox()
        let writers = 3
        let seconds = 6
        let setup = try await sandbox.quarry([
            "store.db", "-e",
            """
            entity "Counter" { name = { "string", unique = true }, value = "int64" }
            Counter:new{ name = "shared", value = 0 }
            for i = 1, \(writers) do Counter:new{ name = "writer" .. i, value = 0 } end
            save()
            """
        ])
        try #require(setup.status == 0, "\(setup)")
        let results = try await withThrowingTaskGroup(of: (Int, ProcessResult).self) { group in
            for writer in 1...writers {
                group.addTask {
                    (writer, try await sandbox.quarry(["store.db", Self.worker.path, "\(writer)", "\(seconds)"], timeout: Double(seconds) + 60))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        var privateSaves: [Int: Int] = [:]
        var sharedSaves = 0
        var conflicts = 0
        for (writer, result) in results.sorted(by: { $0.key < $1.key }) {
            #expect(result.status == 0 && result.stderr.isEmpty, "writer \(writer): \(result)")
            #expect(!result.stderr.contains("database is locked"), "writer \(writer): \(result)")
            let fields = result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" })
            try #require(fields.count == 8, "writer \(writer): \(result)")
            privateSaves[writer] = Int(fields[3])
            sharedSaves += Int(fields[5]) ?? 0
            conflicts += Int(fields[7]) ?? 0
        }
        let final = try await sandbox.quarry([
            "store.db", "-e", #"for _, c in ipairs(fetch{ "Counter", sort = "name" }) do print(c.name, c.value) end"#
        ])
        var values: [String: Int] = [:]
        for line in final.lines {
            let parts = line.split(separator: "\t")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        for writer in 1...writers {
            #expect(values["writer\(writer)"] == privateSaves[writer], "writer \(writer)'s increments: \(final)")
            #expect((privateSaves[writer] ?? 0) > 0, "writer \(writer) saved nothing")
        }
        #expect(values["shared"] == sharedSaves, "no shared increment lost: \(values) against \(sharedSaves) successes (\(conflicts) conflicts)")
    }
}

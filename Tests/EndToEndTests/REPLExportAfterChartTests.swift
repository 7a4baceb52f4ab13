import Foundation
import Testing

/// `.export FILE` writes `_`, the last value printed: after the rows and then their chart,
/// `_` is the chart's string, and the refusal said "print some results first" to one who
/// just had (trial 24). It names what `_` holds and the way to the export.
@Suite struct REPLExportAfterChartTests {
    @Test func anExportAfterAChartSaysWhatUnderscoreHolds() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "v.db", "-e", #"entity "Visit" { host = "string" }; for _, h in ipairs{ "a", "b", "a" } do Visit:new{ host = h } end; save()"#
        ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["v.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"r = fetch{ "Visit", properties = { "host", "count(*)" }, group = { "host" } }"#)
        _ = try await repl.enter("r")
        _ = try await repl.enter("barchart(r)")
        let out = sandbox.path("hosts.csv")
        let refused = try await repl.enter(".export \(out)")
        #expect(refused.count == 1 && refused[0].contains("_ holds the last value printed (string)"), "\(refused)")
        #expect(!refused.joined().contains("print some results first"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: out))
        _ = try await repl.enter("r")
        #expect(try await repl.enter(".export \(out)") == ["wrote 2 rows to \(out)"])
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "host,count(*)\na,2\nb,1\n")
    }
}

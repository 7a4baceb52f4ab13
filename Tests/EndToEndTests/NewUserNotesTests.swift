import Foundation
import Testing

/// Moments of a new user's trial where Quarry said nothing, or too little: the history of a
/// file Quarry did not make.
@Suite struct NewUserNotesTests {
    private func sqlite3(_ sandbox: Sandbox, _ file: String, _ sql: String) async throws -> String {
        let result = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(file), sql])
        try #require(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// The words `.history` answers with on such a file, which `history{}` notes too.
    private let noHistory = "no history: a file Quarry did not make keeps none (history{} is empty there); other programs' changes are still seen"

    @Test func historyOfAFileQuarryDidNotMakeSaysOnceThatItKeepsNone() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(sandbox, "f.db", "CREATE TABLE t (a TEXT); INSERT INTO t VALUES ('x')")
        let run = try await sandbox.quarry(["f.db", "-e", "print(#history{}); print(#history{ author = 'me' })"])
        #expect(run.status == 0 && run.lines == ["0", "0"], "\(run)")
        #expect(run.errorLines == ["note: " + noHistory], "said once, in .history's words: \(run)")
        // .history answers with the same words.
        let dot = try await sandbox.quarry(["f.db", "-"], stdin: ".history\n")
        #expect(dot.lines == [noHistory], "\(dot)")
        // Quarry's own file keeps one: nothing to say while it is empty.
        let own = try await sandbox.quarry(["own.db", "-e", "print(#history{})"])
        #expect(own.lines == ["0"] && own.errorLines.isEmpty, "\(own)")
    }
}

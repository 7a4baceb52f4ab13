import Foundation
import Testing

/// The closing newcomer moments of issue 80, typed as a person types (each test says
/// which one it is about).
@Suite struct REPLIssue80ClosingTests {
    private func sqlite3(_ sandbox: Sandbox, _ file: String, _ sql: String) async throws -> String {
        let result = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(file), sql])
        try #require(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// `o:isDeleted()` is true while the delete is pending and false once `save()` wrote
    /// it, as Core Data's `isDeleted`; the object still prints as deleted; a rolled-back
    /// delete is no longer pending either.
    @Test func isDeletedTurnsFalseOnceTheDeleteIsSaved() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(sandbox, "a.db", "CREATE TABLE a (id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO a VALUES (1, 1), (2, 2)")
        let repl = try await TmuxSession(sandbox, arguments: ["a.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter("o = a:get(1); p = a:get(2)")
        _ = try await repl.enter("o:delete(); p:delete()")
        #expect(try await repl.enter("=o:isDeleted() and p:isDeleted()") == ["true"])
        _ = try await repl.enter("rollback()")
        #expect(try await repl.enter("=p:isDeleted()") == ["false"])
        _ = try await repl.enter("o:delete()")
        _ = try await repl.enter("save()")
        #expect(try await repl.enter("=o:isDeleted()") == ["false"])
        let shown = try await repl.enter("print(o)").joined()
        #expect(shown.hasPrefix("a/1 (deleted)"), "\(shown)")
        #expect(try await sqlite3(sandbox, "a.db", "SELECT group_concat(id) FROM a") == "2")
    }
}

import Foundation
import Testing

/// Habits people bring from the `lua` shell, typed as a person types them.
@Suite struct REPLHabitsTests {
    @Test func anEqualsSignPrintsTheExpression() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox)
        try await repl.waitForPrompt()
        #expect(try await repl.enter("=1 + 2") == ["3"])
        let two = try await repl.enter(#"=1 + 2, "x""#)  // a tab between, as print writes (the screen shows spaces)
        #expect(two.count == 1 && two[0].hasPrefix("3") && two[0].hasSuffix("x"), "\(two)")
        #expect(try await repl.enter("x = 5") == [])
        #expect(try await repl.enter("=x * 2") == ["10"])
    }
}

/// A name that did not exist and does not look like a database's gets a note.
@Suite struct NewFileNoteTests {
    @Test func aNewFileWithoutADatabaseExtensionIsNoted() async throws {
        let sandbox = try Sandbox()
        let typo = try await sandbox.quarry(["flihgts", "-e", "print(#entities())"])
        #expect(typo.status == 0 && typo.lines == ["0"], "\(typo)")
        #expect(typo.errorLines.count == 1 && typo.errorLines[0].hasPrefix("note: flihgts did not exist"), "\(typo)")
        let again = try await sandbox.quarry(["flihgts", "-e", "print(1)"])
        #expect(again.stderr.isEmpty, "an existing file is not noted: \(again)")
        let named = try await sandbox.quarry(["new.db", "-e", "print(1)"])
        #expect(named.stderr.isEmpty, "a database name is not noted: \(named)")
    }
}

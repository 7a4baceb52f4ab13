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

import Foundation
import Testing

/// A column named with a space (`Original Hire`, the employees sample's): Tab inserted it
/// into a predicate as written, which then failed with "expected a comparison operator …
/// found 'Hire'". In a predicate Tab inserts `%K`, the form the grammar reads such a key
/// in (its name among the arguments), and the error for the bare name says that form; a
/// sort key, read whole, is inserted as the name.
@Suite struct REPLSpacedKeyTests {
    @Test func tabInsertsPercentKForAKeyWithASpaceAndTheErrorSaysIt() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("e.db"),
                """
                CREATE TABLE emp (emp_no INTEGER PRIMARY KEY, "Original Hire" INTEGER);
                INSERT INTO emp VALUES (1, 1990), (2, 2001), (3, 2005);
                """
            ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["e.db"])
        try await repl.waitForPrompt()

        try await repl.type(#"=count("emp", "Orig"#)
        try await repl.press("Tab")
        // Its name goes among the arguments (REPLIssue80TrialLeftoverTests has the rest).
        var line = try await repl.waitUntil("%K inserted") { $0.last == #"> =count("emp", "%K", "Original Hire")"# }
        try await repl.type(" > %@")
        try await repl.press("End")
        try await repl.press("Left")
        try await repl.type(", 2000")
        try await repl.press("Enter")
        var answer = try await repl.waitForPrompt(">", after: line.count)
        #expect(answer[answer.count - 2] == "2", "\(answer.suffix(3))")

        // A sort key is read whole: the name itself.
        try await repl.type(#"=fetch{ "emp", sort = "-Orig"#)
        try await repl.press("Tab")
        line = try await repl.waitUntil("the name inserted") { $0.last == #"> =fetch{ "emp", sort = "-Original Hire"# }
        try await repl.type(#"" }[1].emp_no"#)
        try await repl.press("Enter")
        answer = try await repl.waitForPrompt(">", after: line.count)
        #expect(answer[answer.count - 2] == "3", "\(answer.suffix(3))")

        // Typed bare, the error names the form that reads it (compared without spaces: the
        // pane wraps the line, and a row's trailing space is not captured).
        let error = try await repl.enter(#"=count("emp", "Original Hire > 2000")"#).joined().filter { !$0.isWhitespace }
        for said in ["found 'Hire'", "a key with a space is written %K", #""%K > %@", "Original Hire", value"#] {
            #expect(error.contains(said.filter { !$0.isWhitespace }), "\(said): \(error)")
        }
    }
}

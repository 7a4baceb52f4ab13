import Foundation
import QuarryTestSupport
import Testing

/// Moments of a new user's half hour on fivethirtyeight's CSVs (congress members' ages,
/// pollster ratings' raw polls), imported with `import()` into Quarry's own file.
@Suite struct TrialTwentyThreeTests {
    /// `relate()` at the prompt, then `.schema`: the new pair is printed at once, as
    /// reopening the file prints it (it was missing until the file was opened again).
    @Test func schemaShowsARelateMadeInTheSameSession() async throws {
        let sandbox = try Sandbox()
        let script = """
            entity "State" { abbrev = "string" }
            entity "Member" { name = "string", state_abbrev = "string" }
            relate("Member", "state_abbrev", "State", "abbrev")
            .schema State
            .schema Member

            """
        let run = try await sandbox.quarry(["own.db", "-"], stdin: script)
        #expect(run.status == 0, "\(run)")
        let inverse = #"  members = { many = "Member", inverse = "state" },  -- also read as member_set"#
        let toOne =
            #"-- state: to-one to State by state_abbrev (relate("Member", "state_abbrev", "State", "abbrev", "state") made it; kept in the file)"#
        #expect(run.lines.contains(inverse), "\(run)")
        #expect(run.lines.contains { $0.hasPrefix(toOne) }, "\(run)")
        // As a reopened file prints it.
        let reopened = try await sandbox.quarry(["own.db", "-"], stdin: ".schema State\n.schema Member\n")
        #expect(reopened.lines == run.lines, "\(reopened)")
    }
}

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

    /// SQL written as for the CSV in sqlite3, on a date column Quarry imported: the column
    /// holds Unix seconds, so `d >= '2001-01-01'` holds for no row and strftime() gives
    /// nil. One note says so, with the SQL that reads them; said once per column.
    @Test func sqlOnAnImportedDateColumnSaysItHoldsUnixSeconds() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("terms.csv", "name,start_date,age\nAnn,1987-01-03,46.7\nBob,2003-01-07,51.2\nCy,2021-01-03,38.0\n")
        let made = try await sandbox.quarry(["own.db", "-e", #"import("terms.csv", "Term")"#])
        #expect(made.status == 0, "\(made)")
        let note =
            "note: Term.start_date holds its dates as Unix seconds, not text: in SQL, compare with unixepoch('2001-01-01') "
            + "and read with date(start_date, 'unixepoch') (predicates take dates as written: \"start_date >= '2001-01-01'\")"
        let query = try await sandbox.quarry(["own.db", "SELECT count(*) FROM Term WHERE start_date >= '2001-01-01'"])
        #expect(query.status == 0, "\(query)")
        #expect(query.errorLines == [note], "\(query)")
        // Said once a session; SQL that converts, or names no date, says nothing.
        let script = """
            print(sql("SELECT count(*) AS n FROM Term WHERE start_date >= '2001-01-01'")[1].n)
            print(sql("SELECT min(start_date) AS m FROM Term")[1].m ~= nil)
            print(sql("SELECT count(*) AS n FROM Term WHERE start_date >= unixepoch('2001-01-01')")[1].n)
            print(sql("SELECT count(*) AS n FROM Term WHERE age > 40")[1].n)

            """
        let once = try await sandbox.quarry(["own.db", "-"], stdin: script)
        #expect(once.lines == ["0", "true", "2", "2"], "\(once)")
        #expect(once.errorLines == [note], "\(once)")
        let converted = try await sandbox.quarry([
            "own.db", "SELECT date(start_date, 'unixepoch') FROM Term WHERE start_date >= unixepoch('2001-01-01')"
        ])
        #expect(converted.status == 0 && converted.errorLines.isEmpty, "\(converted)")
        let noDate = try await sandbox.quarry(["own.db", "SELECT count(*) FROM Term WHERE age > 40"])
        #expect(noDate.status == 0 && noDate.errorLines.isEmpty, "\(noDate)")
    }
}

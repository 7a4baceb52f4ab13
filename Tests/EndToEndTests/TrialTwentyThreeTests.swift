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

    /// A CSV's dates written month/day/year (`10/13/1998`) are kept as text, which sorts
    /// and compares by the month: the import says so per column, with the form the values
    /// show, and a sort by the column says it again for Quarry's own table.
    @Test func anImportOfDatesWrittenMonthFirstSaysTheyAreText() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "polls.csv",
            "pollster,polldate,electiondate,n\nGallup,10/13/1998,11/3/1998,364\nIpsos,9/30/2003,11/4/2003,540\nYouGov,1/7/2020,11/3/2020,900\n")
        let run = try await sandbox.quarry(["own.db", "-e", #"print(import("polls.csv", "Poll"))"#])
        #expect(run.status == 0 && run.lines == ["3"], "\(run)")
        let said = { (column: String, written: String) in
            "import polls.csv: column \(column) is text: its cells are dates written \(written), not ISO 8601, which import does not read "
                + "as dates; as text they sort and compare by their first field, not in time (sql() can put their parts in ISO order with substr())"
        }
        // Which of day and month comes first is said as the values show it, never guessed.
        let expected = [
            said("polldate", "10/13/1998 (mm/dd/yyyy)"), said("electiondate", "11/3/1998 (dd/mm/yyyy or mm/dd/yyyy; no value says which)")
        ]
        #expect(run.errorLines == expected, "\(run)")
        // A column of ISO days is a date, and says nothing.
        try sandbox.write("iso.csv", "day,n\n1998-10-13,1\n2003-09-30,2\n")
        let iso = try await sandbox.quarry(["own.db", "-e", #"import("iso.csv", "Iso")"#])
        #expect(iso.status == 0 && iso.errorLines.isEmpty, "\(iso)")
        // A sort of the text column in a later session says it too.
        let sorted = try await sandbox.quarry(["own.db", "-e", #"print(#fetch{ "Poll", sort = "polldate" })"#])
        #expect(sorted.lines == ["3"], "\(sorted)")
        #expect(sorted.errorLines.contains { $0.hasPrefix("note: Poll.polldate holds dates written 10/13/1998 (mm/dd/yyyy)") }, "\(sorted)")
    }

    /// `polldate >= '10/1/2020'` on such text counts as SQLite counts (text order: 9/7/2011
    /// and 10/13/1998 are after 10/1/2020), as sqlite3 does on the CSV, and says once why.
    @Test func aTextDateComparedInOrderSaysItComparesAsText() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("polls.csv", "pollster,polldate\nGallup,10/13/1998\nIpsos,9/7/2011\nYouGov,10/29/2020\n")
        _ = try await sandbox.quarry(["own.db", "-e", #"import("polls.csv", "Poll")"#])
        let script = #"print(count("Poll", "polldate >= %@", "10/1/2020")); print(count("Poll", "polldate < '2/1/2000'"))"#
        let run = try await sandbox.quarry(["own.db", "-e", script])
        // In time, 3 and 1; as text (SQLite's answer, sqlite3's on the CSV), 3 and 2.
        #expect(run.lines == ["3", "2"], "\(run)")
        let note =
            "note: Poll.polldate holds dates written 10/13/1998 (mm/dd/yyyy), not ISO 8601: as text, polldate >= '10/1/2020' "
            + "compares by its first field, not in time (sql() can put its parts in ISO order with substr())"
        #expect(run.errorLines == [note], "\(run)")
        // Equality is no order: nothing to say.
        let equal = try await sandbox.quarry(["own.db", "-e", #"print(count("Poll", "polldate == '9/7/2011'"))"#])
        #expect(equal.lines == ["1"] && equal.errorLines.isEmpty, "\(equal)")
    }
}

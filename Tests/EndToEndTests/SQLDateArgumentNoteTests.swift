import Foundation
import QuarryTestSupport
import Testing

/// A date bound into `sql()` goes in as Unix seconds. Where the statement names a date
/// column another program keeps otherwise (text, or a Core Data store's seconds since
/// 2001), the two do not compare as dates and the count is wrong; the note says so once
/// and says what to bind, and what it says to bind counts right.
@Suite struct SQLDateArgumentNoteTests {
    @Test func textDatesNameTheTextToBind() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("pay.db"),
                "CREATE TABLE payment (id INTEGER PRIMARY KEY, payment_date DATETIME);"
                    + "INSERT INTO payment (payment_date) VALUES ('2005-07-31 23:00:00'), ('2005-08-01 00:00:00'), ('2005-08-02 10:00:00')"
            ])
        try #require(made.status == 0, "\(made)")
        let script = """
            local q = "SELECT count(*) AS n FROM payment WHERE payment_date >= ?"
            print(sql(q, date("2005-08-01"))[1].n)
            print(sql(q, date("2005-08-01"))[1].n)
            print(sql(q, "2005-08-01")[1].n)
            print(sql("SELECT count(*) AS n FROM payment WHERE unixepoch(payment_date) >= ?", date("2005-08-01"))[1].n)
            """
        let run = try await sandbox.quarry(["pay.db", "-e", script])
        #expect(run.stdout.split(separator: "\n") == ["3", "3", "2", "2"], "\(run)")
        let notes = run.stderr.split(separator: "\n").filter { $0.contains("binds a date") }
        #expect(notes.count == 1, "\(run)")
        #expect(notes.first?.contains("payment.payment_date holds its dates as text") == true, "\(run)")
        #expect(notes.first?.contains("'2005-08-01'") == true, "\(run)")
    }

    @Test func coreDataDatesNameTheirEpoch() async throws {
        let sandbox = try Sandbox()
        let source = try CoreDataFixtures.path("posts/CoreDataMigration_Example_3.sqlite")
        try FileManager.default.copyItem(atPath: source, toPath: sandbox.path("posts.sqlite"))
        let script = """
            local q = "SELECT count(*) AS n FROM ZPOST WHERE ZDATE >= ?"
            print(sql(q, date("2015-01-01"))[1].n)
            print(sql(q, date("2015-01-01") - date(978307200))[1].n)
            print(count("Post", "date >= %@", date("2015-01-01")))
            """
        let run = try await sandbox.quarry(["posts.sqlite", "-e", script])
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines[0] == "0" && lines[1] != "0" && lines[1] == lines[2], "\(run)")
        #expect(run.stderr.contains("Post.date holds its dates as seconds since 2001-01-01 (Core Data's dates)"), "\(run)")
    }

    @Test func quarrysOwnDatesTakeTheArgumentWithoutANote() async throws {
        let sandbox = try Sandbox()
        let script = """
            entity("E", { at = "date" })
            E:new{ at = date("2005-08-02") }
            save()
            print(sql("SELECT count(*) AS n FROM E WHERE unixepoch(at, 'unixepoch') >= ?", date("2005-08-01"))[1].n)
            """
        let run = try await sandbox.quarry(["own.quarry", "-e", script])
        #expect(run.stdout.split(separator: "\n") == ["1"], "\(run)")
        #expect(!run.stderr.contains("binds a date"), "\(run)")
    }
}

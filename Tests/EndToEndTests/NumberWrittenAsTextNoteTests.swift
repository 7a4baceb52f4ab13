import Foundation
import Testing

/// A GTFS `calendar` loaded into SQLite with no declared types keeps its 0/1 flags as
/// text: `saturday == 1` counted 0 and `sunday > 0` every row, as `sqlite3` answers, with
/// no word of why (trial 21). The counts stay SQLite's; one note for each such column says
/// what SQLite does with the text and gives the form that compares what was meant, and
/// that form counts what sqlite3 counts for it.
@Suite struct NumberWrittenAsTextNoteTests {
    private func calendar(_ sandbox: Sandbox) async throws {
        _ = try await sqlite3Lines(
            sandbox, "gtfs.db",
            """
            CREATE TABLE calendar (service_id, saturday, sunday, "end" INTEGER, note);
            INSERT INTO calendar VALUES ('a', '1', '0', 1, 'x'), ('b', '0', '1', 0, 'y'), ('c', '1', '1', 1, 'z'), ('d', 1, '10', 0, NULL);
            """)
    }

    @Test func aNumberComparedWithNumbersWrittenAsTextSaysSo() async throws {
        let sandbox = try Sandbox()
        try await calendar(sandbox)
        #expect(try await sqlite3Lines(sandbox, "gtfs.db", "SELECT count(*) FROM calendar WHERE saturday = 1") == ["1"])
        let equal = try await sandbox.quarry([
            "gtfs.db", "-e", #"print(count("calendar", "saturday == 1"), count("calendar", "saturday == 1"), count("calendar", "saturday == '1'"))"#
        ])
        #expect(equal.status == 0 && equal.stdout == "1\t1\t2\n", "\(equal)")
        let said =
            "note: calendar.saturday declares no type and holds numbers written as text ('1'); SQLite never finds text equal to a number, "
            + "so saturday == 1 compares no text cell as equal: saturday == '1' compares the text"
        #expect(equal.stderr.components(separatedBy: said).count == 2, "once: \(equal)")

        // An order: every text cell is larger than 0; the SQL offered reads them as numbers.
        let ordered = try await sandbox.quarry(["gtfs.db", "-e", #"print(count("calendar", "0 < sunday"))"#])
        #expect(ordered.stdout == "4\n", "\(ordered)")
        let query = "SELECT count(*) FROM calendar WHERE CAST(sunday AS REAL) > 0"
        let offeredSQL = #"so sunday > 0 compares every text cell as larger: sql("\#(query)") compares them as numbers"#
        #expect(ordered.stderr.contains(offeredSQL), "\(ordered)")
        #expect(try await sqlite3Lines(sandbox, "gtfs.db", query) == ["3"])
        let offered = try await sandbox.quarry(["gtfs.db", "-e", #"print(sql("\#(query)")[1]["count(*)"])"#])
        #expect(offered.stdout == "3\n", "\(offered)")

        // A list, and a reserved word's key as the grammar reads it.
        let listed = try await sandbox.quarry(["gtfs.db", "-e", #"print(count("calendar", "sunday IN {1, 10}"))"#])
        #expect(listed.stderr.contains("sunday IN {1, 10} compares no text cell as equal: sunday IN {'1', '10'} compares the text"), "\(listed)")
        let between = try await sandbox.quarry(["gtfs.db", "-e", #"print(count("calendar", "saturday BETWEEN {1, 2}"))"#])
        #expect(between.stderr.contains("CAST(saturday AS REAL) BETWEEN 1 AND 2"), "\(between)")

        // No note where nothing is a number written as text: a typed column, words, text compared with text.
        let quiet = try await sandbox.quarry([
            "gtfs.db", "-e", ##"print(count("calendar", "#end == 1"), count("calendar", "note == 1"), count("calendar", "service_id > 0"))"##
        ])
        #expect(quiet.status == 0 && quiet.stdout == "2\t0\t4\n" && quiet.stderr.isEmpty, "\(quiet)")
    }
}

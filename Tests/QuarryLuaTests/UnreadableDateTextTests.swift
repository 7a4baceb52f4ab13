import Foundation
import QuarryShell
import Testing

/// Text a declared date layout cannot read (`2025-05-2025` among a file's ISO dates) turned
/// into nil without a word: `date == nil` held for it, the date comparisons dropped it,
/// summarize counted it null. Now it is never silent: `format()` says how many values it
/// cannot read, with one and its row (refusing a layout most values are not in); `== nil`
/// tests what is stored, in SQL and memory alike; a count whose date comparison leaves
/// such cells out says how many; summarize counts it as text, and histogram says it left
/// it out. Checked against plain SQL over the file.
@Suite struct UnreadableDateTextTests {
    /// `races` as a newcomer's F1 file keeps it: 20 ISO dates as text, one malformed (id 16).
    static func races() throws -> String {
        var rows: [String] = []
        for i in 1...20 {
            let month = 3 + (i - 1) / 7
            let day = 1 + (i - 1) % 7 * 4
            rows.append(i == 16 ? "('2025-05-2025')" : String(format: "('2025-%02d-%02d')", month, day))
        }
        let insert = "INSERT INTO races (date) VALUES " + rows.joined(separator: ", ") + ";"
        return try foreignFile("CREATE TABLE races (id INTEGER PRIMARY KEY, date TEXT NOT NULL);\n" + insert)
    }

    @Test func formatSaysWhatItCannotReadAndNilTestsWhatIsStored() throws {
        let path = try Self.races()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let console = ConsoleAndFailureTests.RecordingConsole()
        let h = try Harness(context: try StoreOpener.open(path), console: console)
        h.run(#"format("races", "date", "iso-date")"#)
        // After the note that the sidecar keeps the declaration.
        #expect(
            console.notes.last
                == "note: 1 value of races.date is no iso-date ('2025-05-2025', id 16): it reads as text and no date comparison takes it",
            "\(console.notes)")
        // Nil is what is stored: plain SQL finds no NULL.
        #expect(try sqlAnswer(path, "SELECT count(*) FROM races WHERE date IS NULL") == "0")
        #expect(h.string(#"count("races", "date == nil")"#) == "0")
        #expect(h.string(#"count("races", "date != nil")"#) == "20")
        // The comparisons leave the cell out, and say so, counted in the same statement.
        for (test, expected) in [("date < '2025-04-15'", "11"), ("date >= '2025-04-15'", "8"), ("date.month == 5", "5")] {
            console.notes = []
            #expect(h.string(#"count("races", "\#(test)")"#) == expected, "\(test)")
            #expect(
                console.notes == [
                    "note: rows left out whose cell holds text that reads as no date: 1 in races.date (no date comparison takes them; "
                        + "== nil does not hold for them; summarize() shows them)"
                ], "\(test): \(console.notes)")
        }
        // A count with no date comparison says nothing.
        console.notes = []
        #expect(h.string(#"count("races", "id > 3")"#) == "17")
        #expect(console.notes.isEmpty, "\(console.notes)")
        // The object holds the text as stored.
        #expect(h.string(#"type(races:first("id == 16").date)"#) == "string")
        // Summarize counts no null and one text; histogram says it left the text out.
        h.run(
            #"""
            local s = summarize("races")
            local d = s[2]
            assert(d.column == "date" and d.nulls == 0 and d.text == 1 and d.count == 20, tostring(d.nulls) .. " " .. tostring(d.text))
            """#)
        let chart = h.string(#"histogram(fetch("races"), "date", { bins = 2 })"#) ?? ""
        #expect(chart.hasSuffix("\n1 cell is text, not a date, left out"), "\(chart)")
    }

    /// A layout most of the column's values are not in is refused, and nothing is declared.
    @Test func aLayoutMostValuesAreNotInIsRefused() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, made TEXT);
            INSERT INTO t (made) VALUES ('2021-01-01'), ('01/02/2021'), ('03/04/2021'), (NULL);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let refusal = h.error(#"format("t", "made", "iso-date")"#)
        #expect(
            refusal.contains("2 of 3 values of t.made are no iso-date (e.g. '01/02/2021', id 2)") && refusal.contains("nothing was declared"),
            "\(refusal)")
        #expect(h.string(#"count("t", "made == '2021-01-01'")"#) == "1", "still text")
    }

    /// A year alone (`2013`, as Spotify's `release_date` keeps a year's albums) is no date,
    /// in SQL as in memory: SQLite's `julianday()` read it as a Julian day number, so
    /// `release_date < '2000-01-01'` counted it, summarize's min was out of range and its
    /// mean centuries early, with no note from `format()`.
    @Test func aYearAloneIsNoDateInSQLEither() throws {
        let path = try foreignFile(
            """
            CREATE TABLE albums (id INTEGER PRIMARY KEY, release_date TEXT);
            INSERT INTO albums (release_date) VALUES ('2018-05-11'), ('2013'), ('1998-11-09'), ('2022-03-25'), ('1995');
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let console = ConsoleAndFailureTests.RecordingConsole()
        let h = try Harness(context: try StoreOpener.open(path), console: console)
        h.run(#"format("albums", "release_date", "iso-date")"#)
        #expect(
            console.notes.last
                == "note: 2 values of albums.release_date are no iso-date (e.g. '2013', id 2): they read as text and no date comparison takes them",
            "\(console.notes)")
        #expect(h.string(#"count("albums", "release_date < '2000-01-01'")"#) == "1")
        #expect(h.string(#"count("albums", "release_date.year < 2000")"#) == "1")
        h.run(
            #"""
            local d = summarize("albums")[2]
            assert(d.column == "release_date" and d.text == 2 and d.count == 5, tostring(d.text))
            assert(d.min == date("1998-11-09") and d.max == date("2022-03-25"), tostring(d.min))
            """#)
    }

    /// SQL and memory agree over every text layout, a malformed text, NULL and bytes.
    @Test(arguments: [
        ("iso-date", "2021-07-01", "2020-07-01"), ("iso-space", "2021-07-01 10:00:00", "2020-07-01 10:00:00"),
        ("iso-t", "2021-07-01T10:00:00", "2020-07-01T10:00:00"), ("20210101", "20210701", "20200701"),
        ("20210101T000000", "20210701T100000", "20200701T100000")
    ])
    func sqlAndMemoryAgree(_ layout: String, _ late: String, _ early: String) throws {
        let path = try foreignFile(
            """
            CREATE TABLE ev (id INTEGER PRIMARY KEY, t TEXT);
            INSERT INTO ev (t) VALUES ('\(late)'), ('2025-05-2025'), (NULL), ('\(early)'), ('abc'), (x'0102'), ('\(late)'), ('\(late)'),
              ('2013'), ('12:30'), ('\(late)'), ('\(late)');
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            format("ev", "t", "\#(layout)")
            failures = {}
            local d = date("2021-01-01T00:00:00Z")
            for _, p in ipairs{ "t > %@", "t < %@", "t == %@", "t != %@", "t == nil", "t != nil", "NOT (t > %@)",
                                "t >= %@ OR t == nil", "t BETWEEN {%@, %@}", "t.year == 2021", "t.month != 7" } do
              -- As many arguments as the predicate has placeholders: an extra one is refused.
              local args = { table.unpack({ d, d }, 1, select(2, p:gsub("%%@", ""))) }
              local inSQL = count("ev", p, table.unpack(args))
              local pr, inMemory = predicate(p, table.unpack(args)), 0
              for _, o in ipairs(fetch("ev")) do if pr:matches(o) then inMemory = inMemory + 1 end end
              if inSQL ~= inMemory then failures[#failures + 1] = p .. ": SQL " .. inSQL .. ", memory " .. inMemory end
            end
            """#)
        #expect(h.string("#failures") == "0", "\(layout): \(h.string("table.concat(failures, '; ')") ?? "")")
        // Not vacuous: the dates are read, the texts that are none are values, not nil.
        #expect(h.string(#"count("ev", "t > %@", date("2021-01-01T00:00:00Z"))"#) == "5", "\(layout)")
        #expect(h.string(#"count("ev", "t < %@", date("2021-01-01T00:00:00Z"))"#) == "1", "\(layout)")
        #expect(h.string(#"count("ev", "t == nil")"#) == "2", "\(layout): NULL and the bytes")
    }
}

import Foundation
import Testing

/// Issue 80's moments of a newcomer's trial on unseen data, typed as a person types: one
/// date read three ways (a table, `summarize`, a histogram), a `…` line standing where the
/// one row it hid would have stood, an export that wrote an unsaved change without a word
/// where `summarize` said it left it out, and `= NULL` read as NSPredicate reads it.
@Suite struct REPLIssue80ShowMomentsTests {
    /// The cells of a table's row that starts with `first`, trimmed.
    private func cells(_ lines: [String], _ first: String) throws -> [String] {
        let row = try #require(lines.first { $0.hasPrefix(first + " ") }, "a row \(first): \(lines)")
        return row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A bar's label: what stands before its axis (`│`, or `|` where the terminal's
    /// locale draws ASCII).
    private static func label(_ line: String) -> String {
        String(line.split(whereSeparator: { $0 == "│" || $0 == "|" }).first ?? "").trimmingCharacters(in: .whitespaces)
    }

    /// On a terminal wide enough for a summary of whole dates (every statistic in view).
    @Test func aDateReadsAsATableWritesItInASummaryAndAHistogram() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "q.db",
            """
            CREATE TABLE quake (id INTEGER PRIMARY KEY, time TEXT, mag REAL);
            INSERT INTO quake (time, mag) VALUES ('2024-03-05T10:15:00Z', 4.5), ('2024-03-05T22:40:30Z', 5.1),
              ('2024-03-07T03:00:00Z', 3.2), ('2024-04-01T12:00:00Z', 6.0);
            """)
        let declared = try await sandbox.quarry(["q.db", "-e", #"format("quake", "time", "iso-t")"#])
        try #require(declared.status == 0, "\(declared)")
        let repl = try await TmuxSession(sandbox, arguments: ["q.db"], columns: 200)
        try await repl.waitForPrompt()
        let table = try await repl.enter(#"=fetch{ "quake", sort = "time" }"#)
        let (first, last) = (try cells(table, "quake/1")[2], try cells(table, "quake/4")[2])
        #expect(first == "2024-03-05T10:15:00Z" && last == "2024-04-01T12:00:00Z", "\(table)")
        // The summary's min and max read as the table's cells; its mean as a table writes
        // a date of whole seconds (the column's precision), not as a day.
        let summary = try await repl.enter(#"summarize("quake")"#)
        let header = try cells(summary, "column")
        let time = try cells(summary, "time")
        try #require(header.count == time.count, "\(summary)")
        let column = { (name: String) in header.firstIndex(of: name).map { time[$0] } ?? "" }
        #expect(column("min") == first && column("max") == last, "\(summary)")
        for statistic in ["mean", "q25", "q50", "q75"] {
            let text = column(statistic)
            #expect(
                text.count == 20 && text.hasPrefix("2024-0") && text.dropFirst(10).first == "T" && text.hasSuffix("Z"), "\(statistic): \(summary)")
        }
        // The histogram's labels too: its first edge is the table's first date, its last the last.
        let chart = try await repl.enter(#"print(histogram("quake", "time", { bins = 3 }))"#)
        #expect(chart.first == "time: 4 values in 3 bins", "\(chart)")
        let labels = chart.dropFirst().map(Self.label)
        #expect(labels.count == 3 && labels.first?.hasPrefix(first + " – ") == true && labels.last?.hasSuffix(" – " + last) == true, "\(chart)")
        #expect(labels.allSatisfy { $0.count == 43 && !$0.contains("…") }, "whole, uncut: \(chart)")
        // Grouped by day: the days, as before.
        let days = try await repl.enter(
            #"=fetch{ "quake", result = "dictionaries", properties = { "time.date", "count(*)" }, group = { "time.date" } }"#)
        #expect(days.dropFirst(2).prefix(3).map { String($0.prefix(12)) } == ["2024-03-05 |", "2024-03-07 |", "2024-04-01 |"], "\(days)")
        // And a bar chart of the same rows labels its bars with the same days.
        let bars = try await repl.enter(
            #"print(barchart(fetch{ "quake", result = "dictionaries", properties = { "time.date", "count(*)" }, group = { "time.date" } }, "time.date", "count"))"#
        )
        #expect(bars.dropFirst().map(Self.label) == ["2024-03-05", "2024-03-07", "2024-04-01"], "\(bars)")
        // Sections by day are titled with the day; by the time itself, with the table's text.
        let byDay = try await repl.enter(#"=fetch{ "quake", section = "time.date", sort = "time" }"#)
        #expect(
            byDay.filter { $0.hasPrefix("[") } == ["[time.date = 2024-03-05]", "[time.date = 2024-03-07]", "[time.date = 2024-04-01]"], "\(byDay)")
        let byTime = try await repl.enter(#"=fetch{ "quake", section = "time", sort = "time" }"#)
        #expect(byTime.first == "[time = \(first)]", "\(byTime)")
    }

    @Test func datesAtMidnightReadAsDaysInATableASummaryAndAHistogram() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox, columns: 200)
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"entity "Ev" { when = "date" }"#)
        _ = try await repl.enter(#"for _, d in ipairs{ "2024-03-01", "2024-03-11", "2024-03-21" } do Ev:new{ when = date(d) } end; save()"#)
        let table = try await repl.enter(#"=fetch{ "Ev", sort = "when" }"#)
        let (first, last) = (try cells(table, "Ev/1")[1], try cells(table, "Ev/3")[1])
        #expect(first == "2024-03-01" && last == "2024-03-21", "\(table)")
        let summary = try await repl.enter(#"summarize("Ev")"#)
        let header = try cells(summary, "column")
        let when = try cells(summary, "when")
        let column = { (name: String) in header.firstIndex(of: name).map { when[$0] } ?? "" }
        #expect(column("min") == "2024-03-01" && column("max") == "2024-03-21" && column("mean") == "2024-03-11", "\(summary)")
        let chart = try await repl.enter(#"print(histogram("Ev", "when", { bins = 2 }))"#)
        let labels = chart.dropFirst().map(Self.label)
        #expect(labels == ["2024-03-01 – 2024-03-11", "2024-03-11 – 2024-03-21"], "\(chart)")
    }

    /// `.maxrows 6` over sections of 4 and 3 objects: a share of 3 rows each, where the
    /// section of 4 hid its third row behind a line of `…` as tall as the row. Now it
    /// shows the row; two rows or more are still hidden behind the line.
    @Test func oneRowIsShownRatherThanHiddenBehindAnEllipsisLine() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "t.db",
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, g TEXT);
            INSERT INTO t (g) VALUES ('a'), ('a'), ('a'), ('a'), ('b'), ('b'), ('b');
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["t.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(".maxrows 6")
        let isGap = { (line: String) in line.contains("…") && line.allSatisfy { "…|+- ".contains($0) } }
        let sectioned = try await repl.enter(#"=fetch{ "t", section = "g", sort = { "g", "id" } }"#)
        #expect(!sectioned.contains(where: isGap) && !sectioned.joined().contains("hidden"), "\(sectioned)")
        for id in 1...7 { #expect(sectioned.contains { $0.hasPrefix("t/\(id) ") }, "t/\(id): \(sectioned)") }
        #expect(sectioned.contains("(4 objects)") && sectioned.contains("(3 objects)"), "\(sectioned)")
        // A flat table of 7 rows and dictionary rows alike; at .maxrows 5 two rows hide behind "…".
        let flat = try await repl.enter(#"=fetch{ "t", sort = "id" }"#)
        #expect(!flat.contains(where: isGap) && flat.filter { $0.hasPrefix("t/") }.count == 7 && flat.last == "(7 objects)", "\(flat)")
        let rows = try await repl.enter(#"=fetch{ "t", result = "dictionaries", properties = { "id", "g" } }"#)
        #expect(!rows.contains(where: isGap) && rows.last == "(7 rows)", "\(rows)")
        _ = try await repl.enter(".maxrows 5")
        let cut = try await repl.enter(#"=fetch{ "t", sort = "id" }"#)
        #expect(cut.contains(where: isGap) && cut.last?.hasPrefix("(7 objects), 2 rows hidden") == true, "\(cut)")
    }

    /// One pending insert: `summarize` leaves it out and says so; `export` of the same
    /// objects writes it, and says that in the same words. `n = NULL` counts the rows whose
    /// `n` is nil, as NSPredicate's `== nil` does, and says so once a session. A script says
    /// neither note, and writes and counts the same.
    @Test func exportSaysItWroteAnUnsavedChangeAndEqualsNullIsNotedOnce() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "n.db",
            """
            CREATE TABLE item (id INTEGER PRIMARY KEY, title TEXT, n INTEGER);
            INSERT INTO item (title, n) VALUES ('a', 1), ('b', NULL), ('c', 3);
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["n.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"item:new{ title = "d", n = 4 }"#)
        let summary = try await repl.enter(#"summarize("item")"#)
        #expect(summary.contains("note: 1 unsaved change to item is not in these rows (save() first)"), "\(summary)")
        let exported = try await repl.enter(#"=export(fetch("item"), "out.csv")"#)
        #expect(
            exported == [
                "note: 1 unsaved change to item is in the rows written (the store does not hold it until save())", "wrote 4 objects to out.csv", "4"
            ],
            "\(exported)")
        #expect(try sandbox.read("out.csv").split(separator: "\n").count == 5, "a header and 4 rows")
        let note = "note: == nil matches missing values here (NSPredicate), unlike SQL's = NULL, which is never true"
        #expect(try await repl.enter(#"=count("item", "n = NULL")"#) == [note, "1"])
        #expect(try await repl.enter(#"=count("item", "n == nil")"#) == ["1"])
        // The operator written is the one said: `!= nil` was told what `== nil` does (trial 23).
        let elsewhere = try Sandbox()
        try await sqlite3(
            elsewhere, "n.db", "CREATE TABLE item (id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO item (n) VALUES (1), (NULL), (3);")
        let other = try await TmuxSession(elsewhere, arguments: ["n.db"])
        try await other.waitForPrompt()
        let present = "note: != nil matches values that are present here (NSPredicate), unlike SQL's <> NULL, which is never true"
        // Core Data's own `!= nil` gets no note (trial 25: noise to an app developer).
        #expect(try await other.enter(#"=count("item", "n != nil")"#) == ["2"])
        #expect(try await other.enter(#"=count("item", "n <> NULL")"#) == [present, "2"])

        let script = try await sandbox.quarry([
            "n.db", "-e", #"item:new{ title = "e" }; print(export(fetch("item"), "s.csv")); print(count("item", "n = NULL"))"#
        ])
        #expect(script.status == 0 && script.stdout == "4\n2\n", "\(script)")
        #expect(!script.stderr.contains("rows written") && !script.stderr.contains("== nil"), "\(script)")
    }
}

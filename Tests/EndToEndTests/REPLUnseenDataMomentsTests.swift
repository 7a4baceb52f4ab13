import Foundation
import Testing

/// Display moments of a newcomer's trial on unseen data, typed as a person types: a
/// histogram of years labelled as years, ending at the last year; an estimated distinct
/// count marked on its value; days as days in grouped tables; `rollback()` saying what it
/// dropped at the prompt; a column's date format read past empty cells; bar values as the
/// table shows them.
@Suite struct REPLUnseenDataMomentsTests {
    /// The label before the chart's axis on each bar's line.
    private func labels(_ chart: [String]) -> [String] {
        chart.dropFirst().filter { $0.contains("│") || $0.contains("|") }.map {
            String($0.split(whereSeparator: { $0 == "│" || $0 == "|" }).first ?? "").trimmingCharacters(in: .whitespaces)
        }
    }

    /// Films from 1990 to 2020: bins labelled `1990 – 1993`, as a table writes a year, not
    /// `1,990 – 1,993`; the last bin ends at 2020, the last year, not past it. Budgets in
    /// the millions keep their separators.
    @Test func aHistogramOfYearsLabelsYearsAndEndsAtTheLast() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "f.db",
            """
            CREATE TABLE film (id INTEGER PRIMARY KEY, year INTEGER, budget INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 61)
            INSERT INTO film (year, budget) SELECT 1990 + i % 31, 250000 + i * 3000000 FROM n;
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["f.db"], columns: 120)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let chart = try await repl.enter(#"=histogram("film", "year")"#)
        let years = labels(chart)
        try #require(years.count >= 2, "\(chart)")
        #expect(years.allSatisfy { !$0.contains(",") }, "years bare: \(chart)")
        #expect(years.first?.hasPrefix("1990 – ") == true, "\(chart)")
        #expect(years.last?.hasSuffix(" – 2020") == true, "the last bin ends at the last year: \(chart)")
        // Each bin counts what sqlite3 counts between its ends.
        for label in years {
            let ends = label.components(separatedBy: " – ")
            try #require(ends.count == 2, "\(chart)")
            let counted = try await sqlite3(sandbox, "f.db", "SELECT count(*) FROM film WHERE year BETWEEN \(ends[0]) AND \(ends[1])")
            let line = try #require(chart.first { $0.contains(label + " ") })
            #expect(line.hasSuffix(" " + counted), "\(label): \(chart)")
        }
        // Magnitudes keep their separators, and their last bin ends at the largest too.
        let budgets = labels(try await repl.enter(#"=histogram("film", "budget", { bins = 4 })"#))
        #expect(budgets.count == 4 && budgets.allSatisfy { $0.contains(",") }, "\(budgets)")
        let most = try await sqlite3(sandbox, "f.db", "SELECT printf('%,d', max(budget)) FROM film")
        #expect(budgets.last?.hasSuffix(" – " + most) == true, "\(budgets)")
    }

    /// 20,000 distinct codes: summarize's distinct count is an estimate past 16,384, shown
    /// `~` on the value with a line under the table saying so; the rows keep the integer,
    /// and CSV writes it unmarked.
    @Test func anEstimatedDistinctCountIsMarkedOnItsValue() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "c.db",
            """
            CREATE TABLE reading (id INTEGER PRIMARY KEY, code INTEGER, kind TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO reading (code, kind) SELECT i * 7, 'k' || (i % 3) FROM n;
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["c.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let table = try await repl.enter(#"=summarize("reading")"#)
        let code = try #require(table.first { $0.hasPrefix("code ") }, "\(table)")
        let cells = code.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let header = try #require(table.first).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let distinct = try #require(header.firstIndex { $0.hasPrefix("distinct") }, "\(table)")
        #expect(cells[distinct].hasPrefix("~"), "the estimate marked on its value: \(table)")
        #expect(Int(cells[distinct].dropFirst()) != nil, "\(table)")
        // The few distinct kinds are counted, not estimated: no mark there.
        let kind = try #require(table.first { $0.hasPrefix("kind ") }, "\(table)")
        #expect(kind.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }[distinct] == "3", "\(table)")
        #expect(
            table.last == "~ estimated distinct counts (HyperLogLog, about 0.8% off); summarize(source, { exact = true }) reads every value",
            "\(table)")
        // The value stays the integer it was; CSV writes it bare.
        let value = try await repl.enter(
            #"for _, s in ipairs(summarize("reading")) do if s.column == "code" then print(math.type(s.distinct), s.distinct > 19000) end end"#)
        #expect(value.map { $0.split(whereSeparator: \.isWhitespace) } == [["integer", "true"]], "\(value)")
        _ = try await repl.enter(".mode csv")
        let csv = try await repl.enter(#"=summarize("reading")"#)
        #expect(!csv.contains { $0.contains("~") }, "\(csv)")
        // Counted exactly, nothing is marked.
        _ = try await repl.enter(".mode table")
        let exact = try await repl.enter(#"=summarize("reading", { exact = true })"#)
        #expect(!exact.contains { $0.contains("~") }, "\(exact)")
        #expect(exact.contains { $0.hasPrefix("code ") && $0.contains(" 20000 ") }, "\(exact)")
    }

    /// Dates imported from a CSV of days show as days in a grouped table, as `find` shows
    /// them; one value with a time of day keeps a column as instants.
    @Test func daysShowAsDaysInGroupedTables() async throws {
        let sandbox = try Sandbox()
        _ = try sandbox.write("hires.csv", "emp_no,hired\n1,2003-07-01\n2,1986-06-26\n3,2003-07-01\n")
        _ = try sandbox.write("stamps.csv", "emp_no,at\n1,2003-07-01T00:00:00Z\n2,2003-07-01T09:30:00Z\n")
        let imported = try await sandbox.quarry([
            "s.db", "-e", #"import("hires.csv", { entity = "Hire" }); import("stamps.csv", { entity = "Stamp" })"#
        ])
        try #require(imported.status == 0, "\(imported)")
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let grouped = try await repl.enter(#"=fetch{ "Hire", group = "hired", properties = { "hired", "count(*)" }, sort = "hired" }"#)
        #expect(grouped.contains { $0.hasPrefix("1986-06-26 ") } && grouped.contains { $0.hasPrefix("2003-07-01 ") }, "\(grouped)")
        #expect(!grouped.contains { $0.contains("T00") }, "\(grouped)")
        // Dictionary results read from Lua print so too.
        let printed = try await repl.enter(#"print(fetch{ "Hire", group = "hired", properties = { "hired", "count(*)" }, sort = "hired" })"#)
        #expect(printed.contains { $0.hasPrefix("2003-07-01 ") } && !printed.contains { $0.contains("T00") }, "\(printed)")
        // Instants stay instants, the midnight one too.
        let stamps = try await repl.enter(#"=fetch{ "Stamp", group = "at", properties = { "at", "count(*)" }, sort = "at" }"#)
        #expect(stamps.contains { $0.contains("2003-07-01T00:00:00Z") }, "\(stamps)")
        // The rows keep dates.
        let typed = try await repl.enter(#"print(typeof(fetch{ "Hire", group = "hired", properties = { "hired" } }[1].hired))"#)
        #expect(typed == ["date"], "\(typed)")
    }

    /// `rollback()` at the prompt says what it dropped, as `.changes` counts it, and that
    /// there was nothing; in a script it says nothing and still returns nothing.
    @Test func rollbackAtThePromptSaysWhatItDropped() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "n.db",
            "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO note (body) VALUES ('one'), ('two');")
        let repl = try await TmuxSession(sandbox, arguments: ["n.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"local o = note:new{ body = "three" }; note:get(1).body = "uno"; note:get(2):delete()"#)
        let dropped = try await repl.enter("rollback()")
        #expect(dropped == ["rolled back 3 pending changes (1 inserted, 1 updated, 1 deleted)"], "\(dropped)")
        let nothing = try await repl.enter("rollback()")
        #expect(nothing == ["nothing to roll back"], "\(nothing)")
        let changes = try await repl.enter(".changes")
        #expect(changes == ["inserted: none", "updated: none", "deleted: none"], "\(changes)")
        // A script: silent, and rollback() still returns no value.
        let script = try await sandbox.quarry(["n.db", "-e", ##"note:new{ body = "x" }; print(select("#", rollback())); rollback()"##])
        #expect(script.status == 0 && script.stdout == "0\n" && script.stderr.isEmpty, "\(script)")
    }

    /// A file filled from a CSV keeps missing dates as '' (and NULL): format() reads the
    /// layout of the dates past them, where it found "values that are no date", and a date
    /// written there takes it; a TEXT column of such dates is text, written as given, and
    /// format() says which declaration makes it a date.
    @Test func formatReadsDatesPastEmptyCells() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "e.db",
            """
            CREATE TABLE event (id INTEGER PRIMARY KEY, day DATE, at DATETIME, noted TEXT);
            INSERT INTO event (day, at, noted) VALUES ('2020-01-02', '2020-01-02 10:00:00', '2020-01-02'), ('', '', ''),
              (NULL, NULL, NULL), ('2020-03-04', '2020-03-04 11:30:00', '2020-03-04');
            """)
        let result = try await sandbox.quarry([
            "e.db", "-e",
            #"""
            print(format("event", "day")); print(format("event", "at")); print(format("event", "noted"))
            event:get(3).day = date("2021-05-06"); event:get(3).at = date("2021-05-06T07:08:09Z"); save()
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["iso-date", "iso-space", "plain"], "\(result)")
        let hint = #"its text reads as ISO 8601 times: format("event", "noted", "iso-date") makes it a date"#
        #expect(result.stderr.contains("note: event.noted is text, written as given; " + hint), "\(result)")
        let stored = try await sqlite3(sandbox, "e.db", "SELECT day || ' ' || at FROM event WHERE id = 3")
        #expect(stored == "2021-05-06 2021-05-06 07:08:09", "written in the column's layout: \(stored)")
    }

    /// A bar chart's values read as the table of the same rows shows them: Lua's own
    /// `tostring` form (`%.14g`), as issue 80 decided for every number the REPL shows,
    /// charts' labels included (6 significant digits are summarize's and histogram edges'
    /// alone); whole counts bare below 10,000.
    @Test func barValuesReadAsTheTableShowsThem() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "p.db",
            """
            CREATE TABLE sale (id INTEGER PRIMARY KEY, region TEXT, price REAL);
            INSERT INTO sale (region, price) VALUES ('east', 1234.56789012345), ('east', 0.1), ('west', 0.2), ('west', 0.1),
              ('north', 99.5);
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["p.db"], columns: 120)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let query = #"sql("SELECT region, avg(price) AS a FROM sale GROUP BY region ORDER BY region")"#
        let table = try await repl.enter("=" + query)
        let chart = try await repl.enter("=barchart(\(query), \"region\", \"a\")")
        for region in ["east", "north", "west"] {
            let cell = try #require(table.first { $0.hasPrefix(region + " ") }?.split(separator: "|").last, "\(table)")
            let bar = try #require(chart.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(region + " ") }, "\(chart)")
            #expect(bar.hasSuffix(" " + cell.trimmingCharacters(in: .whitespaces)), "\(region): \(table) \(chart)")
        }
        #expect(chart.contains { $0.hasSuffix(" 0.15") }, "0.1 + 0.2 over 2, as tostring writes it: \(chart)")
        let counts = try await repl.enter(#"=barchart("sale", "region")"#)
        #expect(counts.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("east ") && $0.hasSuffix(" 2") }, "\(counts)")
    }
}

import Foundation
import Testing

/// The last newcomer moments of issue 80, typed as a person types: a histogram of an
/// integer column labelled with integers, a long text cut before a narrow column leaves
/// a wide terminal, and `created.year` on a text column of ISO times naming the
/// `format()` that makes it a date.
@Suite struct REPLIssue80LastMomentsTests {
    /// `histogram("visit", "seconds")` on an INTEGER column: every edge an integer, bare
    /// where every number of the chart is under 10,000 (`1009`, as a table writes it),
    /// buckets of one integer width that follow each other (`10 – 509`, `510 – 1009`), the
    /// last ending at the largest value, each counting what sqlite3 counts in it.
    @Test func anIntegerHistogramHasIntegerEdgesCountedAsSqlite3Counts() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "v.db",
            """
            CREATE TABLE visit (id INTEGER PRIMARY KEY, seconds INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
            INSERT INTO visit (seconds) SELECT 10 + (i * i * 37) % 4990 FROM n;
            INSERT INTO visit (seconds) VALUES (NULL);
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["v.db"], columns: 160)
        try await repl.waitForPrompt()
        let chart = try await repl.enter(#"print(histogram("visit", "seconds"))"#)
        let values = try await sqlite3(sandbox, "v.db", "SELECT count(seconds) FROM visit")
        let title = try #require(chart.first)
        #expect(title.hasPrefix("seconds: \(values) values in "), "\(chart)")
        // The one NULL is left out, and said so on the chart's last line.
        #expect(chart.last == "1 value is nil, left out", "\(chart)")
        let rows = chart.dropFirst().filter { !$0.hasSuffix("left out") }.map { line -> (String, String) in
            let label = line.split(whereSeparator: { $0 == "│" || $0 == "|" }).first.map(String.init) ?? ""
            return (label.trimmingCharacters(in: .whitespaces), String(line.split(separator: " ").last ?? ""))
        }
        try #require(rows.count >= 2 && rows.count <= 10, "\(chart)")
        var previousUpper: Int?
        var widths: [Int] = []
        for (label, count) in rows {
            let ends = label.components(separatedBy: " – ")
            #expect(ends.count == 2 && !label.contains("."), "an integer label: \(label)")
            let numbers = ends.compactMap { Int($0.replacingOccurrences(of: ",", with: "")) }
            try #require(numbers.count == 2, "\(label)")
            // Under 10,000 no number of the chart is grouped: 1009 rather than 1,009.
            #expect(!label.contains(","), "\(label)")
            if let previousUpper { #expect(numbers[0] == previousUpper + 1, "\(chart)") }
            previousUpper = numbers[1]
            widths.append(numbers[1] - numbers[0])
            let counted = try await sqlite3(sandbox, "v.db", "SELECT count(*) FROM visit WHERE seconds BETWEEN \(numbers[0]) AND \(numbers[1])")
            #expect(count == counted, "\(label): \(chart)")
        }
        // One width, but for the last bucket, which ends at the largest value.
        #expect(Set(widths.dropLast()).count == 1 && (widths.last ?? 0) <= (widths.first ?? 0), "one width: \(chart)")
        let most = try await sqlite3(sandbox, "v.db", "SELECT max(seconds) FROM visit")
        #expect(rows.last?.0.hasSuffix(" – " + most) == true, "\(chart)")
        #expect(rows.first?.0.hasPrefix(try await sqlite3(sandbox, "v.db", "SELECT min(seconds) FROM visit") + " – ") == true, "\(chart)")
    }

    /// A 160-column terminal and recipes whose text is long: the long columns are cut
    /// (with "…") so that every column stays in view, `vegetarian` too; a table too wide
    /// even with its text cut to 12 leaves columns out, as before.
    @Test func longTextIsCutBeforeANarrowColumnLeavesAWideTerminal() async throws {
        let sandbox = try Sandbox()
        try await recipes(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["r.db"], columns: 160)
        try await repl.waitForPrompt()
        let table = try await repl.enter(#"=fetch{ "recipe", sort = "id" }"#)
        #expect(table.allSatisfy { $0.count <= 160 }, "\(table)")
        let header = try #require(table.first)
        for column in ["name", "description", "instructions", "source_url", "cuisine", "servings", "vegetarian"] {
            #expect(header.contains(column), "\(column) in view: \(table)")
        }
        #expect(!table.contains { $0.contains("… +") }, "no column left out: \(table)")
        // The long ones gave up their width, cut with "…", and the flags are there.
        let first = try #require(table.dropFirst(2).first)
        #expect(first.contains("…") && first.contains("Ratatouille") && first.hasSuffix(" 1"), "\(table)")
        // Whole in line mode, as the footer of a narrower table says.
        _ = try await repl.enter(".mode line")
        let whole = try await repl.enter(#"=fetch{ "recipe", sort = "id", limit = 1 }"#)
        #expect(whole.joined().contains("ratatouille-the-slow-way"), "\(whole)")
        // Too wide even with text cut to 12: columns past the edge are left out.
        let small = try Sandbox()
        try await recipes(small)
        let narrow = try await TmuxSession(small, arguments: ["r.db"], columns: 60)
        try await narrow.waitForPrompt()
        let cut = try await narrow.enter(#"=fetch{ "recipe", sort = "id" }"#)
        // (The footer is longer than the pane, which wraps it: read joined.)
        #expect(cut.joined().contains("objects), … +") && !(cut.first ?? "").contains("vegetarian"), "\(cut)")
    }

    private func recipes(_ sandbox: Sandbox) async throws {
        _ = try await sqlite3(
            sandbox, "r.db",
            """
            CREATE TABLE recipe (id INTEGER PRIMARY KEY, name TEXT, description TEXT, instructions TEXT, source_url TEXT,
              cuisine TEXT, servings INTEGER, vegetarian INTEGER);
            INSERT INTO recipe (name, description, instructions, source_url, cuisine, servings, vegetarian) VALUES
              ('Ratatouille', 'A Provençal stew of summer vegetables, slowly cooked in olive oil with thyme and garlic until soft',
               'Cut the aubergine, courgettes and peppers; fry each apart; stew them with tomatoes for an hour; rest before serving',
               'https://recipes.example.org/provence/summer/ratatouille-the-slow-way', 'French', 4, 1),
              ('Coq au vin', 'Chicken braised in red wine with lardons, mushrooms and small onions, a Burgundy classic for winter',
               'Brown the chicken and lardons; flame with brandy; add the wine and herbs; braise two hours; finish with mushrooms',
               'https://recipes.example.org/burgundy/winter/coq-au-vin-as-grandmother-made-it', 'French', 6, 0);
            """)
    }

    /// `properties = { "created.year" }` and `group` on a TEXT column of ISO times: the
    /// refusal names the `format()` that makes it a date, in the words a predicate
    /// comparing it with a date uses; following it, the years count as sqlite3's do.
    @Test func aDatePartOfISOTextNamesTheFormatThatMakesItADate() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "n.db",
            """
            CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT, created TEXT);
            INSERT INTO note (body, created) VALUES ('a', '2022-07-21 20:28:54'), ('b', '2023-01-02 08:00:00'),
              ('c', '2023-03-04 09:30:00'), ('d', '2024-12-31 23:59:59');
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["n.db"], columns: 160)
        try await repl.waitForPrompt()
        let hint = #"its text reads as ISO 8601 times: format("note", "created", "iso-space") makes it a date"#
        let compared = try await repl.enter(#"=count("note", "created > %@", date("2023-01-01"))"#).joined()
        #expect(compared.contains(hint), "the predicate's hint: \(compared)")
        let properties = try await repl.enter(#"=fetch{ "note", properties = { "created.year" } }"#).joined()
        #expect(properties.contains("'created'") && properties.contains(hint), "\(properties)")
        let grouped = try await repl.enter(#"=fetch{ "note", properties = { "count(*)" }, group = { "created.year" } }"#).joined()
        #expect(grouped.contains(hint), "\(grouped)")
        // Text that is no time gets no such hint.
        let body = try await repl.enter(#"=fetch{ "note", properties = { "body.year" } }"#).joined()
        #expect(body.contains("'body.year': body is text, not a date") && !body.contains("format("), "\(body)")
        // Following the hint: the years, counted as sqlite3 counts them.
        _ = try await repl.enter(#"format("note", "created", "iso-space")"#)
        let years = try await repl.enter(
            #"for _, r in ipairs(fetch{ "note", properties = { "created.year", "count(*)" }, group = { "created.year" } }) do print(r["created.year"] .. "=" .. r.count) end"#
        )
        let hand = try await sqlite3(
            sandbox, "n.db", "SELECT y || '=' || n FROM (SELECT strftime('%Y', created) AS y, count(*) AS n FROM note GROUP BY y)")
        #expect(years.sorted() == hand.split(separator: "\n").map(String.init).sorted(), "\(years)")
    }
}

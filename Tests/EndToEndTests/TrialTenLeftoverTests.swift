import Foundation
import Testing

/// The moments of the tenth trial left open: what a new user met on files Quarry did not
/// make (a `numeric(10,2)` column, money and dates kept as text), typed at the prompt as a
/// person types, or run as a person runs a batch.
@Suite struct TrialTenLeftoverTests {
    /// A table and a row of another program's file: a `numeric(10,2)` column SQLite keeps
    /// whole values of as integers, money and dates as text, a REAL column of noise.
    private func shop(_ sandbox: Sandbox) async throws {
        try await sqlite3(
            sandbox, "shop.db",
            """
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, region TEXT, creditLimit numeric(10,2));
            INSERT INTO customers VALUES (1, 'Atelier', 'West', 21000), (2, 'Signal', 'West', 12.5), (3, 'Euro', 'East', 227600.00),
              (4, 'Mini', 'East', 210500), (5, 'Land', 'East', 90000), (6, 'Baane', 'North', NULL);
            CREATE TABLE sales (id INTEGER PRIMARY KEY, region TEXT, total TEXT, day TEXT, price REAL);
            INSERT INTO sales (region, total, day, price) VALUES ('West', '$1,200', '31/12/2021', 0.1), ('West', '$800', '01/02/2022', 0.2),
              ('East', '$50', '15/01/2021', 0.7), ('East', '25', '02/03/2021', 0.1);
            """)
    }

    /// Whole values of a `numeric(10,2)` column show as sqlite3 shows them, 21000, in a
    /// table, from `print` and `=o.key`; a fraction keeps its digits.
    @Test func aNumericColumnsWholeValuesShowWithoutPointZero() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["shop.db"], columns: 160)
        try await repl.waitForPrompt()
        let table = try await repl.enter(#"=fetch{ "customers", properties = { "name", "creditLimit" }, sort = "id", limit = 3 }"#)
        #expect(table.contains("Atelier |       21000"), "\(table)")
        #expect(table.contains("Signal  |        12.5"), "\(table)")
        #expect(table.contains("Euro    |      227600"), "\(table)")
        #expect(!table.contains { $0.contains(".0 ") || $0.hasSuffix(".0") }, "no .0 where the cell is an integer: \(table)")
        #expect(try await repl.enter(#"=customers:get(3).creditLimit"#) == ["227600"])
        #expect(try await repl.enter(#"print(customers:get(2).creditLimit)"#) == ["12.5"])
        // The same number given again is no change, as a float or an integer.
        _ = try await repl.enter(#"c = customers:get(1); c.creditLimit = 21000.0; d = customers:get(3); d.creditLimit = 227600"#)
        #expect(try await repl.enter("=haschanges()") == ["false"])
        let objects = try await repl.enter(#"=fetch("customers", "creditLimit > %@", 100000)"#)
        #expect(objects.contains { $0.hasPrefix("customers/3 ") && $0.hasSuffix(" 227600") }, "\(objects)")
    }

    /// `.mode csv` on the terminal shows a sum as a table does (0.3, not
    /// 0.30000000000000004); piped to a program, the same mode writes the exact double.
    @Test func csvModeOnTheTerminalShowsNumbersAsTablesDo() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["shop.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".mode csv")
        let shown = try await repl.enter(#"=fetch{ "sales", properties = { "region", "sum(price) AS p" }, group = { "region" }, sort = "region" }"#)
        #expect(shown == ["region,p", "East,0.8", "West,0.3"], "\(shown)")
        let piped = try await sandbox.quarry(
            ["shop.db", "-"],
            stdin:
                ".mode csv\nprint(fetch{ \"sales\", properties = { \"region\", \"sum(price) AS p\" }, group = { \"region\" }, sort = \"region\" })\n")
        #expect(piped.lines == ["region,p", "East,0.7999999999999999", "West,0.30000000000000004"], "\(piped)")
    }

    /// `sum` and `avg` of a text column (money as '$1,200') give SQLite's figure and one
    /// note counting the cells that are not numbers.
    @Test func aSumOfTextSaysHowManyCellsAreNotNumbers() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["shop.db"], columns: 200)
        try await repl.waitForPrompt()
        let rows = try await repl.enter(#"=fetch{ "sales", properties = { "region", "sum(total) AS s" }, group = { "region" } }"#)
        let notes = rows.filter { $0.hasPrefix("note: text summed") }
        #expect(notes.count == 1 && notes.first?.contains("cells that are not numbers: 3 in sales.total") == true, "\(rows)")
        let numbers = try await repl.enter(#"=fetch{ "customers", properties = { "region", "sum(creditLimit) AS s" }, group = { "region" } }"#)
        #expect(!numbers.contains { $0.contains("not numbers") }, "\(numbers)")
    }

    /// Dates kept as text in another form than ISO 8601: a comparison with a date is refused
    /// naming the form seen, and a sort by them says once that text does not sort in time,
    /// without guessing day from month where the values do not tell.
    @Test func textDatesNotInISOFormAreNamedWhereTheyAreComparedOrSorted() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["shop.db"], columns: 200)
        try await repl.waitForPrompt()
        let compared = try await repl.enter(#"=count("sales", "day > %@", date("2021-06-01"))"#)
        #expect(compared.contains { $0.contains("its text holds dates written 31/12/2021 (dd/mm/yyyy), not ISO 8601") }, "\(compared)")
        let sorted = try await repl.enter(#"=fetch{ "sales", sort = "day" }"#)
        let note = sorted.filter { $0.hasPrefix("note: sales.day holds dates written") }
        #expect(note.count == 1 && note.first?.contains("as text it sorts by its first field, not in time") == true, "\(sorted)")
        let again = try await repl.enter(#"=fetch{ "sales", sort = "-day" }"#)
        #expect(!again.contains { $0.hasPrefix("note:") }, "said once: \(again)")
    }

    /// `entities()` at the prompt is a table, one entity a row, not every definition in
    /// one line; it is still the list of handles.
    @Test func entitiesPrintAsATable() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["shop.db"], columns: 160)
        try await repl.waitForPrompt()
        let listed = try await repl.enter("entities()")
        #expect(listed.first?.hasPrefix("entity    | attributes | relationships") == true, "\(listed)")
        #expect(listed.contains { $0.hasPrefix("customers |          4 |") }, "\(listed)")
        #expect(listed.last == "(2 entities)", "\(listed)")
        #expect(try await repl.enter("=entities()[2].name") == ["sales"])
    }

    /// A diff's model rows say what changed in the key column; piped `.diff` ends as it
    /// does on the command line: 0 the same, 1 different, 2 trouble.
    @Test func aDiffsModelRowsSayWhatChangedAndPipedDiffSetsTheStatus() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        try FileManager.default.copyItem(atPath: sandbox.path("shop.db"), toPath: sandbox.path("same.db"))
        try FileManager.default.copyItem(atPath: sandbox.path("shop.db"), toPath: sandbox.path("other.db"))
        try await sqlite3(sandbox, "other.db", "ALTER TABLE sales ADD COLUMN note TEXT")
        let changed = try await sandbox.quarry(["shop.db", "-"], stdin: ".diff other.db\n")
        #expect(changed.status == 1, "\(changed)")
        #expect(changed.lines.contains { $0.hasPrefix("+      | sales  | added | note") }, "\(changed)")
        #expect(!changed.lines.contains { $0.contains("| model ") }, "\(changed)")
        let same = try await sandbox.quarry(["shop.db", "-"], stdin: ".diff same.db\n")
        #expect(same.status == 0 && same.lines == ["no differences"], "\(same)")
        let trouble = try await sandbox.quarry(["shop.db", "-"], stdin: ".diff nothere.db\nprint('not reached')\n")
        #expect(trouble.status == 2 && !trouble.stdout.contains("not reached"), "\(trouble)")
        let onward = try await sandbox.quarry(["shop.db", "-"], stdin: ".diff other.db\nprint('after')\n")
        #expect(onward.status == 1 && onward.lines.last == "after", "the run goes on: \(onward)")
    }

    /// Bars of grouped rows without a sort, and a count's bars, go longest first; a sort
    /// given keeps its order.
    @Test func barchartsGoLongestFirstUnlessSorted() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["shop.db"], columns: 200)
        try await repl.waitForPrompt()
        func labels(_ lines: [String]) -> [String] {
            // Drawn in ASCII where the locale is not UTF-8, as here (`North |###`).
            lines.filter { $0.contains("|") || $0.contains("│") }.map {
                $0.split(whereSeparator: { $0 == "|" || $0 == "│" })[0].trimmingCharacters(in: .whitespaces)
            }
        }
        let grouped = try await repl.enter(
            #"barchart(fetch{ "customers", properties = { "region", "count(*) AS n" }, group = { "region" } }, "region", "n")"#)
        #expect(labels(grouped) == ["East", "West", "North"], "\(grouped)")
        let sorted = try await repl.enter(
            #"barchart(fetch{ "customers", properties = { "region", "count(*) AS n" }, group = { "region" }, sort = "region" }, "region", "n")"#)
        #expect(labels(sorted) == ["East", "North", "West"], "\(sorted)")
        let counted = try await repl.enter(#"barchart("customers", "region")"#)
        #expect(labels(counted) == ["East", "West", "North"], "\(counted)")
    }

    /// Swift out: a captured date says its day in a comment, before 1970 and after 2038 as
    /// well, and `date.year == 1977` is the range of the date that year, which a
    /// `#Predicate` says and which reads back to the same rows.
    @Test func swiftOutSaysDatesAndWritesAYearAsARange() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "shows.db", "-e",
            #"""
            entity "Show" { date = "date" }
            for _, d in ipairs { "1965-12-01", "1976-12-31T23:59:59Z", "1977-05-08", "1977-12-31T23:59:59Z", "1978-01-01", "2051-03-01" } do
              Show:new{ date = date(d) }
            end
            save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
        let early = try await sandbox.quarry(["shows.db", "-e", #"print(predicate("date < %@", date("1965-12-01")):swift("Show"))"#])
        #expect(early.lines.contains("let date: Date = Date(timeIntervalSinceReferenceDate: -1107216000.0) // 1965-12-01T00:00:00Z"), "\(early)")
        let late = try await sandbox.quarry(["shows.db", "-e", #"print(predicate("date > %@", date("2051-03-01")):swift("Show"))"#])
        #expect(late.lines.contains { $0.hasSuffix("// 2051-03-01T00:00:00Z") }, "\(late)")
        let year = try await sandbox.quarry([
            "shows.db", "-e",
            #"""
            local s = predicate("date.year == 1977"):swift("Show")
            print(s)
            local swift = s:gsub("^//[^\n]*\n", ""):gsub("let query = ", "")
            print(count("Show", swift), count("Show", "date.year == 1977"))
            """#
        ])
        #expect(year.lines.contains("let date: Date = Date(timeIntervalSinceReferenceDate: -757382400.0) // 1977-01-01T00:00:00Z"), "\(year)")
        #expect(year.lines.contains("let date2: Date = Date(timeIntervalSinceReferenceDate: -725846400.0) // 1978-01-01T00:00:00Z"), "\(year)")
        #expect(year.lines.contains { $0.contains("(show.date >= date) && (show.date < date2)") }, "\(year)")
        #expect(year.lines.last == "2\t2", "the range reads back to the year's rows: \(year)")
    }
}

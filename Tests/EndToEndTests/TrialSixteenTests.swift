import Foundation
import Testing

/// A new user's trial on files Quarry did not make (a course's sales file whose tables
/// declare no primary key, with `id` columns of their own; a census file of school
/// districts whose numbers are text): the moments where an answer was not the one the
/// person asked for, without a word, through the real binary.
@Suite struct TrialSixteenTests {
    /// As Udacity's `parch_and_posey.db` has it: no primary key, ids from 1001 in steps
    /// of 10, so an account's id is never its row number.
    private func sales(_ sandbox: Sandbox) async throws {
        _ = try await sqlite3Lines(
            sandbox, "sales.db",
            """
            CREATE TABLE accounts (id integer, name bpchar, sales_rep_id integer);
            INSERT INTO accounts VALUES (1001, 'Walmart', 321500), (1011, 'Exxon Mobil', 321510), (2, 'Apple', 321520);
            CREATE TABLE sd ("sd_name" TEXT, "sd_pop_2010" TEXT);
            INSERT INTO sd VALUES ('Edison', '99967'), ('Carrizo', '9996'), ('New York City', '8175133'), ('Newton', '99917'), ('Zuni', 'x1');
            """)
    }

    /// `accounts:get(1001)` read the row numbered 1001 (its rowid), which is none, and
    /// answered nil where the account whose id is 1001 is there; `get(2)` gave Exxon
    /// (row 2) where Apple's id is 2. The number keeps the object ID's meaning; a note
    /// says which row was read and the call that finds the one meant.
    @Test func getOnATableWithoutAKeySaysWhichRowItRead() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let result = try await sandbox.quarry([
            "sales.db", "-e", #"print(accounts:get(1001)); print(accounts:get(2).name); print(accounts:get(3).id); print(accounts:get(7))"#
        ])
        #expect(result.status == 0 && result.stdout == "nil\nExxon Mobil\n2\nnil\n", "\(result)")
        let notes = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            notes == [
                #"note: accounts declares no primary key, so get(1001) reads the row numbered 1001 (accounts/1001), which is none; the row whose id is 1001 is accounts:first("id == 1001")"#,
                #"note: accounts declares no primary key, so get(2) reads the row numbered 2 (accounts/2), whose id is 1011; the row whose id is 2 is accounts:first("id == 2")"#,
                #"note: accounts declares no primary key, so get(3) reads the row numbered 3 (accounts/3), whose id is 2; no row's id is 3"#
            ], "no row is numbered 7 nor has id 7: nothing to say there: \(result)")
        // The call the note gives finds the row sqlite3 finds.
        let pasted = try await sandbox.quarry(["sales.db", "-e", #"print(accounts:first("id == 1001").name)"#])
        #expect(pasted.stdout == "Walmart\n" && pasted.stderr.isEmpty, "\(pasted)")
        #expect(try await sqlite3Lines(sandbox, "sales.db", "SELECT name FROM accounts WHERE id = 1001") == ["Walmart"])
    }

    /// `sort = "-sd_pop_2010"` on text of numbers put 99967 first and New York City's
    /// 8175133 last, as sqlite3's ORDER BY does, where the person asked for the largest
    /// districts; a predicate comparing the column with a number is refused saying why.
    /// The order stays SQLite's; a note says it is text order and gives the query that
    /// sorts the numbers, once per column.
    @Test func aSortByTextOfNumbersSaysItSortsAsText() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        _ = try await sqlite3Lines(sandbox, "sales.db", "DELETE FROM sd WHERE sd_pop_2010 = 'x1'")
        let result = try await sandbox.quarry([
            "sales.db", "-e",
            #"local r = fetch{ "sd", sort = "-sd_pop_2010" }; print(r[1].sd_name, r[4].sd_name); r = fetch{ "sd", sort = "-sd_pop_2010" }"#
        ])
        #expect(result.status == 0 && result.stdout == "Edison\tNew York City\n", "the order sqlite3 gives: \(result)")
        let note =
            #"note: sd_pop_2010 is text, so it sorts as text (9996 before 99917); sql("SELECT * FROM sd ORDER BY CAST(sd_pop_2010 AS REAL) DESC") sorts it as numbers"#
        #expect(result.stderr == note + "\n", "once: \(result)")
        #expect(
            try await sqlite3Lines(sandbox, "sales.db", "SELECT sd_name FROM sd ORDER BY sd_pop_2010 DESC")
                == ["Edison", "Carrizo", "Newton", "New York City"])
        // The query the note gives sorts the numbers: New York City first.
        let pasted = try await sandbox.quarry([
            "sales.db", "-e", #"print(sql("SELECT * FROM sd ORDER BY CAST(sd_pop_2010 AS REAL) DESC")[1].sd_name)"#
        ])
        #expect(pasted.stdout == "New York City\n", "\(pasted)")
        // Text that is not all numbers, and words, say nothing.
        _ = try await sqlite3Lines(sandbox, "sales.db", "INSERT INTO sd VALUES ('Zuni', 'x1')")
        let words = try await sandbox.quarry([
            "sales.db", "-e", #"local r = fetch{ "sd", sort = "sd_pop_2010" }; r = fetch{ "sd", sort = "sd_name" }"#
        ])
        #expect(words.status == 0 && words.stderr.isEmpty, "\(words)")
    }

    /// `accounts:updateall({ name = "x" })`, the values alone as SQL's `UPDATE ... SET`
    /// without a WHERE reads, said "bad argument #1 to 'updateall' (string expected, got
    /// table)". It names the form that sets every row, and nothing is written.
    @Test func updateallWithTheValuesAloneNamesTheForm() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let result = try await sandbox.quarry(["sales.db", "-e", #"accounts:updateall({ name = "x" })"#])
        #expect(result.status == 1 && !result.stderr.contains("bad argument"), "\(result)")
        #expect(
            result.stderr.contains(
                #"updateall: the values to set come after a predicate and its arguments: updateall(nil, {}, { name = ... }) sets every row"#),
            "\(result)")
        #expect(try await sqlite3Lines(sandbox, "sales.db", "SELECT count(*) FROM accounts WHERE name = 'x'") == ["0"])
        // The form it names, in a script (which never asks), sets every row.
        let done = try await sandbox.quarry(["sales.db", "-e", #"print(accounts:updateall(nil, {}, { name = "x" }))"#])
        #expect(done.status == 0 && done.stdout == "3\n", "\(done)")
    }

    /// `histogram("orders", "occurred_at", { bins = 3 })` over times kept to the second
    /// labelled its edges `2015-03-23T18:40:00.333Z`: instants in a unit no value had.
    /// Such a column's bins are whole seconds wide, each end included, as an integer
    /// column's are, and their counts are sqlite3's over the same seconds.
    @Test func aHistogramOfTimesToTheSecondHasWholeSecondEdges() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3Lines(
            sandbox, "orders.db",
            """
            CREATE TABLE orders (id integer, occurred_at timestamp);
            INSERT INTO orders VALUES (1, '2015-01-01 00:00:00'), (2, '2015-03-02 11:20:00'), (3, '2015-05-04 16:00:01'),
              (4, '2015-06-01 00:00:00'), (5, '2015-07-01 12:00:00'), (6, '2015-09-03 08:00:01');
            """)
        let result = try await sandbox.quarry(["orders.db", "-e", #"print(histogram("orders", "occurred_at", { bins = 3 }))"#])
        #expect(result.status == 0 && !result.stdout.contains(".333") && !result.stdout.contains(".667"), "\(result)")
        // Off a terminal the bars may be ASCII (`|`, `#`).
        let labels = result.lines.dropFirst().map {
            $0.replacingOccurrences(of: "│", with: "|").components(separatedBy: " |")[0].trimmingCharacters(in: .whitespaces)
        }
        #expect(
            labels == [
                "2015-01-01T00:00:00Z – 2015-03-23T18:40:00Z", "2015-03-23T18:40:01Z – 2015-06-13T13:20:01Z",
                "2015-06-13T13:20:02Z – 2015-09-03T08:00:01Z"
            ], "\(result)")
        let width = "((strftime('%s', '2015-09-03 08:00:01') - strftime('%s', '2015-01-01 00:00:00') + 1) + 2) / 3"
        let hand = try await sqlite3Lines(
            sandbox, "orders.db",
            "SELECT (strftime('%s', occurred_at) - strftime('%s', '2015-01-01 00:00:00')) / (\(width)) AS k, count(*) FROM orders GROUP BY k")
        let counts = result.lines.dropFirst().map { $0.components(separatedBy: " ").last ?? "" }
        #expect(counts == hand.map { $0.components(separatedBy: "|")[1] }, "\(hand)")
        // A time with a fraction of a second between whole extremes keeps equal widths: a
        // bucket labelled to its last whole second would hold the values past it.
        _ = try await sqlite3Lines(sandbox, "orders.db", "INSERT INTO orders VALUES (7, '2015-03-23 18:40:00.5')")
        let fractions = try await sandbox.quarry(["orders.db", "-e", #"print(histogram("orders", "occurred_at", { bins = 3 }))"#])
        #expect(fractions.status == 0 && fractions.stdout.contains(".333"), "\(fractions)")
    }

    /// `fetch{ "orders", sort = "-total_amt_usd", limit = 5 }` on twelve columns at 160
    /// columns left out the last, the very key sorted by, saying only `… +1 column`. The
    /// line names the columns left out (the first two) where it fits the terminal.
    @Test func aTableNamesTheColumnsItLeftOut() async throws {
        let sandbox = try Sandbox()
        let columns = (1...7).map { "quantity_of_item_\($0) integer" } + ["total_amt_usd numeric(10,2)"]
        _ = try await sqlite3Lines(
            sandbox, "orders.db",
            "CREATE TABLE orders (\(columns.joined(separator: ", "))); INSERT INTO orders VALUES (\((1...7).map(String.init).joined(separator: ", ")), 973.43);"
        )
        let repl = try await TmuxSession(sandbox, arguments: ["orders.db"], columns: 160)
        try await repl.waitForPrompt()
        let table = try await repl.enter(#"fetch{ "orders", sort = "-total_amt_usd" }"#)
        #expect(!(table.first ?? "").contains("total_amt_usd"), "the key sorted by is left out here: \(table)")
        let footer = try #require(table.last)
        #expect(footer.contains("(1 object), … +") && footer.contains("total_amt_usd (.mode line, .width 0 or .pager always shows them)"), "\(table)")
        #expect(footer.hasPrefix("(1 object), … +1 column: total_amt_usd ("), "\(table)")
        // Where the names would not fit, the count alone, as before.
        let other = try Sandbox()
        _ = try await sqlite3Lines(
            other, "orders.db",
            "CREATE TABLE orders (\((1...30).map { "quantity_of_a_long_named_item_\($0) integer" }.joined(separator: ", ")))")
        let narrow = try await TmuxSession(other, arguments: ["orders.db"], columns: 80)
        try await narrow.waitForPrompt()
        let cut = try await narrow.enter(#"fetch{ "orders", sort = "-quantity_of_a_long_named_item_30" }"#)
        #expect(cut.last == "(0 objects), … +28 columns (.mode line, .width 0 or .pager always shows them)", "\(cut)")
    }

    /// `count("orders", "occurred_at > %@", "2016")` was refused as "'occurred_at' is
    /// date and cannot be compared with string \"2016\"", where `'2016-01-01'` is taken:
    /// the refusal now names what is, the year's part for a year.
    @Test func aDateComparedWithTextThatIsNoDateSaysWhatIs() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3Lines(
            sandbox, "orders.db",
            "CREATE TABLE orders (id integer, occurred_at timestamp); INSERT INTO orders VALUES (1, '2015-10-06 17:31:14'), (2, '2016-11-05 03:34:33');"
        )
        let year = try await sandbox.quarry(["orders.db", "-e", #"print(count("orders", "occurred_at > %@", "2016"))"#])
        #expect(
            year.status == 1
                && year.stderr.contains(
                    #"cannot be compared with string "2016"; a year is compared through the date's part: occurred_at.year > 2016"#),
            "\(year)")
        let slashed = try await sandbox.quarry(["orders.db", "-e", #"print(count("orders", "occurred_at >= '2016/01/01'"))"#])
        #expect(
            slashed.status == 1 && slashed.stderr.contains("a date is written as ISO 8601 text ('2016-01-01', '2016-01-01T08:00:00Z') or date(...)"),
            "\(slashed)")
        // As the refusals say: sqlite3's count.
        let written = try await sandbox.quarry([
            "orders.db", "-e", #"print(count("orders", "occurred_at.year > 2015"), count("orders", "occurred_at >= '2016-01-01'"))"#
        ])
        #expect(written.stdout == "1\t1\n" && written.stderr.isEmpty, "\(written)")
        #expect(try await sqlite3Lines(sandbox, "orders.db", "SELECT count(*) FROM orders WHERE occurred_at >= '2016-01-01'") == ["1"])
    }

    /// `summarize("sd")` gave the population column's max as `99967`, text order, with
    /// New York City's 8175133 in the file, and nothing to say so (no mean for text).
    /// The statistics stay sqlite3's; a note names such columns and the sql() that reads
    /// them as numbers. Words, and one value alone, say nothing.
    @Test func summarizeSaysTextOfNumbersHasTextOrder() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        _ = try await sqlite3Lines(sandbox, "sales.db", "DELETE FROM sd WHERE sd_pop_2010 = 'x1'")
        let result = try await sandbox.quarry(["sales.db", "-e", #"local s = summarize("sd"); print(s[2].column, s[2].max)"#])
        #expect(result.status == 0 && result.stdout == "sd_pop_2010\t99967\n", "\(result)")
        #expect(try await sqlite3Lines(sandbox, "sales.db", "SELECT max(sd_pop_2010) FROM sd") == ["99967"])
        #expect(
            result.stderr
                == #"note: summarize sd: sd_pop_2010 is text holding numbers: min and max are in text order, as sqlite3's are; sql("SELECT min(CAST(sd_pop_2010 AS REAL)), max(CAST(sd_pop_2010 AS REAL)) FROM sd") reads them as numbers"#
                + "\n", "\(result)")
        let pasted = try await sandbox.quarry([
            "sales.db", "-e", #"print(sql("SELECT min(CAST(sd_pop_2010 AS REAL)) AS lo, max(CAST(sd_pop_2010 AS REAL)) AS hi FROM sd")[1].hi)"#
        ])
        #expect(pasted.stdout == "8175133.0\n", "\(pasted)")
        let words = try await sandbox.quarry(["sales.db", "-e", #"local s = summarize("accounts")"#])
        #expect(words.status == 0 && words.stderr.isEmpty, "\(words)")
    }

    /// Tab after `relate("orders", "acc` completed the column without its closing quote,
    /// as it closes an entity's name; the next argument typed after it fell inside the
    /// string. A column relate() or format() takes is closed as a name is; a chart's key,
    /// which may go on through a relationship, stays open.
    @Test func tabClosesAColumnThatRelateTakes() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3Lines(
            sandbox, "sales.db",
            """
            CREATE TABLE accounts (id integer, name bpchar);
            CREATE TABLE orders (id integer, account_id integer, total integer);
            INSERT INTO accounts VALUES (1001, 'Walmart'); INSERT INTO orders VALUES (1, 1001, 169), (2, 1001, 288);
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["sales.db"], columns: 160)
        try await repl.waitForPrompt()
        for (typed, completed) in [
            (#"relate("orders", "acc"#, #"relate("orders", "account_id""#),
            (#", "accounts", "i"#, #"relate("orders", "account_id", "accounts", "id""#)
        ] {
            try await repl.type(typed)
            try await repl.press("Tab")
            _ = try await repl.waitUntil("Tab after \(typed)") { $0.last?.hasSuffix(completed) == true }
        }
        let before = try await repl.screen().count
        try await repl.type(")")
        try await repl.press("Enter")
        let made = try await repl.waitForPrompt(">", after: before)
        #expect(made.contains { $0.hasPrefix("account") && $0.hasSuffix("orders") }, "\(made)")
        #expect(try await repl.enter(#"=#accounts:first().orders"#).suffix(2).first == "2")
        // A chart's key stays open: it may go on through the relationship just made.
        try await repl.type(#"barchart("orders", "acc"#)
        try await repl.press("Tab")
        let chart = try await repl.waitUntil("Tab in barchart") { $0.last?.hasSuffix(#"barchart("orders", "account"#) == true }
        #expect(chart.last?.hasSuffix("\"") == false, "\(chart.suffix(2))")
    }

    /// At the prompt, typed as a person types them: the notes beside the answers.
    @Test func theREPLSaysBoth() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["sales.db"], columns: 160)
        try await repl.waitForPrompt()
        let got = try await repl.enter("accounts:get(1001)").joined(separator: "\n")
        let said = "note: accounts declares no primary key, so get(1001) reads the row numbered 1001 (accounts/1001), which is none"
        #expect(got.contains(said) && got.contains("nil"), "\(got)")
        let sorted = try await repl.enter(#"fetch{ "sd", predicate = "sd_pop_2010 != 'x1'", sort = "-sd_pop_2010" }"#).joined(separator: "\n")
        #expect(sorted.contains("note: sd_pop_2010 is text, so it sorts as text (9996 before 99917)"), "\(sorted)")
    }
}

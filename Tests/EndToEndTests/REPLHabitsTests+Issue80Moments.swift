import Foundation
import Testing

/// A new user's trial on a budget and a library file, after issue 80: SQL typed over
/// several lines as psql takes it, save()'s counts beside `.changes`, grouping by a
/// to-one, unquoted names and dates, arithmetic on text of ISO times, and `.schema`'s line
/// for a relationship read from columns.
@Suite struct REPLIssue80MomentsTests {
    private func budget(_ sandbox: Sandbox) async throws {
        try await sqlite3(
            sandbox, "budget.db",
            """
            CREATE TABLE categories (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE transactions (id INTEGER PRIMARY KEY, payee TEXT, amount REAL, category_id INTEGER REFERENCES categories (id));
            INSERT INTO categories (name) VALUES ('food'), ('rent'), ('fun');
            INSERT INTO transactions (payee, amount, category_id) VALUES
              ('Aldi', 10, 1), ('Aldi', 12, 1), ('Landlord', 900, 2), ('Aldi', 8, 3), ('Cinema', 15, 3), ('Aldi', 9, 1);
            """)
    }

    private func library(_ sandbox: Sandbox) async throws {
        try await sqlite3(
            sandbox, "library.db",
            """
            CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT);
            CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE loans (id INTEGER PRIMARY KEY, book_id INTEGER, member_id INTEGER REFERENCES members (id),
              loaned_on DATE, returned_on TEXT);
            INSERT INTO books (title) VALUES ('Dune'), ('Emma');
            INSERT INTO members (name) VALUES ('Ann'), ('Bob');
            INSERT INTO loans (book_id, member_id, loaned_on, returned_on) VALUES
              (1, 1, '2024-05-01', '2024-05-11T10:00:00Z'), (2, 1, '2024-06-02', '2024-06-09T10:00:00Z'),
              (1, 2, '2024-07-01', '2024-07-05T10:00:00Z');
            """)
    }

    /// `SELECT payee, count(*) AS n` ⏎ is the start of a statement, as in psql: it waits at
    /// `>>` (it ran at once and failed on the column), and the lines after it up to `;` run
    /// as one. A whole statement on one line still runs without `;`, and a line that reads
    /// as the rest of a statement after one ran says how to type one over several lines.
    @Test func sqlStartedOnOneLineWaitsForTheRestUpToItsSemicolon() async throws {
        let sandbox = try Sandbox()
        try await budget(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["budget.db"])
        try await repl.waitForPrompt()
        #expect(try await repl.enter("SELECT payee, count(*) AS n", then: ">>").isEmpty)
        #expect(try await repl.enter("from transactions t", then: ">>").isEmpty)
        let before = try await repl.screen().count
        try await repl.type("group by payee order by n desc, payee")
        try await repl.press(#"\;"#)
        try await repl.press("Enter")
        let screen = try await repl.waitForPrompt(after: before)
        let rows = Array(screen[before..<(screen.count - 1)])
        #expect(rows.first?.hasPrefix("payee") == true && rows.contains { $0.hasPrefix("Aldi") && $0.hasSuffix("| 4") }, "\(rows)")
        #expect(rows.last == "(3 rows)", "\(rows)")
        // A whole statement without `;` runs at once, as before.
        let whole = try await repl.enter("select count(*) AS n from transactions")
        #expect(whole.contains("6") && whole.last == "(1 row)", "\(whole)")
        // One that names a missing column after its FROM is an error at once.
        let missing = try await repl.enter("select payee, nope from transactions")
        #expect(missing.count == 1 && missing[0].contains("no such column"), "\(missing)")
        // The rest of a statement typed after its start ran alone says what to do.
        let rest = try await repl.enter("group by payee").joined()
        #expect(rest == "'group …' continues a SQL statement: one over several lines ends with ';' (or type it on one line)", "\(rest)")
        // `select *` alone waits as well (it said "no tables specified"), as psql does.
        #expect(try await repl.enter("select *", then: ">>").isEmpty)
        let beforeStar = try await repl.screen().count
        try await repl.type("from categories")
        try await repl.press(#"\;"#)
        try await repl.press("Enter")
        let star = try await repl.waitForPrompt(after: beforeStar)
        #expect(star.contains { $0.trimmingCharacters(in: .whitespaces) == "3 | fun" } && star.contains("(3 rows)"), "\(star)")
    }

    /// Moving transactions to another category (3 of the 4 set were elsewhere): `.changes`
    /// lists 3 updated and save() says 3 (it said 5, counting the categories they left and
    /// joined, whose rows it does not write).
    @Test func saveCountsTheUpdatesChangesLists() async throws {
        let sandbox = try Sandbox()
        try await budget(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["budget.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"fun = fetch("categories", "name == 'fun'")[1]"#)
        _ = try await repl.enter(#"for _, t in ipairs(fetch("transactions", "payee == 'Aldi'")) do t.category = fun end"#)
        let changes = try await repl.enter(".changes")
        // One updated object a line, each with its category's old and new object.
        let start = try #require(changes.firstIndex { $0.hasPrefix("updated: ") }, "\(changes)")
        let listed = changes[start...].prefix { $0.hasPrefix("updated: ") || $0.hasPrefix("         ") }
            .map { $0.dropFirst("updated: ".count).split(separator: " ").first.map(String.init) ?? "" }
        #expect(listed.count == 3 && listed.allSatisfy { $0.hasPrefix("transactions/") }, "\(changes)")
        #expect(changes[start].hasSuffix("category: categories/1 → categories/3"), "\(changes)")
        #expect(try await repl.enter("=save().updated") == [String(listed.count)])
        #expect(try await repl.enter(#"=count("transactions", "category.name == 'fun'")"#) == ["5"])
    }

    /// `group = { "member" }` groups by the to-one's key, as `group = { "member_id" }`
    /// does (it was refused as an unknown key); a to-many is refused naming why.
    @Test func groupingByAToOneGroupsByItsKey() async throws {
        let sandbox = try Sandbox()
        try await library(sandbox)
        let result = try await sandbox.quarry([
            "library.db", "-e",
            #"""
            local rows = fetch{ "loans", properties = { "member.name AS who", "count(*) AS n" }, group = { "member" }, sort = "who" }
            for _, r in ipairs(rows) do print(r.who, r.n) end
            local same = fetch{ "loans", properties = { "member.name AS who", "count(*) AS n" }, group = { "member_id" }, sort = "who" }
            print(#same == #rows and same[1].n == rows[1].n)
            print(select(2, pcall(fetch, { "members", properties = { "count(*) AS n" }, group = { "loans" } })))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(Array(result.lines.prefix(3)) == ["Ann\t2", "Bob\t1", "true"], "\(result)")
        #expect(result.lines.last?.contains("'loans' is a to-many relationship of entity members") == true, "\(result)")
    }

    /// `fetch(plays)` says an entity's name is a string, naming one; a date written
    /// unquoted (`2024-06-01`, arithmetic: 2017) says to quote it; arithmetic on a text
    /// of ISO times names the `format()` that makes it a date, as a comparison does.
    @Test func unquotedNamesDatesAndISOTextSayWhatWorks() async throws {
        let sandbox = try Sandbox()
        try await library(sandbox)
        let name = try await sandbox.quarry(["library.db", "-e", "fetch(plays)"])
        #expect(
            name.errorLines.count == 1
                && name.errorLines[0].hasSuffix(
                    #"bad argument #1 to 'fetch' (string expected, got nil); an entity's name is a string, e.g. fetch("books")"#),
            "\(name)")
        let day = try await sandbox.quarry(["library.db", "-e", #"fetch("loans", "loaned_on > 2024-06-01")"#])
        #expect(
            day.errorLines.count == 1
                && day.errorLines[0].contains("cannot be compared with integer 2017; a date is written quoted, as '2024-06-01'"),
            "\(day)")
        let text = try await sandbox.quarry([
            "library.db", "-e", #"fetch{ "loans", properties = { "avg(returned_on - loaned_on) AS d" } }"#
        ])
        #expect(
            text.errorLines.count == 1
                && text.errorLines[0].contains("'returned_on' is string; arithmetic takes numbers")
                && text.errorLines[0].contains(#"; its text reads as ISO 8601 times: format("loans", "returned_on", "#),
            "\(text)")
    }

    /// Options in a table after the entity's name (`count("loans", { ... })`), and a
    /// filter written as an option (`loans:count{ member_id = 1 }`), say the call that works.
    @Test func optionsAfterTheNameAndFiltersAsOptionsSayWhatWorks() async throws {
        let sandbox = try Sandbox()
        try await library(sandbox)
        let after = try await sandbox.quarry(["library.db", "-e", #"print(count("loans", { member_id = 1 }))"#])
        #expect(
            after.errorLines.count == 1
                && after.errorLines[0].hasSuffix(
                    #"bad argument #2 to 'count' (string expected, got table); options go in one table, the entity first: count{ "loans", predicate = "..." }"#
                ),
            "\(after)")
        let filter = try await sandbox.quarry(["library.db", "-e", #"print(loans:count{ member_id = 1 })"#])
        #expect(
            filter.errorLines.count == 1
                && filter.errorLines[0].hasSuffix(
                    #"count: unknown option 'member_id'; a filter is a predicate: predicate = "member_id == %@", args = { ... }"#),
            "\(filter)")
    }
}

import Foundation
import Testing

/// A new user's trial on files Quarry did not make (a Django restaurant's `db.sqlite3`, a
/// café's point of sale keeping Unix milliseconds, a Flask invoicer): the moments where a
/// figure disagreed with `sqlite3` on the same file, through the real binary.
@Suite struct TrialTwelveTests {
    /// Django writes `datetime` columns with microseconds (`2024-02-15 16:39:55.397015`);
    /// SQLite's `julianday()` reads them to the millisecond. An order's own `created_at`
    /// found no order (`==`) and `>=` left the order out, one fewer than `sqlite3` counts,
    /// while `p:matches` counted it: the object held the microseconds that SQL never sees.
    @Test func aDjangoDateWithMicrosecondsFindsItsOwnRow() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3Lines(
            sandbox, "resto.db",
            """
            CREATE TABLE "orders_order" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "amount" real NOT NULL,
              "created_at" datetime NOT NULL);
            INSERT INTO orders_order (amount, created_at) VALUES (110.0, '2024-02-15 16:39:55.397015'),
              (50.0, '2024-02-15 16:39:55.3975'), (70.0, '2024-02-15 16:39:55.398'), (80.0, '2024-02-15 16:39:55.396999'),
              (90.0, '2023-12-10 15:10:39.246111');
            """)
        let sqlite = try await sqlite3Lines(
            sandbox, "resto.db",
            "SELECT count(*) FROM orders_order WHERE julianday(created_at) >= (SELECT julianday(created_at) FROM orders_order WHERE id = 1)")
        let script = """
            local o = orders_order:get(1)
            local p = predicate("created_at >= %@", o.created_at)
            local n = 0
            for _, x in ipairs(orders_order:fetch()) do if p:matches(x) then n = n + 1 end end
            print(count("orders_order", "created_at == %@", o.created_at), count("orders_order", "created_at >= %@", o.created_at), n)
            """
        let result = try await sandbox.quarry(["resto.db", "-e", script])
        // .397015 and .3975 round to .397 and .398 as SQLite rounds them: rows 1, 2 and 3
        // are at or after row 1, row 4 (.396999 → .397) too.
        #expect(sqlite == ["4"])
        #expect(result.status == 0 && result.lines == ["2\t4\t4"], "\(result)")
    }

    /// Django's tables are named by app and model (`orders_order`, `orders_orderitem`): the
    /// model's name typed at the prompt, as a global, to `.schema` or to `count`, was an
    /// unknown entity with no way forward.
    @Test func aDjangoModelsNameSuggestsItsTable() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3Lines(
            sandbox, "django.db",
            """
            CREATE TABLE orders_order (id integer NOT NULL PRIMARY KEY AUTOINCREMENT, amount real NOT NULL);
            CREATE TABLE orders_orderitem (id integer NOT NULL PRIMARY KEY AUTOINCREMENT, quantity integer NULL,
              order_id bigint NULL REFERENCES orders_order (id));
            CREATE TABLE accounts_customuser (id integer NOT NULL PRIMARY KEY AUTOINCREMENT, username varchar(150) NOT NULL);
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["django.db"], columns: 160)
        try await repl.waitForPrompt()
        let schema = try await repl.enter(".schema orders").joined()
        #expect(schema.contains("unknown entity 'orders' (did you mean 'orders_order'?)"), "\(schema)")
        let global = try await repl.enter("orderitem:first()").joined()
        #expect(global.contains("(global 'orderitem') (did you mean 'orders_orderitem'?)"), "\(global)")
        let counted = try await repl.enter(#"count("customuser")"#).joined()
        #expect(counted.contains("unknown entity 'customuser' (did you mean 'accounts_customuser'?)"), "\(counted)")
    }

    /// A Flask invoicer's `status` holds words (`sent`); a request whose predicate was
    /// changed while its number argument stayed (`r.predicate = "status == %@"`) was
    /// refused offering `CAST(status AS REAL) > 2000`: another comparison than the one
    /// written, said as if the column held numbers.
    @Test func aTextColumnComparedWithANumberOffersTheComparisonWritten() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3Lines(
            sandbox, "invoices.db",
            """
            CREATE TABLE invoice (id INTEGER NOT NULL PRIMARY KEY, price FLOAT NOT NULL, status VARCHAR(20));
            INSERT INTO invoice VALUES (1, 5000.0, 'sent'), (2, 100.0, 'pending');
            """)
        let script = """
            local r = invoice:fetch("price > %@", 2000)
            print(#r, select(2, pcall(function() r.predicate = "status == %@" end)))
            print(select(2, pcall(count, "invoice", "%@ <= status", 7)))
            """
        let result = try await sandbox.quarry(["invoices.db", "-e", script])
        #expect(result.lines.count == 2, "\(result)")
        let equal = result.lines.first ?? ""
        #expect(equal.hasPrefix("1\t") && equal.contains("CAST(status AS REAL) = 2000')"), "\(equal)")
        #expect(equal.contains("where it holds numbers") && !equal.contains("> 2000"), "\(equal)")
        #expect(result.lines.last?.contains("CAST(status AS REAL) >= 7')") == true, "\(result)")
    }

    /// Orders sorted by how many items they have: the refusal's offered request, pasted,
    /// printed a bare column of counts, no longer saying which order had them.
    @Test func theRequestOfferedForSortingByAToManysCountNamesEachRow() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3Lines(
            sandbox, "django.db",
            """
            CREATE TABLE orders_order (id integer NOT NULL PRIMARY KEY AUTOINCREMENT, amount real NOT NULL);
            CREATE TABLE orders_orderitem (id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
              order_id bigint NULL REFERENCES orders_order (id));
            INSERT INTO orders_order (amount) VALUES (10), (20), (30);
            INSERT INTO orders_orderitem (order_id) VALUES (2), (2), (3);
            """)
        let refused = try await sandbox.quarry(["django.db", "-e", #"fetch{ "orders_order", sort = "-orders_orderitems.@count" }"#])
        let offered = #"fetch{ "orders_order", properties = { "id", "orders_orderitems.@count AS n" }, sort = "-n" }"#
        #expect(refused.status == 1 && refused.stderr.contains(offered), "\(refused)")
        let pasted = try await sandbox.quarry(["django.db", "-e", "for _, row in ipairs(" + offered + ") do print(row.id, row.n) end"])
        #expect(pasted.lines == ["2\t2", "3\t1", "1\t0"], "\(pasted)")
    }

    /// Django's `is_paid` tested as SQL tests a boolean (`is_paid`, `is_paid AND ...`):
    /// the refusal said only that a comparison operator was expected.
    @Test func aBooleanKeyAloneIsAnsweredWithTheComparisonThatTestsIt() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3Lines(
            sandbox, "django.db",
            """
            CREATE TABLE orders_order (id integer NOT NULL PRIMARY KEY AUTOINCREMENT, amount real NOT NULL, is_paid bool NOT NULL);
            INSERT INTO orders_order (amount, is_paid) VALUES (10, 1), (20, 0);
            """)
        let script = """
            print(select(2, pcall(count, "orders_order", "is_paid")))
            print(select(2, pcall(count, "orders_order", "is_paid AND amount > 5")))
            print(count("orders_order", "is_paid == YES"))
            """
        let result = try await sandbox.quarry(["django.db", "-e", script])
        #expect(result.lines.count == 3, "\(result)")
        let offered = "a key that holds true or false is compared: is_paid == YES (or == NO)"
        #expect(result.lines.prefix(2).allSatisfy { $0.contains(offered) }, "\(result)")
        #expect(result.lines.last == "1", "\(result)")
    }

    /// Grouped rows given to `summarize` were refused as "got table", with no word of what
    /// it takes or what draws such rows.
    @Test func summarizeGivenGroupedRowsSaysWhatItTakes() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3Lines(
            sandbox, "django.db",
            """
            CREATE TABLE orders_order (id integer NOT NULL PRIMARY KEY AUTOINCREMENT, amount real NOT NULL, customer_name varchar(255));
            INSERT INTO orders_order (amount, customer_name) VALUES (10, 'Wamae'), (20, 'Dev'), (5, 'Wamae');
            """)
        let script = """
            local rows = fetch{ "orders_order", result = "dictionaries", properties = { "customer_name", "sum(amount) AS spent" },
              group = { "customer_name" } }
            print(select(2, pcall(summarize, rows)))
            print(select(2, pcall(summarize, { "orders_order", predicate = "amount > 5" })))
            """
        let result = try await sandbox.quarry(["django.db", "-e", script])
        #expect(result.lines.count == 2, "\(result)")
        // fetch's options, written as for fetch{ ... }, get the call that summarizes them.
        let options = result.lines.last ?? ""
        #expect(options.contains(#"got a table of options: summarize(fetch{ "orders_order", ... }) summarizes what it fetches"#), "\(options)")
        #expect(options.contains(#"summarize("orders_order") every row"#), "\(options)")
        let said = result.lines.first ?? ""
        #expect(said.contains("results or entity name expected, got rows") && said.contains(#"summarize("Entity")"#), "\(said)")
        #expect(said.contains("barchart() and histogram() draw rows"), "\(said)")
    }
}

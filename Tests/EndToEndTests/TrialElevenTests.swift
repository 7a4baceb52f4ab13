import Foundation
import Testing

/// A new user's trial on files Quarry did not make (a shop's tables written by pandas, with
/// no keys declared; a word list whose `cat_key` names a category; a booking app's TIME
/// columns): the ways forward Quarry named wrongly or not at all, through the real binary.
@Suite struct TrialElevenTests {
    /// Tables as pandas' `to_sql` writes them: no primary key, so the rowid is the key, and
    /// `inventory`'s rows are not in `product_id`'s order (its rowid 1 is product 3).
    private func shop(_ sandbox: Sandbox) async throws {
        try await sqlite3(
            sandbox, "shop.db",
            """
            CREATE TABLE products (product_id INTEGER, category TEXT, unit_price REAL);
            CREATE TABLE inventory (product_id INTEGER, quantity INTEGER);
            CREATE TABLE sales (sale_id INTEGER, product_id INTEGER, sale_date TEXT, amount REAL, channel TEXT);
            INSERT INTO products VALUES (3, 'Food', 9.5), (1, 'Toys', 20.0), (2, 'Food', 4.25);
            INSERT INTO inventory VALUES (3, 10), (1, 0), (2, 7);
            INSERT INTO sales VALUES (1, 3, '2025-06-12', 19.0, 'Online'), (2, 1, '2025-07-01', 20.0, 'Retail'),
              (3, 2, '2025-07-20', 8.5, 'Online');
            """)
    }

    /// The `relate()` a key path's refusal offers joins by the destination's column of the
    /// same name, not by its rowid, which need not be the same number: pasted, it links
    /// each row to the product it names.
    @Test func theRelateOfferedForATableWithNoKeyJoinsByTheColumnOfTheSameName() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let refused = try await sandbox.quarry(["shop.db", "-e", #"count("inventory", "product.category == 'Food'")"#])
        let offered = #"relate("inventory", "product_id", "products", "product_id")"#
        #expect(refused.status == 1 && refused.stderr.contains(offered + " makes it"), "\(refused)")
        let pasted = try await sandbox.quarry(["shop.db", "-e", offered + #"; print(count("inventory", "product.category == 'Food'"))"#])
        // Products 3 and 2 are Food: inventory rows 1 and 3 (by rowid, products 3 and 1).
        #expect(pasted.status == 0 && pasted.lines == ["2"], "\(pasted)")
        let food = try await sandbox.quarry(["shop.db", "-e", #"print(inventory:first("product.category == 'Toys'").product_id)"#])
        #expect(food.lines == ["1"], "\(food)")
    }

    /// `category.cat_name` on a word list whose `cat_key` is the key of `categories`, as
    /// school projects name their keys: the refusal names the relate() that makes it.
    @Test func aKeyPathNamingAnEntityOffersTheRelateThroughTheKeyBothTablesName() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "words.db",
            """
            CREATE TABLE categories (cat_key INTEGER PRIMARY KEY AUTOINCREMENT, cat_name TEXT);
            CREATE TABLE dictionary (key INTEGER PRIMARY KEY AUTOINCREMENT, word TEXT, cat_key INTEGER, last_user INTEGER);
            CREATE TABLE users (key INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
            INSERT INTO categories (cat_name) VALUES ('Actions'), ('Animals');
            INSERT INTO users (name) VALUES ('Adam'), ('Admin');
            INSERT INTO dictionary (word, cat_key, last_user) VALUES ('hamama', 1, 2), ('kurī', 2, 2), ('ngeru', 2, 1);
            """)
        // `user.name`: both tables' own keys are named `key`, which links no row to another...
        let own = try await sandbox.quarry(["words.db", "-e", #"count("dictionary", "user.name == 'Admin'")"#])
        // ... and the link is the one column named by its role: last_user.
        let role = #"relate("dictionary", "last_user", "users", "key")"#
        #expect(own.status == 1 && own.stderr.contains(role + " makes it"), "\(own)")
        let admin = try await sandbox.quarry(["words.db", "-e", role + #"; print(count("dictionary", "user.name == 'Admin'"))"#])
        #expect(admin.lines == ["2"], "\(admin)")
        let refused = try await sandbox.quarry(["words.db", "-e", #"count("dictionary", "category.cat_name == 'Animals'")"#])
        let offered = #"relate("dictionary", "cat_key", "categories", "cat_key")"#
        #expect(refused.status == 1 && refused.stderr.contains("no relationship 'category' is declared: \(offered) makes it"), "\(refused)")
        let pasted = try await sandbox.quarry(["words.db", "-e", offered + #"; print(count("dictionary", "category.cat_name == 'Animals'"))"#])
        #expect(pasted.status == 0 && pasted.lines == ["2"], "\(pasted)")
    }

    /// A column declared `TIME` (SQLAlchemy's Time) holds times of day: text, shown,
    /// compared and summarized as it is, never a date on 2000-01-01 nor one a string
    /// argument cannot be compared with.
    @Test func aTimeColumnIsTextOfTimesOfDay() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "shows.db",
            """
            CREATE TABLE show (id INTEGER NOT NULL, sname VARCHAR(100), sdate DATE, stime TIME, PRIMARY KEY (id));
            INSERT INTO show VALUES (1, 'early', '2023-06-06', '09:30:00.000000'), (2, 'late', '2023-06-07', '14:26:00.000000');
            """)
        let schema = try await sandbox.quarry(["shows.db", ".schema show"])
        #expect(schema.lines.contains(#"  stime = "string?","#) && schema.lines.contains(#"  sdate = "date?","#), "\(schema)")
        let compared = try await sandbox.quarry(
            ["shows.db", "-e", #"print(count("show", "stime > %@", "12:00"), show:get(2).stime, summarize("show")[4].max)"#])
        #expect(compared.status == 0 && compared.lines == ["1\t14:26:00.000000\t14:26:00.000000"], "\(compared)")
    }

    /// A histogram of a text column of ISO dates names the format() that makes it a date,
    /// as comparing it with a date does, rather than only a barchart of its text.
    @Test func aHistogramOfIsoDateTextNamesTheFormatThatMakesItADate() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let refused = try await sandbox.quarry(["shop.db", "-e", #"histogram("sales", "sale_date")"#])
        #expect(refused.status == 1 && refused.errorLines.count == 1, "\(refused)")
        #expect(refused.stderr.contains(#"format("sales", "sale_date", "#) && refused.stderr.contains("makes it a date"), "\(refused)")
    }

    /// A histogram of days alone (ISO dates with no time) takes whole days: each bucket
    /// is labelled by its first and last day, both included, so no day ends one bucket and
    /// starts the next (`2025-06-12 – 2025-07-01`, then `2025-07-01 – ...`).
    @Test func aHistogramOfDaysTakesWholeDaysLabelledInclusively() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let chart = try await sandbox.quarry(
            ["shop.db", "-e", #"format("sales", "sale_date", "iso-date"); print(histogram("sales", "sale_date", { bins = 2 }))"#])
        #expect(chart.status == 0, "\(chart)")
        // 2025-06-12 to 2025-07-20 is 39 days: buckets of 20, the last ending at the last day.
        let labels = chart.lines.dropFirst().map { $0.components(separatedBy: " │").first?.components(separatedBy: " |").first ?? "" }
        #expect(labels == ["2025-06-12 – 2025-07-01", "2025-07-02 – 2025-07-20"], "\(chart)")
        #expect(chart.lines[1].hasSuffix(" 2") && chart.lines[2].hasSuffix(" 1"), "2025-07-01 is in the first: \(chart)")
        let one = try await sandbox.quarry(["shop.db", "-e", #"print(histogram(fetch("sales", "sale_id == 1"), "amount"))"#])
        #expect(one.lines.first == "amount: 1 value in 1 bin", "\(one)")
    }

    /// `sum(profit) > 3000` on the table an export of grouped rows made when imported: the
    /// refusal says the name is a column's and how %K reads it.
    @Test func aColumnNamedAsAnAggregateCallIsReadThroughK() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "states.db",
            """
            CREATE TABLE states (id INTEGER PRIMARY KEY, state TEXT, "sum(profit)" INTEGER);
            INSERT INTO states (state, "sum(profit)") VALUES ('Goa', 350), ('Kerala', 2435);
            """)
        let refused = try await sandbox.quarry(["states.db", "-e", #"count("states", "sum(profit) > 1000")"#])
        #expect(refused.status == 1 && refused.stderr.contains("states has a column named 'sum(profit)'"), "\(refused)")
        #expect(refused.stderr.contains(#"("%K ...", "sum(profit)")"#), "\(refused)")
        let read = try await sandbox.quarry(["states.db", "-e", #"print(count("states", "%K > 1000", "sum(profit)"))"#])
        #expect(read.lines == ["1"], "\(read)")
    }

    /// Typed at the prompt: a method name mistyped on an entity, an object or a predicate
    /// is answered with the one meant, and an entity's list names every method Tab offers.
    @Test func aMistypedMethodIsAnsweredWithTheOneMeant() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["shop.db"], columns: 200)
        try await repl.waitForPrompt()
        let entity = try await repl.enter("products:frist()").joined()
        #expect(entity.contains("(did you mean 'first'?)"), "\(entity)")
        #expect(entity.contains("updateall") && entity.contains("deleteall"), "every method: \(entity)")
        let object = try await repl.enter("p = products:first(); p:delte()").joined()
        #expect(object.contains("unknown key 'delte' on entity products (did you mean the method 'delete'? o:delete())"), "\(object)")
        let predicate = try await repl.enter(#"predicate("unit_price > 1"):matchs(p)"#).joined()
        #expect(predicate.contains("(did you mean 'matches'?)"), "\(predicate)")
    }

    /// Typed at the prompt: grouped rows of two keys chart without naming them (the first
    /// labels, the second is drawn), and a request written as fetch's is answered with
    /// the call that runs it.
    @Test func groupedRowsOfTwoKeysChartWithoutNamingThem() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["shop.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"m = fetch{ "sales", group = "channel", properties = { "channel", "sum(amount)" } }"#)
        let bars = try await repl.enter("barchart(m)")
        #expect(bars.first == "sum(amount) by channel", "\(bars)")
        #expect(bars.contains { ($0.hasPrefix("Online │") || $0.hasPrefix("Online |")) && $0.hasSuffix(" 27.5") }, "\(bars)")
        let line = try await repl.enter("linechart(m)")
        #expect(line.first == "sum(amount) by channel", "\(line)")
        let three = try await repl.enter(#"barchart(sql("SELECT channel, amount, sale_id FROM sales"))"#).joined()
        #expect(three.contains("the rows have 3 keys (channel, amount, sale_id): name the two to draw"), "\(three)")
        let request = try await repl.enter(#"barchart{ "sales", group = "channel" }"#).joined()
        #expect(request.contains(#"a request is fetch's to run: barchart(fetch{ ... }, "labelKey", "valueKey")"#), "\(request)")
    }
}

import Foundation
import Testing

/// A new user's trial on files Quarry did not make (a shop with foreign keys, a cricket
/// file whose deliveries name missing matches, a text column of dates): what Quarry said
/// too little of, or said backwards, through the real binary.
@Suite struct TrialTenTests {
    private func shop(_ sandbox: Sandbox) async throws {
        try await sqlite3(
            sandbox, "shop.db",
            """
            CREATE TABLE customers (customerNumber INTEGER PRIMARY KEY, customerName TEXT, country TEXT, city TEXT);
            CREATE TABLE orders (orderNumber INTEGER PRIMARY KEY, status TEXT,
              customerNumber INTEGER REFERENCES customers (customerNumber));
            INSERT INTO customers VALUES (141, 'Euro Shopping', 'Spain', 'Madrid'), (124, 'Mini Gifts', 'USA', 'San Rafael'),
              (114, 'Collectors', 'Australia', 'Melbourne');
            INSERT INTO orders VALUES (1, 'Shipped', 141), (2, 'Shipped', 141), (3, 'Shipped', 141), (4, 'Shipped', 124),
              (5, 'On Hold', 124), (6, 'Shipped', 114);
            """)
    }

    /// A grouped fetch reads the saved rows of every entity its key paths reach: a change
    /// to a customer is left out of orders grouped by `customer.country`, and the note
    /// names the entity changed; a request that reads no customer says nothing.
    @Test func aGroupedFetchNotesUnsavedChangesToAnEntityItReadsThroughARelationship() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["shop.db"], columns: 200)
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"c = customers:first("customerNumber == 141"); c.country = "Narnia""#)
        let grouped = try await repl.enter(
            #"=fetch{ "orders", properties = { "customer.country AS country", "count(*) AS n" }, group = { "customer.country" }, sort = "-n", limit = 3 }"#
        )
        #expect(grouped.first == "note: 1 unsaved change to customers is not in these rows (save() first)", "\(grouped)")
        #expect(grouped.contains { $0.hasPrefix("Spain") }, "the saved figures: \(grouped)")
        let own = try await repl.enter(#"=fetch{ "orders", properties = { "status", "count(*) AS n" }, group = { "status" } }"#)
        #expect(!own.contains { $0.hasPrefix("note:") }, "no customer is read: \(own)")
    }

    /// `.diff DB` and `diff()` say once, above their table, which way they read: from the
    /// session's store to DB, with what + and - mean there.
    @Test func aDiffSaysItsDirectionAboveItsTable() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        try FileManager.default.copyItem(atPath: sandbox.path("shop.db"), toPath: sandbox.path("orig.db"))
        let saved = try await sandbox.quarry(["shop.db", "-e", #"customers:new{ customerNumber = 999, customerName = "New", country = "X" }; save()"#]
        )
        try #require(saved.status == 0, "\(saved)")
        let direction =
            #"^from (\S*/)?shop\.db \(this session\) to (\S*/)?orig\.db: \+ only in (\S*/)?orig\.db, - only in (\S*/)?shop\.db, ~ changed$"#
        let dot = try await sandbox.quarry(["shop.db", "-"], stdin: ".diff orig.db\n")
        #expect(dot.status == 1, "\(dot)")
        #expect(dot.lines.first?.range(of: direction, options: .regularExpression) != nil, "\(dot)")
        #expect(dot.lines.filter { $0.hasPrefix("from ") }.count == 1, "said once: \(dot)")
        #expect(dot.lines.contains { $0.hasPrefix("-") && $0.contains("999") }, "the insert is only in shop.db: \(dot)")
        let printed = try await sandbox.quarry(["shop.db", "-e", #"print(diff(open("orig.db")))"#])
        #expect(printed.status == 0, "\(printed)")
        #expect(printed.lines.first?.range(of: direction, options: .regularExpression) != nil, "\(printed)")
    }

    /// A `format()` kept in a file's sidecar is Quarry's reading of the same bytes: the
    /// copy without it has the same model, and one note says which attribute is so read.
    @Test func aFormatDeclaredBesideAFileIsNoDifferenceOfTheModels() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "shows.db",
            """
            CREATE TABLE shows (id INTEGER PRIMARY KEY, date TEXT, venue TEXT);
            INSERT INTO shows (date, venue) VALUES ('1977-05-08', 'Barton Hall'), ('1978-01-22', 'McArthur Court');
            """)
        try FileManager.default.copyItem(atPath: sandbox.path("shows.db"), toPath: sandbox.path("orig.db"))
        let declared = try await sandbox.quarry(["shows.db", "-e", #"format("shows", "date", "2021-01-01")"#])
        try #require(declared.status == 0, "\(declared)")
        let dot = try await sandbox.quarry(["shows.db", "-"], stdin: ".diff orig.db\n")
        #expect(dot.status == 0, "\(dot)")
        #expect(!dot.lines.contains { $0.contains("model") }, "\(dot)")
        #expect(dot.stderr.contains("shows.date read as format() declares"), "\(dot)")
        // A text date compared with a date: the position before the way forward.
        let compared = try await sandbox.quarry(["orig.db", "-e", #"count("shows", "date >= %@", date("1977-01-01"))"#])
        #expect(compared.errorLines.count == 1, "\(compared)")
        #expect(
            compared.errorLines.first.map { $0.contains(" at column ") && $0.hasSuffix(#"format("shows", "date", "iso-date") makes it a date"#) }
                == true, "\(compared)")
    }

    /// `relate()` counts, in SQL, the rows whose column names no row of the destination.
    @Test func relateNotesTheRowsThatPointNowhere() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "ipl.db",
            """
            CREATE TABLE matches (match_id INTEGER PRIMARY KEY, venue TEXT);
            CREATE TABLE deliveries (id INTEGER PRIMARY KEY, match_no INTEGER, runs INTEGER);
            INSERT INTO matches VALUES (1, 'Eden'), (2, 'Wankhede');
            INSERT INTO deliveries (match_no, runs) VALUES (1, 4), (2, 6), (7, 1), (8, 0), (NULL, 2);
            """)
        let related = try await sandbox.quarry(["ipl.db", "-e", #"print(relate("deliveries", "match_no", "matches", "match_id"))"#])
        #expect(related.status == 0 && related.lines == ["match\tdeliveries"], "\(related)")
        #expect(related.errorLines.contains("note: 2 of 5 rows of deliveries name no match (match_no not in matches.match_id)"), "\(related)")
        // Entities and functions mistyped get a suggestion, as keys do.
        let entity = try await sandbox.quarry(["ipl.db", "-e", #"count("delivery")"#])
        #expect(entity.stderr.contains("unknown entity 'delivery' (did you mean 'deliveries'?)"), "\(entity)")
        let help = try await sandbox.quarry(["ipl.db", "-e", "help(fetchh)"])
        #expect(help.stdout.contains("(did you mean 'fetch'?)"), "\(help)")
        let group = try await sandbox.quarry(["ipl.db", "-e", #"help("group")"#])
        #expect(group.stdout.components(separatedBy: "help(fetch)").count == 2, "said once: \(group)")
    }

    /// A value set to nil shows in `o:changes()` at the prompt: the pair keeps `n = 2`.
    @Test func changesShowAValueSetToNil() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["shop.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"w = customers:get(124); w.city = nil"#)
        #expect(try await repl.enter("=w:changes()") == [#"{city = {"San Rafael", nil}}"#])
        #expect(try await repl.enter("=w:changes().city.n") == ["2"])
    }

    /// Refusals that say how to do what was meant: a sort by a to-many's count, and `%`.
    @Test func refusalsNameTheWayForward() async throws {
        let sandbox = try Sandbox()
        try await shop(sandbox)
        let sort = try await sandbox.quarry(["shop.db", "-e", #"fetch{ "customers", sort = "-orders.@count" }"#])
        #expect(sort.stderr.contains(#"properties = { "customerName", "orders.@count AS n" }, sort = "-n""#), "\(sort)")
        let counted = try await sandbox.quarry([
            "shop.db", "-e", #"print(fetch{ "customers", properties = { "orders.@count AS n" }, sort = "-n", limit = 1 }[1].n)"#
        ])
        #expect(counted.lines == ["3"], "\(counted)")
        let percent = try await sandbox.quarry(["shop.db", "-e", #"fetch{ "orders", properties = { "orderNumber % 7 AS m" } }"#])
        #expect(percent.stderr.contains("a remainder is modulus:by:(x, 7)"), "\(percent)")
        let remainder = try await sandbox.quarry([
            "shop.db", "-e", #"print(fetch{ "orders", properties = { "modulus:by:(orderNumber, 4) AS m" }, sort = "orderNumber" }[6].m)"#
        ])
        #expect(remainder.lines == ["2"], "\(remainder)")
    }
}

import Foundation
import Testing

/// Moments a newcomer's trial on unseen data left, through the real binary: `.diff`'s exit
/// status as `diff` and `cmp` give theirs, a to-one `relate()` names in the singular, and
/// a typed `INSERT` answered with the Lua that does it.
@Suite struct Issue80TrialLeftoverBatchTests {
    /// `quarry a.db ".diff b.db"`: 0 when the stores are the same, 1 when they differ (the
    /// differences printed), 2 on trouble (a store that is not there, no store named).
    @Test func diffOnTheCommandLineExitsAsDiffDoes() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(sandbox, "a.db", "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y');")
        try FileManager.default.copyItem(atPath: sandbox.path("a.db"), toPath: sandbox.path("b.db"))
        let same = try await sandbox.quarry(["a.db", ".diff b.db"])
        #expect(same.status == 0 && same.lines == ["no differences"], "\(same)")
        try await sqlite3(sandbox, "b.db", "UPDATE t SET v = 'z' WHERE id = 2")
        let differ = try await sandbox.quarry(["a.db", ".diff b.db"])
        #expect(differ.status == 1 && differ.stderr.isEmpty, "\(differ)")
        #expect(differ.lines.contains { $0.contains("~") && $0.contains("| y ") && $0.hasSuffix("| z") }, "\(differ)")
        let missing = try await sandbox.quarry(["a.db", ".diff nothere.db"])
        #expect(missing.status == 2 && missing.stderr.contains("nothere.db does not exist"), "\(missing)")
        let usage = try await sandbox.quarry(["a.db", ".diff"])
        #expect(usage.status == 2 && usage.stderr.contains("usage: .diff DB"), "\(usage)")
        // Another failing dot-command keeps status 1; piped input ends as the command line does.
        #expect(try await sandbox.quarry(["a.db", ".schema nothing"]).status == 1)
        #expect(try await sandbox.quarry(["a.db", "-"], stdin: ".diff b.db\n").status == 1)
    }

    /// A column naming its target in the plural (`customers_id` to `customers`, or
    /// `customers` itself): relate() names the to-one in the singular, the to-many inverse
    /// in the plural; the plural the rule gave before still answers.
    @Test func aToOneRelateMakesIsSingular() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "shop.db",
            """
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customers_id INTEGER);
            CREATE TABLE invoices (id INTEGER PRIMARY KEY, customers INTEGER);
            INSERT INTO customers VALUES (1, 'Ada'), (2, 'Bo');
            INSERT INTO orders VALUES (1, 2), (2, 2);
            INSERT INTO invoices VALUES (1, 1);
            """)
        let made = try await sandbox.quarry([
            "shop.db", "-e",
            """
            print(relate("orders", "customers_id", "customers", "id"))
            print(relate("invoices", "customers", "customers", "id"))
            print(orders:get(1).customer.name, #customers:get(2).orders, invoices:get(1).customer.name, #customers:get(1).invoices)
            print(orders:get(2).customers.name)
            """
        ])
        #expect(made.status == 0, "\(made)")
        // The names relate() made: the to-one, then its inverse.
        #expect(made.lines == ["customer\torders", "customer\tinvoices", "Bo\t2\tAda\t1", "Bo"], "\(made)")
        // Kept in the sidecar: the next run reads the same names.
        let next = try await sandbox.quarry(["shop.db", "-e", "print(orders:get(1).customer.name)"])
        #expect(next.status == 0 && next.lines == ["Bo"], "\(next)")
    }

    /// `INSERT … VALUES` without a column list is answered with the Lua that does it, the
    /// values given to the columns in their order; run, that Lua adds the row.
    /// A statement it cannot read so (a value short, a value computed) gets the template.
    @Test func aTypedInsertIsAnsweredWithItsValues() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(sandbox, "c.db", "CREATE TABLE Customer (id INTEGER PRIMARY KEY, Name TEXT, Age INTEGER);")
        let typed = try await sandbox.quarry(["c.db", "INSERT INTO Customer VALUES (7, 'Ada Lovelace', 36);"])
        let lua = #"Customer:new{ id = 7, Name = "Ada Lovelace", Age = 36 }; save()"#
        #expect(typed.status == 1 && typed.stderr == "SQL here only reads; this does it, written by save(): \(lua)\n", "\(typed)")
        let ran = try await sandbox.quarry(["c.db", "-e", lua + #"; print(Customer:get(7).Name, Customer:get(7).Age)"#])
        #expect(ran.status == 0 && ran.lines == ["Ada Lovelace\t36"], "\(ran)")
        // Quarry's own entity: its attributes in the order .schema lists them.
        let own = try await sandbox.quarry(["n.db", "-e", #"entity "P" { b = "string", a = "int64" }"#])
        try #require(own.status == 0, "\(own)")
        let rows = try await sandbox.quarry(["n.db", "INSERT INTO P VALUES (3, 'x'), (4, NULL)"])
        #expect(rows.stderr.hasSuffix(#"P:new{ a = 3, b = "x" }; P:new{ a = 4, b = null }; save()"# + "\n"), "\(rows)")
        for statement in ["INSERT INTO Customer VALUES ('x', 3)", "INSERT INTO Customer VALUES (1, upper('x'), 3)"] {
            let template = try await sandbox.quarry(["c.db", statement])
            #expect(template.stderr.contains("Customer:new{ id = …, Name = …, Age = … }, then save()"), "\(template)")
        }
    }
}

import Foundation
import QuarryTestSupport
import Testing

/// `.schema` prints a foreign key's relationship as the `relate()` call that makes it,
/// naming the destination's key column (it printed "(key)", which `relate` refuses), and
/// takes a quoted entity name with a space, as the sqlite3 shell's dot-commands do.
@Suite struct SchemaRelateLineTests {
    @Test func aForeignKeysLineNamesTheKeyAndRunsAgain() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE Employees (EmployeeID INTEGER PRIMARY KEY, LastName TEXT, ReportsTo INTEGER REFERENCES Employees (EmployeeID));
            CREATE TABLE [Order Details] (id INTEGER PRIMARY KEY, EmployeeID INTEGER REFERENCES Employees (EmployeeID));
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "nw.db", file: "schema.sql")
        let result = try await sandbox.quarry(["nw.db", "-"], stdin: ".schema Employees\n.schema \"Order Details\"\n")
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines.contains {
                $0.hasPrefix(
                    #"-- reportsToEmployee: to-one to Employees by ReportsTo (the file's foreign key; relate("Employees", "ReportsTo", "Employees", "EmployeeID", "reportsToEmployee") declares the same elsewhere)"#
                )
            }, "\(result)")
        #expect(result.lines.contains(#"entity "Order Details" {"#), "\(result)")
        #expect(!result.stdout.contains("(key)"), "\(result)")
    }

    /// Found by review: a key of several columns is said as a comment naming its columns,
    /// which were printed as they are, so a name holding a newline ended the comment and
    /// the rest of the name stood as a line of Lua in the output (here `print(...)`); a
    /// name that is no plain word is quoted, and plain ones stay as they are.
    @Test func aKeyOfSeveralColumnsLineQuotesANameThatIsNoPlainWord() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE p (k1 integer, "k 2" integer, PRIMARY KEY (k1, "k 2"));
            CREATE TABLE c (id integer PRIMARY KEY, a integer, "b
            print('injected') --" integer, FOREIGN KEY (a, "b
            print('injected') --") REFERENCES p);
            CREATE TABLE q (id integer PRIMARY KEY, x integer, y integer, FOREIGN KEY (x, y) REFERENCES p (k1, "k 2"));
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "hostile.db", file: "schema.sql")
        let result = try await sandbox.quarry(["hostile.db", "-"], stdin: ".schema c\n.schema q\n")
        #expect(result.status == 0, "\(result)")
        #expect(!result.lines.contains { $0.hasPrefix("print(") }, "\(result)")
        #expect(
            result.lines.contains(
                #"-- p: to-one to p by a, "b\010print('injected') --" (the file's foreign key; relate("c", { "a", "b\010print('injected') --" }, "p", { "k1", "k 2" }, "p") declares the same elsewhere)"#
            ), "\(result)")
        #expect(
            result.lines.contains(
                #"-- p: to-one to p by x, y (the file's foreign key; relate("q", { "x", "y" }, "p", { "k1", "k 2" }, "p") declares the same elsewhere)"#
            ),
            "\(result)")
    }

    /// A relationship through a key of several columns is printed as the relate() that
    /// makes it (it was a comment naming the foreign key): pasted on the same tables
    /// without the key, it makes the relationship `.schema` then prints the same way.
    @Test func aKeyOfSeveralColumnsIsPrintedAsTheRelateThatMakesIt() async throws {
        let sandbox = try Sandbox()
        let tables = "CREATE TABLE region (country TEXT, code TEXT, name TEXT, PRIMARY KEY (country, code));"
        try sandbox.write(
            "declared.sql",
            tables
                + "CREATE TABLE shop (id INTEGER PRIMARY KEY, country TEXT, code TEXT, FOREIGN KEY (country, code) REFERENCES region (country, code));"
        )
        try sandbox.write("bare.sql", tables + "CREATE TABLE shop (id INTEGER PRIMARY KEY, country TEXT, code TEXT);")
        try await PostgresStoreTests.sqlite3(sandbox, "declared.db", file: "declared.sql")
        try await PostgresStoreTests.sqlite3(sandbox, "bare.db", file: "bare.sql")
        let declared = try await sandbox.quarry(["declared.db", "-"], stdin: ".schema shop\n")
        let line = try #require(declared.lines.first { $0.hasPrefix("-- region: ") }, "\(declared)")
        let call = #"relate("shop", { "country", "code" }, "region", { "country", "code" }, "region")"#
        #expect(line == "-- region: to-one to region by country, code (the file's foreign key; \(call) declares the same elsewhere)", "\(declared)")
        // Pasted where there is no foreign key, it is the same relationship, kept in the sidecar.
        let pasted = try await sandbox.quarry(["bare.db", "-"], stdin: call + "\n.schema shop\n")
        let kept = "-- region: to-one to region by country, code (\(call) made it; kept in bare.db.quarry beside the file, which is unchanged)"
        #expect(pasted.status == 0 && pasted.lines.contains(kept), "\(pasted)")
    }

    /// Defaults are printed as Lua values (text quoted, a date as `date(...)`), so an
    /// entity's lines define it again as printed; they were printed bare (`default = Unknown`,
    /// `default =  `), which is no Lua.
    @Test func defaultsArePrintedAsLuaValues() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT 'Unknown "x"', isbn TEXT DEFAULT '',
              n INTEGER NOT NULL DEFAULT 0, r REAL DEFAULT 1.5, at TIMESTAMP DEFAULT '2000-01-01 00:00:00',
              b BLOB DEFAULT '', k BLOB DEFAULT x'00225c41ff');
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "d.db", file: "schema.sql")
        let result = try await sandbox.quarry(["d.db", "-"], stdin: ".schema t\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(#"default = "Unknown \"x\"""#) && result.stdout.contains(#"default = """#), "\(result)")
        #expect(result.stdout.contains(#"default = date("2000-01-01T00:00:00Z")"#), "\(result)")
        // NOT NULL with a constant default is required; a nullable column stays optional.
        #expect(result.lines.contains(#"  n = { "int64", default = 0 },"#), "\(result)")
        #expect(result.lines.contains(#"  r = { "double?", default = 1.5 },"#), "\(result)")
        // Bytes as Lua's escapes (Chrome's `encrypted_value BLOB DEFAULT ''` was `"<0 bytes>"`).
        #expect(result.lines.contains(#"  b = { "binary?", default = "" },"#), "\(result)")
        #expect(result.lines.contains(#"  k = { "binary?", default = "\x00\"\\A\xff" },"#), "\(result)")
        // The lines define the entity again in a store of Quarry's own, defaults and all.
        let definition = result.lines.filter { !$0.hasPrefix("--") }.joined(separator: "\n")
        try sandbox.write(
            "again.lua",
            definition + "\nlocal o = t:new{}; print(o.title, o.isbn == '', o.n, o.r, tostring(o.at), o.b == '', o.k == '\\0\"\\\\A\\255')\n")
        let again = try await sandbox.quarry(["again.db", "again.lua"])
        #expect(again.status == 0, "\(again)")
        #expect(again.lines.last == "Unknown \"x\"\ttrue\t0\t1.5\t2000-01-01T00:00:00Z\ttrue\ttrue", "\(again)")
    }
}

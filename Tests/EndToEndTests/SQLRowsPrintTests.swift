import Foundation
import Testing

/// Rows `sql()` made, printed: each record is read back by its known columns (a column
/// named twice shows its one value in both places), a field a script changed shows its
/// new value, a field it added is not a column, and one holding a table leaves the list
/// to print as the plain table it now is.
@Suite struct SQLRowsPrintTests {
    @Test func rowsPrintByTheirColumnsAfterAScriptChangesThem() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("k.db"),
                "CREATE TABLE t (id INTEGER PRIMARY KEY, a REAL, b TEXT, d DATE);"
                    + "INSERT INTO t VALUES (1, 1.5, 'x', '2013-01-01'), (2, NULL, NULL, NULL), (3, 2.25, 'z', '2020-02-03 04:05:06')"
            ])
        try #require(made.status == 0, "\(made)")
        let script = """
            local r = sql("select id, a, a, b, date(d) as day from t order by id")
            print(r)
            r[1].extra = 5
            r[2].b = "changed"
            print(r)
            r[3].bad = {}
            print(r)
            """
        let printed = try await sandbox.quarry(["k.db", "-e", script])
        #expect(printed.status == 0, "\(printed)")
        #expect(
            printed.lines == [
                "id | a    | a:1  | b   | day",
                "---+------+------+-----+-----------",
                " 1 |  1.5 |  1.5 | x   | 2013-01-01",
                " 2 |  nil |  nil | nil | nil",
                " 3 | 2.25 | 2.25 | z   | 2020-02-03",
                "(3 rows)",
                "id | a    | a:1  | b       | day",
                "---+------+------+---------+-----------",
                " 1 |  1.5 |  1.5 | x       | 2013-01-01",
                " 2 |  nil |  nil | changed | nil",
                " 3 | 2.25 | 2.25 | z       | 2020-02-03",
                "(3 rows)"
            ] + printed.lines.suffix(1), "\(printed)")
        // The list holding a table prints as a table's address, as any Lua table does.
        #expect(printed.lines.count == 13 && printed.lines.last?.hasPrefix("table: ") == true, "\(printed)")
    }
}

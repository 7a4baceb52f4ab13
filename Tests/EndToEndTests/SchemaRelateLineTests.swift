import Foundation
import QuarryTestSupport
import Testing

/// `.schema` prints a foreign key's relationship as the `relate()` call that makes it,
/// naming the destination's key column (it printed "(key)", which `relate` refuses), and
/// takes a quoted entity name with a space, as the sqlite3 shell's dot-commands do.
@Suite struct SchemaRelateLineTests {
    @Test func aForeignKeysLineNamesTheKeyAndRunsAgain() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("schema.sql", """
            CREATE TABLE Employees (EmployeeID INTEGER PRIMARY KEY, LastName TEXT, ReportsTo INTEGER REFERENCES Employees (EmployeeID));
            CREATE TABLE [Order Details] (id INTEGER PRIMARY KEY, EmployeeID INTEGER REFERENCES Employees (EmployeeID));
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "nw.db", file: "schema.sql")
        let result = try await sandbox.quarry(["nw.db", "-"], stdin: ".schema Employees\n.schema \"Order Details\"\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.contains(#"-- relate("Employees", "ReportsTo", "Employees", "EmployeeID", "reportsToEmployee")"#), "\(result)")
        #expect(result.lines.contains(#"entity "Order Details" {"#), "\(result)")
        #expect(!result.stdout.contains("(key)"), "\(result)")
    }
}

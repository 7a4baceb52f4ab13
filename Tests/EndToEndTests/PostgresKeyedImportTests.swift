import Foundation
import QuarryTestSupport
import Testing

/// An import into a PostgreSQL table keyed by text or by several columns (issue 61, round
/// five): Quarry numbers such rows, and the check that refuses a change of a saved key
/// (`StoreMapping.refuseSettingKeys`) once refused every import into them as one. An
/// import's rows are new rows: they are written to the table itself; a row whose key
/// another row has is refused in one line, and nothing of that import is written.
@Suite struct PostgresKeyedImportTests {
    static let schema = """
        CREATE TABLE customer (code text PRIMARY KEY, name text NOT NULL, city text);
        CREATE TABLE line (order_id integer, line_no integer, qty integer NOT NULL, PRIMARY KEY (order_id, line_no));
        INSERT INTO customer VALUES ('ALFKI', 'Alfreds', 'Berlin');
        INSERT INTO line VALUES (1, 1, 10);

        """

    @Test func anImportIntoKeyedTablesWritesTheirRows() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("keyedimport", in: sandbox, schema: Self.schema)
        try sandbox.write("customers.csv", "code,name,city\nBONAP,Bon app,Marseille\nDUMON,Du monde,Nantes\n")
        try sandbox.write("lines.csv", "order_id,line_no,qty\n1,2,5\n2,1,7\n")
        // The second row's key is ALFKI's: the whole import is refused.
        try sandbox.write("again.csv", "code,name,city\nFOLKO,Folk och fä,Bräcke\nALFKI,Another,Paris\n")
        try sandbox.write("again-lines.csv", "order_id,line_no,qty\n3,1,1\n1,1,99\n")
        try sandbox.write(
            "t.lua",
            #"""
            print(import("customers.csv", { entity = "customer" }), import("lines.csv", { entity = "line" }))
            print(count("customer"), count("customer", "city == 'Nantes'"), count("line"), count("line", "order_id == 1"))
            local c = fetch{ "customer", predicate = "code == 'BONAP'" }[1]
            print(c.name, c.city)
            local ok, err = pcall(import, "again.csv", { entity = "customer" })
            print(ok, count("customer"), count("customer", "code == 'FOLKO'"))
            io.stderr:write(tostring(err), "\n")
            ok, err = pcall(import, "again-lines.csv", { entity = "line" })
            print(ok, count("line"), count("line", "qty == 99 OR order_id == 3"))
            io.stderr:write(tostring(err), "\n")
            """#)
        let result = try await sandbox.quarry([url, "t.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["2\t2", "3\t1\t3\t2", "Bon app\tMarseille", "false\t3\t0", "false\t3\t0"], "\(result)")
        // One line each, naming the import.
        #expect(result.errorLines.count == 2, "\(result)")
        #expect(result.errorLines.allSatisfy { $0.contains("import") }, "\(result)")
        #expect(result.errorLines.first.map { $0.contains("customer") || $0.contains("ALFKI") } == true, "\(result)")
        // The rows as psql reads them: the table's own, no row of the refused imports.
        let rows = try await PostgresSessionTests.psql(
            sandbox, url, "SELECT string_agg(code || ':' || name || ':' || coalesce(city, '-'), ',' ORDER BY code) FROM customer")
        #expect(rows == "ALFKI:Alfreds:Berlin,BONAP:Bon app:Marseille,DUMON:Du monde:Nantes", "\(rows)")
        let lines = try await PostgresSessionTests.psql(
            sandbox, url, "SELECT string_agg(order_id || '.' || line_no || '=' || qty, ',' ORDER BY order_id, line_no) FROM line")
        #expect(lines == "1.1=10,1.2=5,2.1=7", "\(lines)")
    }
}

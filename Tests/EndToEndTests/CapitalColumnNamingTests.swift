import Foundation
import QuarryTestSupport
import Testing

/// A schema written in capitals (TPC-H's `L_ORDERKEY`, Oracle's `EMP.DEPTNO`) names its
/// relationships as the same DDL does in PostgreSQL, which folds unquoted names to lower
/// case: `l_orderkey_order` in both, not `l_ORDERKEYORDER` in the SQLite file (issue 45,
/// found on a TPC-H-shaped schema loaded by sqlite3 and psql alike).
@Suite struct CapitalColumnNamingTests {
    static let schema = """
        CREATE TABLE DEPT (DEPTNO INTEGER PRIMARY KEY, DNAME VARCHAR(14));
        CREATE TABLE EMP (EMPNO INTEGER PRIMARY KEY, ENAME VARCHAR(10), MGR INTEGER REFERENCES EMP (EMPNO), DEPTNO INTEGER REFERENCES DEPT (DEPTNO));
        CREATE TABLE ORDERS (O_ORDERKEY INTEGER PRIMARY KEY, O_TOTALPRICE DECIMAL(15,2));
        CREATE TABLE LINEITEM (L_ORDERKEY INTEGER NOT NULL REFERENCES ORDERS (O_ORDERKEY), L_LINENUMBER INTEGER NOT NULL,
          PRIMARY KEY (L_ORDERKEY, L_LINENUMBER));
        """

    @Test func oneScriptOfDDLNamesItsRelationshipsAlikeOnBothEngines() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("schema.sql", Self.schema)
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "schema.sql")
        let url = try PostgresServer.database("capitalnames")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        let commands = ".schema\n"
        let lite = try await sandbox.quarry(["lite.db", "-"], stdin: commands)
        let postgres = try await sandbox.quarry([url, "-"], stdin: commands)
        #expect(lite.status == 0, "\(lite)")
        #expect(postgres.status == 0, "\(postgres)")
        // The relationships' lines, in lower case: the entities' and columns' names keep
        // each engine's case, the relationships' names are the same.
        let relationships = { (output: String) in
            output.split(separator: "\n").filter { $0.contains("many =") || $0.contains("-- relate(") }.map { $0.lowercased() }
        }
        #expect(relationships(lite.stdout).contains(#"-- relate("lineitem", "l_orderkey", "orders", "o_orderkey", "l_orderkey_order")"#), "\(lite)")
        #expect(relationships(lite.stdout).contains(#"-- relate("emp", "deptno", "dept", "deptno", "deptno_dept")"#), "\(lite)")
        #expect(relationships(lite.stdout).contains(#"-- relate("emp", "mgr", "emp", "empno", "mgr_emp")"#), "\(lite)")
        #expect(relationships(lite.stdout) == relationships(postgres.stdout), "SQLite:\n\(lite.stdout)\nPostgreSQL:\n\(postgres.stdout)")
    }
}

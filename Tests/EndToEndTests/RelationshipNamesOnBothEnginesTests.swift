import Foundation
import QuarryTestSupport
import Testing

/// One script of DDL, run by sqlite3 and by psql, names its relationships alike on both
/// engines (issue 45, found on real samples loaded both ways).
@Suite struct RelationshipNamesOnBothEnginesTests {
    /// The relationships' lines of `.schema`, in lower case: the entities' and columns'
    /// names keep each engine's case (PostgreSQL folds unquoted names), the relationships'
    /// are the same.
    static func relationships(_ output: String) -> [String] {
        // A relationship read from columns by the relate() call its line ends with.
        output.split(separator: "\n").filter { $0.contains("many =") || $0.contains("relate(") }.map { line in
            guard let start = line.range(of: "relate("),
                let end = line.range(of: " declares the same", options: .backwards) ?? line.range(of: " made it;")
            else {
                return line.lowercased()
            }
            return ("-- " + line[start.lowerBound..<end.lowerBound]).lowercased()
        }
    }

    /// A schema written in capitals (TPC-H's `L_ORDERKEY`, Oracle's `EMP.DEPTNO`) is named
    /// as PostgreSQL names the same DDL: `order` in both (issue 60: the column names its
    /// target, so the target in the singular; `l_orderkey_order` before, still read and
    /// shown by `.schema` as another name), not `l_ORDERKEYORDER` in the SQLite file.
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
        let url = try await PostgresServer.database("capitalnames")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        let commands = ".schema\n"
        let lite = try await sandbox.quarry(["lite.db", "-"], stdin: commands)
        let postgres = try await sandbox.quarry([url, "-"], stdin: commands)
        #expect(lite.status == 0, "\(lite)")
        #expect(postgres.status == 0, "\(postgres)")
        let relationships = Self.relationships
        #expect(relationships(lite.stdout).contains(#"-- relate("lineitem", "l_orderkey", "orders", "o_orderkey", "order")"#), "\(lite)")
        for output in [lite.stdout, postgres.stdout] {
            #expect(
                output.split(separator: "\n").contains {
                    $0.hasPrefix("-- order: ") && $0.contains("); also read as ") && $0.contains("l_orderkey_order")
                }, "\(output)")
        }
        #expect(relationships(lite.stdout).contains(#"-- relate("emp", "deptno", "dept", "deptno", "dept")"#), "\(lite)")
        #expect(relationships(lite.stdout).contains(#"-- relate("emp", "mgr", "emp", "empno", "mgr_emp")"#), "\(lite)")
        #expect(relationships(lite.stdout) == relationships(postgres.stdout), "SQLite:\n\(lite.stdout)\nPostgreSQL:\n\(postgres.stdout)")
    }

    /// A column named as the parent's key it references (classicmodels' `customerNumber`
    /// to `customers.customerNumber`, `officeCode`, `productCode`) names the parent in the
    /// singular: `orders.customer`, `employees.office`, not `customerNumberCustomer`; a
    /// join table of such columns (text keys, keyed tables in PostgreSQL) gives the same
    /// many-to-many names on both engines. The names are quoted, as a port from MySQL
    /// keeps them, so PostgreSQL keeps their case.
    @Test func aColumnNamedAsTheKeyItReferencesNamesTheParent() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE offices ("officeCode" varchar(10) NOT NULL, city varchar(50), PRIMARY KEY ("officeCode"));
            CREATE TABLE employees ("employeeNumber" int NOT NULL, "lastName" varchar(50), "reportsTo" int REFERENCES employees ("employeeNumber"),
              "officeCode" varchar(10) NOT NULL REFERENCES offices ("officeCode"), PRIMARY KEY ("employeeNumber"));
            CREATE TABLE customers ("customerNumber" int NOT NULL, "customerName" varchar(50),
              "salesRepEmployeeNumber" int REFERENCES employees ("employeeNumber"), PRIMARY KEY ("customerNumber"));
            CREATE TABLE orders ("orderNumber" int NOT NULL, "customerNumber" int NOT NULL REFERENCES customers ("customerNumber"), PRIMARY KEY ("orderNumber"));
            CREATE TABLE products ("productCode" varchar(15) NOT NULL, "productName" varchar(70), PRIMARY KEY ("productCode"));
            CREATE TABLE tags ("tagCode" varchar(10) NOT NULL, PRIMARY KEY ("tagCode"));
            CREATE TABLE product_tags ("productCode" varchar(15) NOT NULL REFERENCES products ("productCode"),
              "tagCode" varchar(10) NOT NULL REFERENCES tags ("tagCode"), PRIMARY KEY ("productCode", "tagCode"));
            INSERT INTO offices VALUES ('1', 'San Francisco'), ('5', 'Tokyo');
            INSERT INTO employees VALUES (1002, 'Murphy', NULL, '1'), (1621, 'Nishi', 1002, '5');
            INSERT INTO customers VALUES (103, 'Atelier', 1621), (112, 'Signal', NULL);
            INSERT INTO orders VALUES (10100, 103), (10101, 103), (10102, 112);
            INSERT INTO products VALUES ('S10_1678', 'Harley'), ('S10_1949', 'Alpine');
            INSERT INTO tags VALUES ('bike'), ('car'), ('old');
            INSERT INTO product_tags VALUES ('S10_1678', 'bike'), ('S10_1678', 'old'), ('S10_1949', 'car');
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "schema.sql")
        let url = try await PostgresServer.database("keynamednames")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        try sandbox.write(
            "script.lua",
            #"""
            print(count("orders", "customer.customerName == 'Atelier'"), #customers:first("customerNumber == 103").orders,
              count("employees", "office.city == 'Tokyo'"), #offices:first("officeCode == '5'").employees,
              count("customers", "salesRepEmployeeNumberEmployee.office.city == 'Tokyo'"), count("employees", "reportsToEmployee.lastName == 'Murphy'"))
            print(#products:first("productCode == 'S10_1678'").tags, count("tags", "ANY products.productName == 'Alpine'"))
            """#)
        let lite = try await sandbox.quarry(["lite.db", "script.lua"])
        let postgres = try await sandbox.quarry([url, "script.lua"])
        #expect(lite.status == 0, "\(lite)")
        #expect(lite.lines == ["2\t2\t1\t1\t1\t1", "2\t1"], "\(lite)")
        #expect(postgres.lines == lite.lines, "\(postgres)")
        let liteSchema = try await sandbox.quarry(["lite.db", "-"], stdin: ".schema\n")
        let postgresSchema = try await sandbox.quarry([url, "-"], stdin: ".schema\n")
        #expect(
            Self.relationships(liteSchema.stdout).contains(#"-- relate("orders", "customernumber", "customers", "customernumber", "customer")"#),
            "\(liteSchema)")
        #expect(
            Self.relationships(postgresSchema.stdout).contains(#"-- relate("orders", "customernumber", "customers", "customernumber", "customer")"#),
            "\(postgresSchema)")
        // A many-to-many's links go with either end (nullify), whatever the join table's keys say.
        #expect(
            Self.relationships(postgresSchema.stdout).contains(#"  tags = { many = "tags", inverse = "products" },"#),
            "\(postgresSchema)")
    }
}

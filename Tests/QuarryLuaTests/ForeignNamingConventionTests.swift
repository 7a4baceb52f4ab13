import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// A foreign key's relationship and inverse are named by the usual conventions (issue 29):
/// `ArtistId`, `artist_id`, `artistID` -> `artist`; `SupportRepId` -> `supportRep`;
/// `ReportsTo` -> `reportsToEmployee` (no two keys differ only in case, so not
/// `reportsTo` beside the column `ReportsTo`); inverses in the plural of the table (`Employee.customers`),
/// the stem of a self-reference named `...To` (`Employee.reports`); a second key from one
/// table adds `As` and its relationship. The names given before stay accepted.
@Suite struct ForeignNamingConventionTests {
    @Test func theMusicStoreReadsNaturally() throws {
        let path = try musicStoreFile()
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"Album:get(2).artist.Name .. "," .. #Artist:get(1).albums .. "," .. #Artist:get(3).albums"#) == "Accept,2,0")
        #expect(h.string(#"Customer:get(1).supportRep.LastName .. "," .. #Employee:get(3).customers"#) == "Peacock,2")
        #expect(
            h.string(
                #"Employee:get(3).reportsToEmployee.LastName .. "," .. #Employee:get(2).reports .. "," .. tostring(Employee:get(1).reportsToEmployee)"#
            ) == "Edwards,3,nil")
        #expect(
            h.string(
                #"Track:get(2).mediaType.Name .. "," .. #Track:get(5).invoiceLines .. "," .. #Invoice:get(2).invoiceLines .. "," .. #Customer:get(4).invoices"#
            )
                == "Protected AAC audio file,1,3,1")
        // Key paths by the new names, in SQL and in memory.
        #expect(h.string(#"count("Customer", "supportRep.reportsToEmployee.LastName == 'Edwards'")"#) == "4")
        #expect(h.string(#"count("Employee", "reports.@count > 0") .. "," .. count("Employee", "ANY customers.LastName == 'Hansen'")"#) == "2,1")
        h.run(
            #"""
            local p = predicate("ANY customers.supportRep.reportsToEmployee.LastName == 'Edwards'")
            for _, e in ipairs(fetch("Employee")) do assert(p:matches(e) == (#e.customers > 0), e.EmployeeId) end
            """#)
        // Setting a relationship writes its key column.
        h.run(#"Customer:get(4).supportRep = Employee:get(5); save()"#)
        let queue = try DatabaseQueue(path: path)
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT SupportRepId FROM Customer WHERE CustomerId = 4") } == 5)
        try queue.close()
        // A mistyped relationship suggests the relationship, not its key column.
        #expect(h.error(#"return Customer:get(1).SupportRep"#).contains("did you mean 'supportRep'?"))
        #expect(h.error(#"return count("Customer", "SupportRep.LastName == 'x'")"#).contains("did you mean 'supportRep'?"))
        #expect(h.error(#"return Employee:get(1).Reports"#).contains("did you mean 'reports'?"))
        // The names Quarry gave before still answer, in Lua and in predicates.
        #expect(
            h.string(#"#Artist:get(1).album_set .. "," .. Customer:get(1).employee.LastName .. "," .. #Employee:get(3).customer_set"#)
                == "2,Peacock,2")
        #expect(h.string(#"count("Artist", "ANY album_set.Title BEGINSWITH 'Balls'")"#) == "1")
        h.run(#"Artist:get(3).album_set:add(Album:get(4)); assert(#Artist:get(3).albums == 1); rollback()"#)
    }

    /// Each naming style gives the same names; two keys to one table, and a key whose
    /// name is taken by a column, resolve as the contract says.
    @Test func everyStyleAndEveryCollision() throws {
        let path = try foreignFile(
            """
            CREATE TABLE Author (AuthorId INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, author_id INTEGER REFERENCES Author(AuthorId), editor_ID INTEGER REFERENCES Author(AuthorId));
            CREATE TABLE Review (id INTEGER PRIMARY KEY, bookID INTEGER REFERENCES book(id), AuthorId INTEGER REFERENCES Author(AuthorId), author TEXT);
            CREATE TABLE Chapter (id INTEGER PRIMARY KEY, BookId INTEGER REFERENCES book(id), ReviewerId INTEGER REFERENCES Author(AuthorId));
            CREATE TABLE category (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES category(id), name TEXT);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, box_id INTEGER REFERENCES box(id));
            CREATE TABLE box (id INTEGER PRIMARY KEY);
            INSERT INTO Author VALUES (1, 'ann'), (2, 'bob');
            INSERT INTO book VALUES (1, 'x', 1, 2), (2, 'y', 1, 1);
            INSERT INTO Review VALUES (1, 2, 2, 'by hand');
            INSERT INTO Chapter VALUES (1, 1, 2);
            INSERT INTO category VALUES (1, NULL, 'all'), (2, 1, 'some'), (3, 1, 'more');
            INSERT INTO box VALUES (1); INSERT INTO orders VALUES (1, 1), (2, 1);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        // author_id, editor_ID, bookID, BookId, ReviewerId.
        #expect(
            h.string(
                #"book:get(1).author.name .. book:get(1).editor.name .. Review:get(1).book.title .. Chapter:get(1).book.title .. Chapter:get(1).reviewer.name"#
            )
                == "annbobyxbob")
        // Inverses: the plural (a table named in lower case keeps snake case for a second
        // key), a name already plural kept, a self-reference in the plural.
        #expect(
            h.string(#"#Author:get(1).books .. "," .. #Author:get(1).books_as_editor .. "," .. #Author:get(2).chapters .. "," .. #box:get(1).orders"#)
                == "2,1,1,2")
        #expect(h.string(#"category:get(2).parent.name .. "," .. #category:get(1).categories"#) == "all,2")
        // A key whose name is a column's: the destination's name, else `_rel`.
        #expect(h.string(#"Review:get(1).author .. "," .. Review:get(1).author_rel.name .. "," .. #Author:get(2).reviews"#) == "by hand,bob,1")
        // The earlier names.
        #expect(h.string(#"#Author:get(1).book_set .. "," .. #category:get(1).category_set"#) == "2,2")
    }

    /// A schema in capitals (TPC-H's, Oracle's samples) is named as its twin in lower
    /// case, which is what PostgreSQL makes of the same DDL: `LINEITEM.order` (its column
    /// names its target; `l_orderkey_order` before issue 60, still read), `EMP.mgr_emp`,
    /// not `l_ORDERKEYORDER` or `mgrEMP` (and `EMP.dept`, its column named as the key it
    /// references); key paths say them, in SQL and in memory.
    @Test func aSchemaInCapitalsIsNamedAsInLowerCase() throws {
        let path = try foreignFile(
            """
            CREATE TABLE DEPT (DEPTNO INTEGER PRIMARY KEY, DNAME VARCHAR(14));
            CREATE TABLE EMP (EMPNO INTEGER PRIMARY KEY, ENAME VARCHAR(10), MGR INTEGER REFERENCES EMP (EMPNO), DEPTNO INTEGER REFERENCES DEPT (DEPTNO));
            CREATE TABLE ORDERS (O_ORDERKEY INTEGER PRIMARY KEY, O_TOTALPRICE DECIMAL(15,2));
            CREATE TABLE LINEITEM (L_ORDERKEY INTEGER NOT NULL REFERENCES ORDERS (O_ORDERKEY), L_LINENUMBER INTEGER NOT NULL,
              L_QUANTITY DECIMAL(15,2), PRIMARY KEY (L_ORDERKEY, L_LINENUMBER));
            INSERT INTO DEPT VALUES (10, 'ACCOUNTING'), (20, 'RESEARCH');
            INSERT INTO EMP VALUES (7839, 'KING', NULL, 10), (7566, 'JONES', 7839, 20), (7788, 'SCOTT', 7566, 20);
            INSERT INTO ORDERS VALUES (1, 173665.47), (2, 46929.18);
            INSERT INTO LINEITEM VALUES (1, 1, 17), (1, 2, 36), (2, 1, 38);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(
            h.string(
                #"EMP:get(7788).mgr_emp.ENAME .. "," .. EMP:get(7788).dept.DNAME .. "," .. #DEPT:get(20).emps .. "," .. #ORDERS:get(1).lineitems"#)
                == "JONES,RESEARCH,2,2")
        #expect(
            h.string(#"count("LINEITEM", "l_orderkey_order.O_TOTALPRICE > 100000") .. "," .. count("EMP", "mgr_emp.mgr_emp.ENAME == 'KING'")"#)
                == "2,1")
        #expect(h.string(#"count("LINEITEM", "order.O_TOTALPRICE > 100000") .. "," .. LINEITEM:first().order.O_ORDERKEY"#) == "2,1")
        h.run(
            #"""
            local p = predicate("dept.DNAME == 'RESEARCH' AND mgr_emp != nil")
            for _, e in ipairs(fetch("EMP")) do assert(p:matches(e) == (e.DEPTNO == 20), e.ENAME) end
            """#)
    }

    /// A foreign key of several columns, which no one column names, is named after its
    /// parent in the singular (`PARTSUPP` -> `partsupp`, `SpecialOfferProduct` ->
    /// `specialOfferProduct`), its inverse as a one-column key's (`lineitems`,
    /// `salesOrderDetails`); one whose columns begin with the same word is named by it
    /// (`OldOfferID`, `OldProductID` -> `old`), its inverse then `As` and the relationship
    /// (`salesOrderDetailsAsOld`), as a second key of one column's is.
    @Test func aKeyOfSeveralColumnsIsNamedAfterItsParent() throws {
        let path = try foreignFile(
            """
            CREATE TABLE PARTSUPP (PS_PARTKEY INTEGER NOT NULL, PS_SUPPKEY INTEGER NOT NULL, PS_AVAILQTY INTEGER, PRIMARY KEY (PS_PARTKEY, PS_SUPPKEY));
            CREATE TABLE LINEITEM (L_ORDERKEY INTEGER NOT NULL, L_LINENUMBER INTEGER NOT NULL, L_PARTKEY INTEGER, L_SUPPKEY INTEGER,
              PRIMARY KEY (L_ORDERKEY, L_LINENUMBER), FOREIGN KEY (L_PARTKEY, L_SUPPKEY) REFERENCES PARTSUPP (PS_PARTKEY, PS_SUPPKEY));
            CREATE TABLE SpecialOfferProduct (SpecialOfferID INTEGER, ProductID INTEGER, PRIMARY KEY (SpecialOfferID, ProductID));
            CREATE TABLE SalesOrderDetail (SalesOrderDetailID INTEGER PRIMARY KEY, UnitPrice REAL, SpecialOfferID INTEGER, ProductID INTEGER, OldOfferID INTEGER, OldProductID INTEGER,
              FOREIGN KEY (SpecialOfferID, ProductID) REFERENCES SpecialOfferProduct (SpecialOfferID, ProductID),
              FOREIGN KEY (OldOfferID, OldProductID) REFERENCES SpecialOfferProduct (SpecialOfferID, ProductID));
            INSERT INTO PARTSUPP VALUES (1, 1, 10), (1, 2, 20);
            INSERT INTO LINEITEM VALUES (1, 1, 1, 2), (1, 2, 1, 1), (2, 1, 1, 2);
            INSERT INTO SpecialOfferProduct VALUES (1, 680), (2, 680);
            INSERT INTO SalesOrderDetail VALUES (1, 9.5, 1, 680, 2, 680), (2, 9.5, 2, 680, NULL, 680);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(
            h.string(#"fetch("LINEITEM", "L_ORDERKEY == 2")[1].partsupp.PS_AVAILQTY .. "," .. #fetch("PARTSUPP", "PS_SUPPKEY == 2")[1].lineitems"#)
                == "20,2")
        #expect(
            h.string(
                #"SalesOrderDetail:get(1).specialOfferProduct.SpecialOfferID .. "," .. SalesOrderDetail:get(1).old.SpecialOfferID .. "," .. tostring(SalesOrderDetail:get(2).old)"#
            )
                == "1,2,nil")
        #expect(
            h.string(
                #"count("SpecialOfferProduct", "salesOrderDetails.@count == 1") .. "," .. count("SpecialOfferProduct", "salesOrderDetailsAsOld.@count == 1")"#
            )
                == "2,1")
    }

    /// A key of several columns whose columns begin with one word is named by it: a
    /// self-reference reads as what it is (`emp.boss`, not `emp.emp`).
    @Test func aKeyOfSeveralColumnsIsNamedByTheWordItsColumnsShare() throws {
        #expect(ForeignNaming.sharedStem(["boss_dept", "boss_num"]) == "boss")
        #expect(ForeignNaming.sharedStem(["OldOfferID", "OldProductID"]) == "old")
        #expect(ForeignNaming.sharedStem(["BILL_TO_COUNTRY", "BILL_TO_REGION"]) == "bill_to")
        #expect(ForeignNaming.sharedStem(["Ship Country", "Ship Region"]) == "ship")
        #expect(ForeignNaming.sharedStem(["l_partkey", "l_suppkey"]) == nil)
        #expect(ForeignNaming.sharedStem(["country", "region_code"]) == nil)
        #expect(ForeignNaming.sharedStem(["bossy", "boss_num"]) == nil)
        let path = try foreignFile(
            """
            CREATE TABLE emp (dept INTEGER, num INTEGER, boss_dept INTEGER, boss_num INTEGER, name TEXT,
              PRIMARY KEY (dept, num), FOREIGN KEY (boss_dept, boss_num) REFERENCES emp (dept, num));
            INSERT INTO emp VALUES (1, 1, NULL, NULL, 'ceo'), (1, 2, 1, 1, 'x'), (2, 1, 1, 1, 'y'), (2, 2, 2, 1, 'z');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(
            h.string(
                #"fetch("emp", "name == 'z'")[1].boss.name .. "," .. #fetch("emp", "name == 'ceo'")[1].emps .. "," .. count("emp", "boss.boss.name == 'ceo'")"#
            ) == "y,2,1")
    }

    /// A table's name in the singular (trial 29: `species` made a relationship `specy`).
    @Test func singularKeepsWordsThatAreTheirOwnSingular() {
        let cases = [
            ("species", "species"), ("series", "series"), ("movies", "movie"), ("Cookies", "Cookie"), ("pies", "pie"),
            ("copies", "copy"), ("Categories", "Category"), ("parties", "party"), ("boxes", "box"), ("employees", "employee")
        ]
        for (plural, singular) in cases { #expect(ForeignNaming.singular(plural) == singular, "\(plural)") }
    }
}

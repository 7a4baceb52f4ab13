import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// Shapes real databases have that a file Quarry did not make may show (the Northwind
/// sample's, issue 45): a table named with a space, a join table whose ends have TEXT
/// keys, a view's computed column with no declared type, a self-reference whose column
/// differs from its relationship's name only in case. Each answer is checked against the
/// same question asked in plain SQL.
@Suite struct ForeignSchemaShapesTests {
    static let schema = """
        CREATE TABLE Employees (EmployeeID INTEGER PRIMARY KEY, LastName TEXT, HireDate DATE, Salary REAL,
          ReportsTo INTEGER REFERENCES Employees (EmployeeID) ON DELETE NO ACTION);
        CREATE TABLE Territories (TerritoryID TEXT PRIMARY KEY, TerritoryDescription TEXT);
        CREATE TABLE EmployeeTerritories (EmployeeID INTEGER NOT NULL REFERENCES Employees (EmployeeID),
          TerritoryID TEXT NOT NULL REFERENCES Territories (TerritoryID), PRIMARY KEY (EmployeeID, TerritoryID));
        CREATE TABLE Customers (CustomerID TEXT PRIMARY KEY, City TEXT, Country TEXT);
        CREATE TABLE Orders (OrderID INTEGER PRIMARY KEY, CustomerID TEXT REFERENCES Customers (CustomerID),
          ShipCity TEXT, Freight REAL);
        CREATE TABLE [Order Details] (OrderID INTEGER NOT NULL REFERENCES Orders (OrderID), ProductID INTEGER NOT NULL,
          UnitPrice REAL, Quantity INTEGER, [Unit Note] TEXT, PRIMARY KEY (OrderID, ProductID));
        CREATE VIEW [Order Subtotals] AS SELECT OrderID, sum(UnitPrice * Quantity) AS Subtotal, count(*) AS Lines,
          max([Unit Note]) AS Note FROM [Order Details] GROUP BY OrderID;
        INSERT INTO Employees VALUES (1, 'Fuller', '1992-08-14', 90000, NULL), (2, 'Davolio', '1992-05-01', 50000, 1),
          (3, 'Leverling', '1992-04-01', 40000, 1), (4, 'Peacock', '1993-05-03', 30000, 1), (5, 'Buchanan', '1993-10-17', 60000, 2),
          (6, 'Suyama', '1993-10-17', 20000, 5);
        INSERT INTO Territories VALUES ('01581', 'Westboro'), ('01730', 'Bedford'), ('02116', 'Boston'), ('19713', 'Neward');
        INSERT INTO EmployeeTerritories VALUES (1, '01581'), (1, '01730'), (2, '19713'), (3, '02116'), (3, '01581');
        INSERT INTO Customers VALUES ('ALFKI', 'Berlin', 'Germany'), ('ANATR', 'México D.F.', 'Mexico'), ('BERGS', 'Luleå', 'Sweden');
        INSERT INTO Orders VALUES (10248, 'ALFKI', 'Berlin', 32.38), (10249, 'ALFKI', 'Reims', 11.61), (10250, 'ANATR', 'México D.F.', 65.83),
          (10251, 'BERGS', 'Luleå', 41.34);
        INSERT INTO [Order Details] VALUES (10248, 11, 14.0, 12, 'a'), (10248, 42, 9.8, 10, NULL), (10248, 72, 34.8, 5, 'b'),
          (10249, 14, 18.6, 9, NULL), (10249, 51, 42.4, 40, NULL), (10250, 41, 7.7, 10, NULL), (10251, 22, 16.8, 6, NULL),
          (10251, 57, 15.6, 15, NULL), (10251, 65, 16.8, 20, NULL), (10251, 1, 2.5, 1, NULL), (10251, 2, 3.5, 2, NULL), (10251, 3, 4.5, 3, NULL);
        """

    /// In SQL (count) and in memory (`p:matches` over every object) alike.
    private func bothWays(_ h: Harness, _ entity: String, _ predicate: String) -> String {
        let inSQL = h.string("count(\"\(entity)\", [[\(predicate)]])") ?? "?"
        h.run(
            """
            local p, n = predicate([[\(predicate)]]), 0
            for _, o in ipairs(fetch("\(entity)")) do if p:matches(o) then n = n + 1 end end
            __n = n
            """)
        let inMemory = h.string("__n") ?? "?"
        return inSQL == inMemory ? inSQL : "SQL \(inSQL) but memory \(inMemory)"
    }

    @Test func aMemberComparedWithItsOwnObjectReadsTheObject() throws {
        let path = try foreignFile(Self.schema)
        let h = try Harness(context: try StoreOpener.open(path))
        // Managers with a report hired before them: the right side is the manager's own.
        let plain = try sqlAnswer(
            path,
            "SELECT count(*) FROM Employees e WHERE EXISTS (SELECT 1 FROM Employees r WHERE r.ReportsTo = e.EmployeeID AND r.HireDate < e.HireDate)")
        #expect(plain == "1")
        #expect(bothWays(h, "Employees", "ANY reports.HireDate < HireDate") == plain)
        #expect(h.string(#"fetch{ "Employees", predicate = "ANY reports.HireDate < HireDate" }[1].LastName"#) == "Fuller")
        // ALL and NONE, arithmetic on either side, and a key path through a to-one.
        let all = try sqlAnswer(
            path,
            "SELECT count(*) FROM Employees e WHERE NOT EXISTS (SELECT 1 FROM Employees r WHERE r.ReportsTo = e.EmployeeID AND NOT (r.Salary < e.Salary))"
        )
        #expect(bothWays(h, "Employees", "ALL reports.Salary < Salary") == all)
        let none = try sqlAnswer(
            path,
            "SELECT count(*) FROM Employees e WHERE NOT EXISTS (SELECT 1 FROM Employees r WHERE r.ReportsTo = e.EmployeeID AND r.Salary * 2 > e.Salary + 10000)"
        )
        #expect(bothWays(h, "Employees", "NONE reports.Salary * 2 > Salary + 10000") == none)
        let through = try sqlAnswer(
            path,
            "SELECT count(*) FROM Employees e WHERE EXISTS (SELECT 1 FROM Employees r WHERE r.ReportsTo = e.EmployeeID AND r.Salary > (SELECT m.Salary FROM Employees m WHERE m.EmployeeID = e.ReportsTo) / 2)"
        )
        #expect(bothWays(h, "Employees", "ANY reports.Salary > reportsToEmployee.Salary / 2") == through)
        // On another entity, a key of the object that its members lack answers too.
        let shipped = try sqlAnswer(
            path, "SELECT count(*) FROM Customers c WHERE EXISTS (SELECT 1 FROM Orders o WHERE o.CustomerID = c.CustomerID AND o.ShipCity != c.City)")
        #expect(shipped == "1")
        #expect(bothWays(h, "Customers", "ANY orders.ShipCity != City") == shipped)
        #expect(
            bothWays(h, "Orders", "ANY orderDetails.UnitPrice > Freight")
                == (try sqlAnswer(
                    path,
                    "SELECT count(*) FROM Orders o WHERE EXISTS (SELECT 1 FROM [Order Details] d WHERE d.OrderID = o.OrderID AND d.UnitPrice > o.Freight)"
                )))
        // The same through a batch change, which names no objects.
        h.run(#"Employees:updateall("ANY reports.HireDate < HireDate", {}, { LastName = "Manager" }); save()"#)
        #expect(try sqlAnswer(path, "SELECT group_concat(EmployeeID) FROM Employees WHERE LastName = 'Manager'") == "1")
        // An object the SQL has not seen yet: its in-memory answer reads it too.
        h.run(
            #"""
            local e = Employees:get(4)
            local r = Employees:new{ EmployeeID = 7, LastName = "New", HireDate = date("1990-01-01T00:00:00Z"), Salary = 1 }
            r.reportsToEmployee = e
            assert(predicate("ANY reports.HireDate < HireDate"):matches(e))
            assert(not predicate("ANY reports.HireDate > HireDate"):matches(e))
            rollback()
            """#)
    }

    @Test func namesWithSpacesAndCaseTwinsBecomeKeysAPredicateCanSay() throws {
        let path = try foreignFile(Self.schema)
        let h = try Harness(context: try StoreOpener.open(path))
        // The to-many from Orders to `Order Details` is one identifier.
        let many = try sqlAnswer(path, "SELECT count(*) FROM Orders o WHERE (SELECT count(*) FROM [Order Details] d WHERE d.OrderID = o.OrderID) > 5")
        #expect(many == "1")
        #expect(bothWays(h, "Orders", "orderDetails.@count > 5") == many)
        #expect(h.string(#"#Orders:get(10248).orderDetails .. "," .. Orders:get(10248).orderDetails[1].order.OrderID"#) == "3,10248")
        // %K takes any key, a name with a space included, as Apple's does.
        #expect(h.string(#"count("Order Details", "%K != nil", "Unit Note")"#) == "2")
        #expect(h.string(#"count("Orders", "%K > 5", "orderDetails.@count")"#) == many)
        #expect(h.error(#"count("Orders", "%K > 5", "OrderID; DROP TABLE Orders")"#).contains("unknown key path 'OrderID; DROP TABLE Orders'"))
        // ReportsTo: its relationship is not `reportsTo` beside it, which differs only in case.
        #expect(h.string(#"Employees:get(2).reportsToEmployee.LastName .. "," .. #Employees:get(1).reports"#) == "Fuller,3")
        for entity in h.context.entities {
            let keys = entity.keyNames.map { $0.lowercased() }
            #expect(Set(keys).count == keys.count, "\(entity.name): \(entity.keyNames)")
            for name in entity.relationships.map(\.name) {
                #expect(name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }, "\(entity.name).\(name) is no identifier")
            }
        }
    }

    @Test func aJoinTableWithTextKeysIsManyToMany() throws {
        let path = try foreignFile(Self.schema)
        let schema = try schemaRows(path)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"#Employees:get(1).territories .. "," .. #Employees:get(4).territories"#) == "2,0")
        #expect(h.string(#"#Territories:first("TerritoryID == '01581'").employees"#) == "2")
        let westboro = try sqlAnswer(
            path,
            "SELECT count(DISTINCT EmployeeID) FROM EmployeeTerritories JOIN Territories USING (TerritoryID) WHERE TerritoryDescription = 'Westboro'")
        #expect(bothWays(h, "Employees", "ANY territories.TerritoryDescription == 'Westboro'") == westboro)
        #expect(
            bothWays(h, "Territories", "employees.@count == 1")
                == (try sqlAnswer(
                    path,
                    "SELECT count(*) FROM Territories t WHERE (SELECT count(*) FROM EmployeeTerritories j WHERE j.TerritoryID = t.TerritoryID) = 1")))
        // :add and :remove write the join table's rows, by the TEXT key.
        h.run(
            #"""
            local boston = Territories:first("TerritoryID == '02116'")
            Employees:get(4).territories:add(boston)
            Employees:get(1).territories:remove(Territories:first("TerritoryID == '01730'"))
            save()
            """#)
        #expect(
            try sqlAnswer(path, "SELECT EmployeeID || '-' || TerritoryID FROM EmployeeTerritories ORDER BY 1")
                == "1-01581,2-19713,3-01581,3-02116,4-02116")
        #expect(try schemaRows(path) == schema, "sqlite_master changed")
        let again = try Harness(context: try StoreOpener.open(path))
        #expect(again.string(#"Employees:get(4).territories[1].TerritoryDescription"#) == "Boston")
    }

    @Test func aViewsComputedColumnsHaveTheTypeOfTheirValues() throws {
        let path = try foreignFile(Self.schema)
        let h = try Harness(context: try StoreOpener.open(path))
        let entity = try h.context.entity(named: "Order Subtotals")
        #expect(entity.attribute(named: "Subtotal")?.type == .double)
        #expect(entity.attribute(named: "Lines")?.type == .int64)
        #expect(entity.attribute(named: "Note")?.type == .string)
        let big = try sqlAnswer(path, "SELECT count(*) FROM [Order Subtotals] WHERE Subtotal > 500")
        #expect(h.string(#"count("Order Subtotals", "Subtotal > 500")"#) == big)
        #expect(
            h.string(#"count("Order Subtotals", "Lines >= 3")"#) == (try sqlAnswer(path, "SELECT count(*) FROM [Order Subtotals] WHERE Lines >= 3")))
    }

    /// One save deletes a customer with its orders and their lines: a deny rule (NO ACTION)
    /// sees the objects already deleted in the context, and rows are deleted children
    /// first, whatever their keys, as SQLite with its foreign keys enforced takes them.
    @Test func oneSaveDeletesAParentWithItsChildren() throws {
        let path = try foreignFile(Self.schema)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            local c = Customers:first("CustomerID == 'ALFKI'")
            for _, o in ipairs(c.orders) do
              -- ipairs walks the members as they were: deleting them skips none.
              for _, d in ipairs(o.orderDetails) do d:delete() end
              assert(#o.orderDetails == 0, #o.orderDetails)
            end
            for _, o in ipairs(c.orders) do o:delete() end
            c:delete()
            local s = save()
            assert(s.deleted == 8, s.deleted)
            """#)
        #expect(
            try sqlAnswer(
                path,
                "SELECT (SELECT count(*) FROM Customers WHERE CustomerID = 'ALFKI') || ',' || (SELECT count(*) FROM Orders WHERE CustomerID = 'ALFKI') || ',' || (SELECT count(*) FROM [Order Details] WHERE OrderID IN (10248, 10249))"
            ) == "0,0,0")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM pragma_foreign_key_check") == "0")
        // A self-reference: a report and then the manager, in one save.
        h.run(#"Employees:get(6):delete(); Employees:get(5):delete(); save()"#)
        #expect(try sqlAnswer(path, "SELECT group_concat(EmployeeID) FROM Employees") == "1,2,3,4")
        // The parent still holding a child that is not deleted is refused, naming it (its
        // territories are links, which would go with it).
        #expect(h.error("Employees:get(1):delete()").contains("'reports' denies it while it holds Employees/2"))
    }

    /// RESTRICT is checked at each statement, even where keys are checked at the commit:
    /// a parent whose key is smaller than its child's goes after it all the same.
    @Test func childrenAreDeletedBeforeTheirParentsWhateverTheirKeys() throws {
        let path = try foreignFile(
            """
            CREATE TABLE shelf (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, shelf_id INTEGER NOT NULL REFERENCES shelf (id) ON DELETE RESTRICT);
            CREATE TABLE note (id INTEGER PRIMARY KEY, book_id INTEGER NOT NULL REFERENCES book (id) ON DELETE RESTRICT);
            INSERT INTO shelf VALUES (1, 'a'), (2, 'b');
            INSERT INTO book VALUES (5, 'x', 1), (6, 'y', 1), (7, 'z', 2);
            INSERT INTO note VALUES (9, 5), (10, 6);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            for _, b in ipairs(shelf:get(1).books) do
              for _, n in ipairs(b.notes) do n:delete() end
              b:delete()
            end
            shelf:get(1):delete()
            assert(save().deleted == 5)
            -- Inserted in one save, a parent made after its child goes first.
            local b = book:new{ title = "new" }
            local s = shelf:new{ name = "c" }
            b.shelf = s
            save()
            """#)
        #expect(try sqlAnswer(path, "SELECT group_concat(id) FROM shelf") == "2,3")
        #expect(try sqlAnswer(path, "SELECT group_concat(title || '@' || shelf_id) FROM book") == "z@2,new@3")
    }

    /// A join table named with spaces, whose pair's first name is taken (by the inverse
    /// of a foreign key), names the pair after it as one identifier (found by
    /// `ForeignSchemaPropertyTests`: was `shelfs_via_shelf links`).
    @Test func aPairNamedAfterAJoinTableWithSpacesIsAnIdentifier() throws {
        let path = try foreignFile(
            """
            CREATE TABLE shelf (id INTEGER PRIMARY KEY, name TEXT, parent_id INTEGER REFERENCES shelf (id));
            CREATE TABLE [shelf links] (shelf_id INTEGER NOT NULL REFERENCES shelf (id), other_id INTEGER NOT NULL REFERENCES shelf (id));
            CREATE TABLE [Tag Set] (id INTEGER PRIMARY KEY, shelf_id INTEGER REFERENCES shelf (id));
            CREATE TABLE [Shelf Tag Set] (ShelfId INTEGER NOT NULL REFERENCES shelf (id), TagSetId INTEGER NOT NULL REFERENCES [Tag Set] (id));
            INSERT INTO shelf VALUES (1, 'a', NULL), (2, 'b', 1), (3, 'c', 1);
            INSERT INTO [shelf links] VALUES (1, 2), (1, 3), (2, 3);
            INSERT INTO [Tag Set] VALUES (7, 1);
            INSERT INTO [Shelf Tag Set] VALUES (2, 7), (3, 7);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        let shelf = try h.context.entity(named: "shelf")
        #expect(shelf.relationship(named: "shelfs_via_shelf_links") != nil, "\(shelf.relationships.map(\.name))")
        #expect(shelf.relationship(named: "tagSetsViaShelfTagSet") != nil, "\(shelf.relationships.map(\.name))")
        #expect(h.string(#"count("shelf", "shelfs_via_shelf_links.@count == 2") .. "," .. #shelf:get(2).tagSetsViaShelfTagSet"#) == "1,1")
    }

    /// A primary key nothing fills (no rowid alias, no default) is no optional attribute:
    /// a new object without it is refused at `:new`, naming the key, not at save.
    @Test func aKeyNothingFillsIsAskedForAtNew() throws {
        let path = try foreignFile(Self.schema)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.error(#"Customers:new{ City = "Paris" }"#).contains("new: Customers needs a value for its key 'CustomerID'"))
        // A key column that is a foreign key is given by its relationship too.
        #expect(
            h.error(#"local d = _G["Order Details"]:new{ order = Orders:get(10248), Quantity = 1 }"#)
                .contains("needs a value for its key 'ProductID'"))
        h.run(
            #"""
            Customers:new{ CustomerID = "PARIS", City = "Paris" }
            _G["Order Details"]:new{ order = Orders:get(10250), ProductID = 99, Quantity = 1 }
            save()
            """#)
        #expect(try sqlAnswer(path, "SELECT count(*) FROM Customers WHERE CustomerID = 'PARIS'") == "1")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM [Order Details] WHERE OrderID = 10250 AND ProductID = 99") == "1")
        // An INTEGER PRIMARY KEY is the rowid: SQLite fills it.
        h.run(#"Territories:new{ TerritoryID = "99999", TerritoryDescription = "x" }; Employees:new{ LastName = "New" }; save()"#)
    }

    /// A to-many is a set: a link another program wrote twice gives its member once, in
    /// the objects, in @count and @sum, and in memory (issue 48).
    @Test func aLinkWrittenTwiceCountsOnce() throws {
        let path = try foreignFile(
            """
            CREATE TABLE post (id INTEGER PRIMARY KEY, title TEXT);
            CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT, weight INTEGER);
            CREATE TABLE post_tag (post_id INTEGER REFERENCES post (id), tag_id INTEGER REFERENCES tag (id));
            INSERT INTO post VALUES (1, 'a'), (2, 'b');
            INSERT INTO tag VALUES (1, 'x', 5), (2, 'y', 7);
            INSERT INTO post_tag VALUES (1, 1), (1, 1), (1, 2), (2, 2);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"#post:get(1).tags .. "," .. #tag:get(1).posts"#) == "2,1")
        #expect(bothWays(h, "post", "tags.@count == 2") == "1")
        #expect(bothWays(h, "post", "tags.@sum.weight == 12") == "1")
        #expect(bothWays(h, "tag", "posts.@count == 1") == "1")
    }
}

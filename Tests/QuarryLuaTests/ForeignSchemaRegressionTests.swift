import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarryStore
import Testing

/// Bugs `ForeignSchemaPropertyTests` and trying sample files by hand found in reading and
/// writing files Quarry did not create, each in its smallest form.
@Suite struct ForeignSchemaRegressionTests {
    private func sql(_ path: String, _ query: String) throws -> String {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: query).joined(separator: ",") }
    }

    /// A link to a parent known by its TEXT key is to the object: a new parent given its
    /// key after it was linked writes that key into its child (the column was left NULL).
    @Test func aLinkToAParentGivenItsTextKeyAfterwardsWritesThatKey() throws {
        let path = try foreignFile("""
            CREATE TABLE Customer (Code TEXT PRIMARY KEY, label TEXT);
            CREATE TABLE Orders (id INTEGER PRIMARY KEY, label TEXT, CustomerCode TEXT REFERENCES Customer (Code));
            INSERT INTO Customer VALUES ('A', 'a');
            INSERT INTO Orders VALUES (1, 'o1', 'A');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"""
            local c = Customer:new{ label = "c" }
            local o = Orders:new{ label = "o2" }
            o.customerCodeCustomer = c
            c.Code = "C"
            -- A saved order moved to it too, and one moved and then given a column of its own.
            Orders:get(1).customerCodeCustomer = c
            save()
            """#)
        #expect(try sql(path, "SELECT group_concat(label || '@' || ifnull(CustomerCode, 'nil')) FROM Orders") == "o1@C,o2@C")
        h.run(#"""
            local o = Orders:get(1)
            o.customerCodeCustomer = Customer:first("Code == 'A'")
            o.CustomerCode = "C"
            save()
            """#)
        #expect(try sql(path, "SELECT CustomerCode FROM Orders WHERE id = 1") == "C")
    }
}

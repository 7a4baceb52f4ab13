import Foundation
import QuarryShell
import Testing

/// On a SQLite file Quarry did not make, an entity's name that differs only in case names
/// it, as SQLite's names do (issue 80: `count("customer")` on a table `Customer`).
@Suite struct EntityNameCaseTests {
    @Test func aForeignTableIsNamedInAnyCase() throws {
        let path = try foreignFile(
            "CREATE TABLE Customer (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO Customer (name) VALUES ('a'), ('b');"
                + "CREATE TABLE Pair (id INTEGER PRIMARY KEY); CREATE TABLE pair2 (id INTEGER PRIMARY KEY)")
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"count("customer")"#) == "2")
        #expect(h.string(#"count("CUSTOMER", "name == %@", "a")"#) == "1")
        #expect(h.string(#"#fetch{ "customer", sort = "name" }"#) == "2")
        #expect(h.string(#"summarize("customer")[1].column"#) == "id")
        // A name no table has in any case is still refused, with the suggestion.
        #expect(h.error(#"count("custom")"#).contains("unknown entity"))
    }

    @Test func quarrysOwnEntitiesKeepTheirExactNames() throws {
        let h = try Harness()
        h.run(#"entity "Customer" { name = "string" }"#)
        #expect(h.error(#"count("customer")"#).contains("unknown entity"))
    }
}

import Foundation
import GRDB
import QuarryShell
import QuarryStore
import Testing

/// A table another program makes, while a session is open, with the name the session
/// gave a view's temporary view (`quarry_rows v`) is read by `sql()` once the session
/// looks for others' commits (`refresh()`): the temporary view takes another name rather
/// than shadow the table, and the view still reads (issue 81, item 15); so does a table
/// without a rowid read through such a temporary view.
@Suite struct TemporaryNameTakenLaterTests {
    @Test func aTableMadeWithTheTemporaryViewsNameIsRead() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT);
            INSERT INTO t VALUES (1, 'a');
            CREATE VIEW v AS SELECT id, x FROM t;
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"fetch("v")[1].x"#) == "a")
        let name = try #require(h.string(#"sql("SELECT name FROM sqlite_temp_master WHERE type = 'view'")[1].name"#))
        #expect(name.hasPrefix("quarry_rows v"), "\(name)")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE \(quoteIdentifier(name)) (w TEXT); INSERT INTO \(quoteIdentifier(name)) VALUES ('theirs')")
        }
        try queue.close()
        h.run("refresh()")
        #expect(h.string(#"sql('SELECT * FROM "\#(name)"')[1].w"#) == "theirs")
        #expect(h.string(#"fetch("v")[1].x"#) == "a")
        #expect(h.string(#"count("v", "x == 'a'")"#) == "1")
    }

    /// The same for a table without a rowid, read through a temporary view of the same
    /// kind (`quarry_rows country`): its objects stay, and keep their numbers.
    @Test func aTableMadeWithAWithoutRowidTablesTemporaryNameIsRead() throws {
        let path = try foreignFile(
            """
            CREATE TABLE country (iso TEXT PRIMARY KEY, name TEXT) WITHOUT ROWID;
            INSERT INTO country VALUES ('DE', 'Germany'), ('FR', 'France');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"kept = country:first("iso == 'DE'")"#)
        let id = try #require(h.string("kept:objectID()"))
        let name = try #require(h.string(#"sql("SELECT name FROM sqlite_temp_master WHERE type = 'view'")[1].name"#))
        #expect(name.hasPrefix("quarry_rows country"), "\(name)")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE \(quoteIdentifier(name)) (w TEXT); INSERT INTO \(quoteIdentifier(name)) VALUES ('theirs')")
        }
        try queue.close()
        h.run("refresh()")
        #expect(h.string(#"sql('SELECT * FROM "\#(name)"')[1].w"#) == "theirs")
        #expect(h.string(#"count("country", "name BEGINSWITH 'G'")"#) == "1")
        #expect(h.string(#"country:first("iso == 'DE'"):objectID()"#) == id)
        #expect(h.string(#"rawequal(kept, country:first("iso == 'DE'"))"#) == "true")
        h.run(#"kept.name = "Deutschland"; save()"#)
        #expect(h.string(#"sql("SELECT name FROM country WHERE iso = 'DE'")[1].name"#) == "Deutschland")
    }
}

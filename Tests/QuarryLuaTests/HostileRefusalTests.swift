/// What a review of the third round's fixes found and this round fixed: a pragma that
/// took effect while sql() compiled it, imports from devices, options history{} ignored,
/// objects of a closed store still observable, a negative Core Data Z_MAX.
import Foundation
import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryLua
@testable import QuarryStore

@Suite struct HostileRefusalTests {
    /// SQLite carries out a pragma while compiling it, so a setting one is refused from
    /// the text before anything compiles (`hard_heap_limit=1` stopped the process), in any
    /// statement of the text, however it is written; pragmas that only read still run.
    @Test func pragmasThatSetAreRefusedBeforeTheyCompile() throws {
        let h = try Harness()
        h.run(#"entity "I" { n = "int64" }; I:new{ n = 1 }; save()"#)
        let refused = [
            #"PRAGMA hard_heap_limit=1"#, #"SELECT 1; PRAGMA hard_heap_limit=1"#, #"/* x */ pragma main."hard_heap_limit"(5)"#,
            #"PRAGMA user_version = 5"#, #"EXPLAIN PRAGMA optimize"#, #"PRAGMA soft_heap_limit(1)"#, #"PRAGMA locking_mode=exclusive"#,
            #"PRAGMA wal_checkpoint"#, #"PRAGMA [busy_timeout] = 1"#, "-- a comment\nPRAGMA mmap_size=1"
        ]
        for sql in refused {
            let message = h.error("sql(\(luaLiteral(sql)))")
            #expect(message.contains("sql: PRAGMA ") && message.contains("is not allowed here"), "\(sql): \(message)")
        }
        // The connection is as it was: a large query still runs, and so do reading pragmas.
        #expect(
            h.string(#"#sql("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r LIMIT 5000) SELECT x, randomblob(100) FROM r")"#)
                == "5000")
        #expect(h.string(#"#sql("PRAGMA table_info(I)")"#) == "2")
        #expect(h.string(#"sql("PRAGMA user_version")[1].user_version"#) == "0")
        #expect(h.string(#"#sql("PRAGMA main.index_list('I')")"#) == "0")
        #expect(h.string(#"#sql("SELECT * FROM pragma_table_info(?)", "I")"#) == "2")
        #expect(h.string(#"sql("SELECT 'PRAGMA hard_heap_limit=1' AS x")[1].x"#) == "PRAGMA hard_heap_limit=1")
    }

    /// A device is no file of rows: `import("/dev/zero")` copied it toward a full disk.
    @Test func importRefusesDevices() throws {
        let h = try Harness()
        for device in ["/dev/zero", "/dev/urandom", "/dev/null"] {
            let message = h.error(#"import("\#(device)", { entity = "Z" })"#)
            #expect(message.contains("import: \(device): cannot read the file: it is a device"), "\(message)")
        }
        #expect(h.string("typeof(Z)") == "nil")
    }

    /// history{} refuses options it does not read, as save{} does (a typo returned every
    /// transaction).
    @Test func historyRefusesUnknownOptions() throws {
        let h = try Harness()
        #expect(h.error(#"history{ autor = "x" }"#).contains("history: unknown option 'autor' (did you mean 'author'?)"))
        #expect(h.error("history{ limit = 1 }").contains("history: unknown option 'limit'"))
    }

    /// observe(o, ...) and bind(o, ...) on an object of a store `.open` closed are refused
    /// (an observer never fired; a binding read stale values); bind names a relationship.
    @Test func observersAndBindingsOfAClosedStoresObjectAreRefused() throws {
        let h = try Harness()
        h.run(
            #"entity "P" { name = "string", pet = { one = "P", inverse = "owners" }, owners = { many = "P", inverse = "pet" } }; P:new{ name = "ann" }; save(); old = P:first()"#
        )
        #expect(h.error(#"bind(old, "pet")"#).contains("bind: P.pet is a relationship; bind takes an attribute"))
        h.runtime.use(try StoreOpener.open(nil))
        h.run(#"entity "P" { name = "string" }; P:new{ name = "bob" }; save()"#)
        #expect(h.error(#"observe(old, function() end)"#).contains("its store is closed (.open replaced it)"))
        #expect(h.error(#"observe(old, { "name" }, function() end)"#).contains("its store is closed (.open replaced it)"))
        #expect(h.error(#"bind(old, "name")"#).contains("its store is closed (.open replaced it)"))
        #expect(h.string("old.name") == "ann")
    }

    /// A negative Z_MAX would give new rows keys no row of Core Data's has: refused by name.
    @Test func aNegativeZMaxIsRefusedByName() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = -5 WHERE Z_NAME = 'Person'") }
        try queue.close()
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.error(#"Person:new{ firstName = "x", lastName = "y" }; save()"#)
        #expect(message.contains("save: Person: no key is left for a new row (Z_PRIMARYKEY.Z_MAX is -5, below Core Data's first key)"), "\(message)")
    }

    /// A full-text index's own tables would be corrupted by a write: they are the
    /// engine's (shadow tables), no entities of a foreign file, so no save reaches them
    /// (connections are defensive besides, so SQLite would refuse it).
    @Test func aFullTextIndexsOwnTablesCannotBeWritten() throws {
        let path = try CoreDataFixtures.temporaryFolder().appendingPathComponent("fts.db").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: "CREATE VIRTUAL TABLE f3 USING fts3(body); INSERT INTO f3 VALUES ('hello world'); INSERT INTO f3 VALUES ('other text')")
        }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.error(#"local r = fetch{ "f3_segdir" }[1]; r.root = ("­"):rep(40); save()"#)
        #expect(message.contains("unknown entity 'f3_segdir'"), "\(message)")
        h.run("rollback()")
        #expect(h.string(#"sql("SELECT body FROM f3 WHERE f3 MATCH 'hello'")[1].body"#) == "hello world")
        h.context.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    private func luaLiteral(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(
                of: "\n", with: "\\n") + "\""
    }
}

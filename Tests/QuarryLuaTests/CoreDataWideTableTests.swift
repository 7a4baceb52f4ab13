import Foundation
import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// A Core Data table as wide as SQLite allows (2,000 columns, `Z_PK`, `Z_ENT` and `Z_OPT`
/// among them): the entity's view holds its key, its entity column and every attribute,
/// never more columns than the table, so it opens, reads and writes. No real store has
/// such a table: this one is made in a temporary folder in Core Data's layout.
@Suite struct CoreDataWideTableTests {
    @Test func aTableOfTwoThousandColumnsReadsAndWrites() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = folder.appendingPathComponent("Wide.sqlite").path
        let attributes = (0..<1997).map { "ZA\($0) INTEGER" }.joined(separator: ", ")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE ZWIDE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \(attributes));
                    CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                    CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                    INSERT INTO Z_PRIMARYKEY VALUES (1, 'Wide', 0, 1);
                    INSERT INTO ZWIDE (Z_PK, Z_ENT, Z_OPT, ZA0, ZA1996) VALUES (1, 1, 1, 7, 9);
                    """)
        }
        #expect(try queue.read { db in try Row.fetchAll(db, sql: "PRAGMA table_info(ZWIDE)").count } == 2000)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"Wide:get("Wide/1").a1996"#) == "9")
        h.run(#"local w = Wide:get("Wide/1"); w.a5 = 3; Wide:new{ a1996 = 11 }; save()"#)
        func ints(_ sql: String) throws -> [Int64?] {
            try queue.read { db in try Row.fetchOne(db, sql: sql)?.databaseValues.map { Int64.fromDatabaseValue($0) } ?? [] }
        }
        #expect(try ints("SELECT Z_OPT, ZA5, ZA0 FROM ZWIDE WHERE Z_PK = 1") == [2, 3, 7])
        #expect(try ints("SELECT Z_ENT, Z_OPT, ZA1996 FROM ZWIDE WHERE Z_PK = 2") == [1, 1, 11])
        #expect(try ints("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") == [2])
        #expect(h.string(#"count("Wide", "a1996 > 10")"#) == "1")
    }
}

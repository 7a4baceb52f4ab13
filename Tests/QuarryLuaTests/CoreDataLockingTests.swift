import Foundation
import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Core Data's optimistic locking on a copy of a real store: every write of a row adds 1
/// to its `Z_OPT`, so a save over a row whose `Z_OPT` moved since Quarry took it up is a
/// conflict, even when the other writer (the app) changed nothing the model maps. Each
/// check reads the file with plain SQL through its own connection.
@Suite struct CoreDataLockingTests {
    struct Opened {
        let path: String
        let h: Harness
        let sql: DatabaseQueue

        init() throws {
            path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
            h = try Harness(context: try StoreOpener.open(path))
            sql = try DatabaseQueue(path: path)
        }

        /// ZMODEL and Z_OPT of a car, as the file holds them.
        func row(_ key: Int64) throws -> (model: String?, version: Int64?) {
            try sql.read { db in
                let row = try Row.fetchOne(db, sql: "SELECT ZMODEL, Z_OPT FROM ZCAR WHERE Z_PK = ?", arguments: [key])
                return (row?[0], row?[1])
            }
        }

        /// The app writes the row: only its version counter moves (a column the model does
        /// not map, or a relationship kept elsewhere).
        func appWrites(_ key: Int64) throws {
            try sql.write { db in try db.execute(sql: "UPDATE ZCAR SET Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", arguments: [key]) }
        }
    }

    @Test func aRowTheAppWroteSinceItWasChangedIsAConflictAndNothingIsWritten() throws {
        let o = try Opened()
        let start = try o.row(1)
        o.h.run(#"c = Car:get("Car/1"); c.model = "Mine"; d = Car:get("Car/2"); d.model = "Also mine""#)
        try o.appWrites(1)
        let before = try o.row(2)
        let message = o.h.error("save()")
        #expect(
            message.contains("conflict") && message.contains("Car/1") && message.contains("Z_OPT") && message.contains("nothing was written"),
            "\(message)")
        #expect(!message.contains("\n"))
        #expect(o.h.string("haschanges()") == "true")
        // Nothing written: neither the row in conflict nor the other one.
        #expect(try o.row(1) == (start.model, (start.version ?? 0) + 1))
        #expect(try o.row(2) == before)
        // Keeping this context's changes writes them over the app's version, one step on.
        o.h.run(#"save{ merge = "mine" }"#)
        #expect(try o.row(1) == ("Mine", (start.version ?? 0) + 2))
        #expect(try o.row(2) == ("Also mine", (before.version ?? 0) + 1))
        // After its own save, Quarry's next change of the row is no conflict.
        o.h.run(#"c.model = "Mine again"; save()"#)
        #expect(try o.row(1) == ("Mine again", (start.version ?? 0) + 3))
        #expect(try o.sql.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }

    /// A new row's Z_OPT is 1, even when the save points it at a row inserted after it.
    @Test func newRowsStartAtVersionOne() throws {
        let o = try Opened()
        o.h.run(
            #"""
            local c = Car:new{ maker = "A", model = "B", numberPlate = "VERSION-1" }
            c.owner = Person:new{ firstName = "New", lastName = "Owner", id = "1CD6E50D-94D1-4E02-B82A-BB220F6AFCA5", updatedAt = now() }
            save()
            """#)
        let rows = try o.sql.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT c.Z_OPT, p.Z_OPT, c.ZOWNER = p.Z_PK FROM ZCAR c, ZPERSON p WHERE c.ZNUMBERPLATE = 'VERSION-1' AND p.ZFIRSTNAME = 'New'"
            )
            .map { Array($0.databaseValues.map { Int64.fromDatabaseValue($0) }) }
        }
        #expect(rows == [[1, 1, 1]] as [[Int64?]])
    }

    @Test func aDeleteOverARowTheAppWroteIsAConflict() throws {
        let o = try Opened()
        let start = try o.row(3)
        o.h.run(#"Car:get("Car/3"):delete()"#)
        try o.appWrites(3)
        #expect(o.h.error("save()").contains("Car/3"))
        #expect(try o.row(3) == (start.model, (start.version ?? 0) + 1))
        // Store trump: the app's row stands and the object lives again with its values, as
        // "keeps theirs" says (issue 61: the delete was made against the row before the
        // app wrote it); deleted again, against that row, it goes.
        o.h.run(#"save{ merge = "store" }"#)
        #expect(try o.sql.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ZCAR WHERE Z_PK = 3") } == 1)
        o.h.run(#"Car:get("Car/3"):delete(); save()"#)
        #expect(try o.sql.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ZCAR WHERE Z_PK = 3") } == 0)
    }

    @Test func changesDroppedByRefreshStartFromTheRowsNewVersion() throws {
        let o = try Opened()
        o.h.run(#"c = Car:get("Car/4"); c.model = "Dropped""#)
        try o.appWrites(4)
        // refresh() takes in what the app wrote; changes made after it are no conflict.
        o.h.run(#"c:refresh(); c.model = "After refresh"; save()"#)
        #expect(try o.row(4).model == "After refresh")
    }
}

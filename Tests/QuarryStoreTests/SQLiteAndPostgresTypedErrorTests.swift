import Foundation
import GRDB
import QuarryModel
import QuarryPostgreSQL
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarrySQLite
@testable import QuarryStore

/// Errors keep their kind until they are rendered (issue 46): a constraint's refusal
/// says its kind, table and columns, and an interrupt says itself, the same on SQLite and
/// on PostgreSQL, for a caller to read as values; the line reads as it did.
@Suite struct SQLiteAndPostgresTypedErrorTests {
    // MARK: SQLite

    @Test func aUniqueViolationNamesItsTableAndColumnOnSQLite() throws {
        let context = try makeContext(itemEntity)
        if let error = try duplicateCodeRefusal(in: context) {
            let violation = try #require(error.constraintViolation, "\(error)")
            #expect(violation.kind == .unique)
            #expect(violation.table == "Item" && violation.columns == ["code"] && violation.column == "code")
            #expect(violation.code == .sqlite(.SQLITE_CONSTRAINT_UNIQUE))
            #expect(error.description.hasPrefix("UNIQUE constraint failed: Item.code 'A' of Item/t"), "\(error)")
        }
    }

    /// The one place SQLite's errors become store errors reads each kind from the code,
    /// and the table and columns from the one message shape SQLite gives.
    @Test func sqliteRefusalsAreTypedWhereTheyAreMade() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE parent (id INTEGER PRIMARY KEY);
                    CREATE TABLE "odd table" (id INTEGER PRIMARY KEY, a TEXT NOT NULL, b INT, c INT, parent_id INT REFERENCES parent(id),
                        UNIQUE (b, c), CHECK (b IS NULL OR b > 0));
                    INSERT INTO "odd table" (id, a, b, c) VALUES (1, 'x', 1, 1);
                    """)
        }
        func refusal(_ sql: String) -> StoreError? {
            do { try queue.write { db in try db.execute(sql: sql) } } catch let error as DatabaseError { return StoreError(error) } catch {
                return nil
            }
            return nil
        }
        let notNull = try #require(refusal(#"INSERT INTO "odd table" (a) VALUES (NULL)"#)?.constraintViolation)
        #expect(notNull.kind == .notNull && notNull.table == "odd table" && notNull.columns == ["a"])
        let unique = try #require(refusal(#"INSERT INTO "odd table" (a, b, c) VALUES ('y', 1, 1)"#))
        #expect(unique.constraintViolation?.kind == .unique && unique.constraintViolation?.table == "odd table")
        #expect(unique.constraintViolation?.columns == ["b", "c"])
        #expect(unique.description == "UNIQUE constraint failed: odd table.b, odd table.c")
        let key = try #require(refusal(#"INSERT INTO "odd table" (id, a) VALUES (1, 'z')"#)?.constraintViolation)
        #expect(key.kind == .unique && key.columns == ["id"] && key.code == .sqlite(.SQLITE_CONSTRAINT_PRIMARYKEY))
        let check = try #require(refusal(#"INSERT INTO "odd table" (a, b) VALUES ('z', -1)"#)?.constraintViolation)
        #expect(check.kind == .check && check.table == nil)
        // A foreign key checked at once: SQLite names neither table nor column.
        let foreign = try #require(refusal(#"PRAGMA foreign_keys = ON; INSERT INTO "odd table" (a, parent_id) VALUES ('z', 9)"#))
        #expect(foreign.constraintViolation?.kind == .foreignKey && foreign.constraintViolation?.table == nil)
        #expect(foreign.description == "FOREIGN KEY constraint failed")
        // Not a constraint: the error as SQLite gave it.
        let other = try #require(refusal("SELECT * FROM nowhere"))
        #expect(other.constraintViolation == nil && other.sqliteCode == .SQLITE_ERROR)
    }

    /// A save that leaves a foreign key broken fails at the commit, where SQLite names
    /// nothing: the save names the referencing table, the key's column, the value the row
    /// holds there, the table it names no row of, and how many rows more are broken.
    @Test func aForeignKeyASaveBreaksNamesItsTableAndColumnOnSQLite() throws {
        let path = try Self.foreignFile(
            """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, author_id INTEGER REFERENCES author(id));
            INSERT INTO author VALUES (1, 'ann');
            """)
        let context = try OpenFileRequest.open(path: path)
        _ = try context.insert(into: "book", values: ["title": .text("x"), "author_id": .integer(99)])
        do {
            try context.save()
            Issue.record("a book of no author was saved")
        } catch let error as StoreError {
            let violation = try #require(error.constraintViolation, "\(error)")
            #expect(violation.kind == .foreignKey && violation.table == "book" && violation.columns == ["author_id"])
            #expect(violation.referenced == "author" && violation.values == [.integer(99)] && violation.otherRows == 0)
            #expect(error.description == "FOREIGN KEY constraint failed: book.author_id 99 names no row of author")
        }
        // Two rows of no author: the first named, the other counted.
        _ = try context.insert(into: "book", values: ["title": .text("y"), "author_id": .integer(98)])
        do {
            try context.save()
            Issue.record("two books of no author were saved")
        } catch let error as StoreError {
            #expect(error.description == "FOREIGN KEY constraint failed: book.author_id 99 names no row of author (and 1 more row of book)")
        }
        // Nothing of the save was written.
        let rows = try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM book") }
        #expect(rows == 0)
    }

    /// A text key's value is quoted as SQL writes it, and a parent whose key changed
    /// under its children names a child that still holds the old key (a GTFS feed's
    /// `stops.stop_id` renamed while `stop_times` name it).
    @Test func aBrokenTextKeyIsQuotedAsSQLWritesIt() throws {
        let path = try Self.foreignFile(
            """
            CREATE TABLE stops (stop_id TEXT PRIMARY KEY, name TEXT);
            CREATE TABLE stop_times (id INTEGER PRIMARY KEY, stop_id TEXT REFERENCES stops (stop_id));
            INSERT INTO stops VALUES ('A', 'Alpha');
            INSERT INTO stop_times VALUES (1, 'A'), (2, 'A');
            """)
        let context = try OpenFileRequest.open(path: path)
        _ = try context.insert(into: "stop_times", values: ["id": .integer(3), "stop_id": .text("it's")])
        #expect(throws: StoreError.self) { try context.save() }
        do { try context.save() } catch let error as StoreError {
            #expect(error.description == "FOREIGN KEY constraint failed: stop_times.stop_id 'it''s' names no row of stops")
        }
        _ = context.rollback()
        let stop = try #require(try context.object(entityName: "stops", primaryKey: 1))
        try stop.setValue(.text("Z"), forKey: "stop_id")
        do {
            try context.save()
            Issue.record("a stop was renamed under its stop_times")
        } catch let error as StoreError {
            #expect(error.description == "FOREIGN KEY constraint failed: stop_times.stop_id 'A' names no row of stops (and 1 more row of stop_times)")
        }
    }

    /// A save SQLite refuses for a UNIQUE constraint names the value the refused object
    /// gave and the object holding it already: a saved row by its key, a new object of
    /// the same save as it is named before the save. SQLite's words name the column only.
    @Test func aUniquenessASaveBreaksNamesTheValueAndItsHolder() throws {
        let path = try Self.foreignFile(
            """
            CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT);
            INSERT INTO person VALUES (1, 'ann@x', 'Ann'), (2, 'bo@x', 'Bo');
            """)
        let context = try OpenFileRequest.open(path: path)
        let new = try context.insert(into: "person", values: ["email": .text("ann@x"), "name": .text("Another Ann")])
        do {
            try context.save()
            Issue.record("a second ann@x was saved")
        } catch let error as StoreError {
            let violation = try #require(error.constraintViolation, "\(error)")
            #expect(violation.kind == .unique && violation.values == [.text("ann@x")] && violation.heldBy == "person/1")
            #expect(error.description == "UNIQUE constraint failed: person.email 'ann@x' of \(new.objectID) is held by person/1")
        }
        _ = context.rollback()
        // Two new objects giving one value: the first is in the transaction, under no key of its own yet.
        let first = try context.insert(into: "person", values: ["email": .text("cy@x")])
        let second = try context.insert(into: "person", values: ["email": .text("cy@x")])
        do {
            try context.save()
            Issue.record("two cy@x were saved")
        } catch let error as StoreError {
            #expect(
                error.description
                    == "UNIQUE constraint failed: person.email 'cy@x' of \(second.objectID) is held by \(first.objectID), also new in this save")
        }
        _ = context.rollback()
        // A saved object changed to another's value.
        let bo = try #require(try context.object(entityName: "person", primaryKey: 2))
        try bo.setValue(.text("ann@x"), forKey: "email")
        do {
            try context.save()
            Issue.record("bo@x was changed to ann@x")
        } catch let error as StoreError {
            #expect(error.description == "UNIQUE constraint failed: person.email 'ann@x' of person/2 is held by person/1")
        }
        let rows = try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM person") }
        #expect(rows == 2)
    }

    /// A table without a rowid (read through a view that numbers its rows) names its
    /// holder by its text key, as its object IDs are.
    @Test func aUniquenessOfATableWithoutRowidNamesItsHolderByItsKey() throws {
        let path = try Self.foreignFile(
            """
            CREATE TABLE code (code TEXT PRIMARY KEY, v INTEGER) WITHOUT ROWID;
            INSERT INTO code VALUES ('A', 1);
            """)
        let context = try OpenFileRequest.open(path: path)
        let new = try context.insert(into: "code", values: ["code": .text("A"), "v": .integer(2)])
        do {
            try context.save()
            Issue.record("a second code A was saved")
        } catch let error as StoreError {
            #expect(error.description == "UNIQUE constraint failed: code.code 'A' of \(new.objectID) is held by code/A")
        }
    }

    /// SQLite's interrupt is `.interrupted`, not a SQLite error to tell by its code.
    @Test func anInterruptedSQLiteStatementIsTyped() throws {
        let queue = try DatabaseQueue()
        let done = ManagedAtomicFlag()
        // Interrupts asked before the statement starts are lost: ask until it ended.
        let interrupter = Thread {
            while !done.isSet {
                queue.interrupt()
                usleep(10_000)
            }
        }
        interrupter.start()
        defer { done.set() }
        do {
            _ = try queue.read { db in
                try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
            }
            Issue.record("an endless statement ended")
        } catch let error as DatabaseError {
            let stopped = StoreError(error)
            #expect(stopped.interruption == Interruption(.interrupt, stopped: .sqliteStatement))
            #expect(stopped == .interrupted(Interruption(.interrupt, stopped: .sqliteStatement)))
            #expect(stopped.description == "interrupted!")
            #expect(StoreError.during(operation: "save", stopped).interruption?.stopped == .sqliteStatement)
        }
    }

    // MARK: PostgreSQL

    @Test func postgresRefusalsAreTypedFromTheServersFields() throws {
        let connection = try PostgresConnection(url: try PostgresServer.database("typed"))
        try connection.execute(
            """
            CREATE TABLE parent (id int PRIMARY KEY);
            """)
        try connection.execute(
            """
            CREATE TABLE "odd table" (id int PRIMARY KEY, a text NOT NULL, b int, "c d" int, parent_id int REFERENCES parent(id),
                UNIQUE (b, "c d"), CONSTRAINT positive CHECK (b IS NULL OR b > 0))
            """)
        try connection.execute("INSERT INTO parent VALUES (1)")
        try connection.execute(#"INSERT INTO "odd table" (id, a, b, "c d", parent_id) VALUES (1, 'x', 1, 1, 1)"#)
        func refusal(_ sql: String, _ arguments: [Value] = []) -> StoreError? {
            do { try connection.execute(sql, arguments) } catch let error as StoreError { return error } catch { return nil }
            return nil
        }
        let notNull = try #require(refusal(#"INSERT INTO "odd table" (id, a) VALUES (2, $1)"#, [.null]))
        #expect(notNull.constraintViolation?.kind == .notNull && notNull.constraintViolation?.table == "odd table")
        #expect(notNull.constraintViolation?.columns == ["a"])
        #expect(notNull.constraintViolation?.code == .sqlState("23502"))
        // Said in SQLite's words, as a SQLite file says it.
        #expect(notNull.description == "NOT NULL constraint failed: odd table.a")
        let unique = try #require(refusal(#"INSERT INTO "odd table" (id, a, b, "c d") VALUES (2, 'y', 1, 1)"#)?.constraintViolation)
        #expect(unique.kind == .unique && unique.table == "odd table" && unique.columns == ["b", "c d"])
        #expect(unique.constraint == "odd table_b_c d_key")
        let foreign = try #require(refusal(#"INSERT INTO "odd table" (id, a, parent_id) VALUES (3, 'z', 9)"#))
        #expect(foreign.constraintViolation?.kind == .foreignKey && foreign.constraintViolation?.table == "odd table")
        #expect(foreign.constraintViolation?.columns == ["parent_id"])
        #expect(foreign.constraintViolation?.constraint == "odd table_parent_id_fkey")
        // A foreign key's refusal has no SQLite words with names: the server's are said.
        #expect(foreign.description.hasPrefix("PostgreSQL: insert or update on table \"odd table\" violates foreign key constraint"), "\(foreign)")
        // A parent deleted under its child: the referencing table, and no columns (the
        // server's detail lists the parent's key, not the constraint's columns).
        let parent = try #require(refusal("DELETE FROM parent")?.constraintViolation)
        #expect(parent.kind == .foreignKey && parent.table == "odd table" && parent.columns.isEmpty)
        let check = try #require(refusal(#"INSERT INTO "odd table" (id, a, b) VALUES (4, 'z', -1)"#)?.constraintViolation)
        #expect(check.kind == .check && check.table == "odd table" && check.constraint == "positive")
        // Not a constraint: the server's error as it was.
        let other = try #require(refusal("SELECT * FROM nowhere"))
        #expect(other.constraintViolation == nil)
        guard other.postgresFailure?.sqlState == "42P01" else {
            Issue.record("unexpected \(other)")
            return
        }
    }

    @Test func aUniqueViolationNamesItsTableAndColumnOnPostgreSQL() throws {
        let context = try StoreRegistry.open(try PostgresServer.database("typedunique"))
        try context.define(itemEntity)
        if let error = try duplicateCodeRefusal(in: context) {
            let violation = try #require(error.constraintViolation, "\(error)")
            #expect(violation.kind == .unique && violation.table == "Item" && violation.columns == ["code"])
            let said = error.description
            #expect(said.hasPrefix("UNIQUE constraint failed: Item.code 'A' of Item/t") && said.hasSuffix(" is held by another row"), "\(said)")
        }
    }

    @Test func aForeignKeyASaveBreaksNamesItsTableAndColumnOnPostgreSQL() throws {
        let url = try PostgresServer.database("typedforeign")
        let setup = try PostgresConnection(url: url)
        try setup.execute("CREATE TABLE author (id int PRIMARY KEY, name text)")
        try setup.execute("CREATE TABLE book (id serial PRIMARY KEY, title text, author_id int REFERENCES author(id))")
        try setup.execute("INSERT INTO author VALUES (1, 'ann')")
        let context = try StoreRegistry.open(url)
        _ = try context.insert(into: "book", values: ["title": .text("x"), "author_id": .integer(99)])
        do {
            try context.save()
            Issue.record("a book of no author was saved")
        } catch let error as StoreError {
            let violation = try #require(error.constraintViolation, "\(error)")
            #expect(violation.kind == .foreignKey && violation.table == "book" && violation.columns == ["author_id"])
        }
        #expect(try setup.execute("SELECT count(*) FROM book").rows == [[.integer(0)]])
    }

    /// A statement the server cancelled at Quarry's request is `.interrupted`, as
    /// SQLite's is, and the connection goes on.
    @Test func aCancelledPostgresStatementIsTyped() throws {
        let url = try PostgresServer.database("typedcancel")
        let connection = try PostgresConnection(url: url)
        let watcher = try PostgresConnection(url: url)
        let sleep = "SELECT pg_sleep(600) AS typed_cancel_probe"
        // Asked to stop once the server shows the statement running, for this connection
        // alone (Ctrl-C would ask every test running beside this one).
        connection.shouldStop = {
            let running = try? watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE query = $1 AND state = 'active'", [.text(sleep)])
            return running?.rows == [[.integer(1)]]
        }
        do {
            try connection.execute(sleep)
            Issue.record("a ten-minute sleep ended")
        } catch let error as StoreError {
            #expect(error == .interrupted(Interruption(.interrupt, stopped: .serverStatement)), "\(error)")
            #expect(error.interruption?.reason == .interrupt)
            #expect(error.description == "interrupted!")
            // Not SQLite's code: no SQLite statement was stopped.
            #expect(error.sqliteCode == nil)
        }
        connection.shouldStop = { false }
        #expect(try connection.execute("SELECT 1 AS one").rows == [[.integer(1)]])
    }

    /// Which refusal a text of several statements is, and which function a statement
    /// lacked, are read from the server's fields and Quarry's own SQL, not its words.
    @Test func postgresRefusalsAreToldApartWithoutTheirWords() throws {
        let connection = try PostgresConnection(url: try PostgresServer.database("typedwords"))
        #expect(try connection.describe("SELECT 1; SELECT 2")?.isFollowedByAnother == true)
        #expect(try connection.describe("SELECT 1 AS one")?.isFollowedByAnother == false)
        #expect(throws: StoreError.self) { try connection.describe("SELEC 1") }
        let missing = PostgresConnection.explained(
            StoreError.postgres(sqlState: "42883", sql: "SELECT quarry_arith($1, $2)", message: "words"), sql: nil)
        #expect((missing as? StoreError)?.description.contains("arithmetic of decimals") == true, "\(missing)")
        let other = PostgresConnection.explained(
            StoreError.postgres(sqlState: "42883", sql: "SELECT f()", message: "function f() does not exist"), sql: nil)
        #expect(other as? StoreError == .postgres(sqlState: "42883", sql: nil, message: "function f() does not exist"))
    }

    /// `numeric field overflow` names no column: the save names the one whose value
    /// does not fit its precision (issue 45), on an insert and on an update.
    @Test func aNumericOverflowNamesItsColumnOnPostgreSQL() throws {
        let url = try PostgresServer.database("typedoverflow")
        let setup = try PostgresConnection(url: url)
        try setup.execute("CREATE TABLE money (id serial PRIMARY KEY, fee numeric(7,2), amount numeric(5,2), note text)")
        try setup.execute("INSERT INTO money (fee, amount) VALUES (1, 1)")
        let context = try StoreRegistry.open(url)
        _ = try context.insert(into: "money", values: ["fee": .real(12345.1), "amount": .real(12345.1), "note": .text("x")])
        let expected = StoreError.during(
            operation: "save",
            .typeMismatch(entity: "money", key: "amount", expected: "numeric(5,2), at most 3 digits before the point", given: "12345.1"))
        #expect(throws: expected) { try context.save() }
        #expect(expected.description == "save: money.amount expects numeric(5,2), at most 3 digits before the point, got 12345.1")
        _ = context.rollback()
        let saved = try #require(try context.object(entityName: "money", primaryKey: 1))
        try saved.setValue(.real(999.995), forKey: "amount")
        #expect(
            throws: StoreError.during(
                operation: "save",
                .typeMismatch(entity: "money", key: "amount", expected: "numeric(5,2), at most 3 digits before the point", given: "999.995"))
        ) {
            try context.save()
        }
        #expect(try setup.execute("SELECT count(*), max(amount)::text FROM money").rows == [[.integer(1), .text("1.00")]])
    }

    @Test func aValueOverflowsAsTheServerRoundsIt() {
        #expect(PostgresNumericOverflow.overflows(.real(99.995), precision: 4, scale: 2))
        #expect(!PostgresNumericOverflow.overflows(.real(99.994), precision: 4, scale: 2))
        #expect(PostgresNumericOverflow.overflows(.integer(-1000), precision: 5, scale: 2))
        #expect(!PostgresNumericOverflow.overflows(.text("-999.99"), precision: 5, scale: 2))
        #expect(!PostgresNumericOverflow.overflows(.text("not a number"), precision: 5, scale: 2))
    }

    // MARK: Helpers

    static func foreignFile(_ sql: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-typed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("file.db").path
        try DatabaseQueue(path: path).write { db in try db.execute(sql: sql) }
        return path
    }
}

/// A flag one thread sets and another reads.
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}

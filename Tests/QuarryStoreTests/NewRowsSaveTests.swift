import Foundation
import GRDB
import QuarryModel
import QuarryPostgreSQL
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryStore

/// A save of many new objects (issue 62): on PostgreSQL the rows go many to an INSERT
/// (`PostgresSaveStatements+NewRows`), on SQLite one statement reused. On both engines
/// each object gets the key of its own row and what the engine filled in it; objects
/// leaving out different columns (a default the engine computes, issue 60 item 7) go in
/// one save; and a refused object is named as it would be alone, with nothing written.
/// The PostgreSQL tests run against a real server (`PostgresServer`): they fail, never
/// skip, without one.
@Suite struct NewRowsSaveTests {
    /// One engine's store for a test: a context, and a reader of the table on a
    /// connection of its own (what another program sees).
    struct Store {
        let context: ObjectContext
        /// Another context on the same store.
        let open: () throws -> ObjectContext
        let rows: (String) throws -> [[Value]]
        let cleanup: () -> Void
    }

    enum Engine: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// `author` and `item` tables alike on both engines: `tag` has a default the engine
    /// computes, `n` a CHECK, `code` a UNIQUE, `amount` a precision (PostgreSQL's numeric).
    static func store(_ engine: Engine, name: String) throws -> Store {
        switch engine {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-newrows-\(UUID().uuidString).db").path
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
                        CREATE TABLE item (id INTEGER PRIMARY KEY, v TEXT NOT NULL, n INTEGER CHECK (n < 1000), code TEXT UNIQUE,
                          tag TEXT DEFAULT (lower('ABC')), amount REAL, author_id INTEGER REFERENCES author(id));
                        INSERT INTO item (v, n, code) VALUES ('old1', 1, 'c-old1'), ('old2', 2, 'c-old2'), ('old3', 3, 'c-old3');
                        """)
            }
            try queue.close()
            let reader = try OpenFileRequest.open(path: path)
            return Store(
                context: try OpenFileRequest.open(path: path), open: { try OpenFileRequest.open(path: path) },
                rows: { try reader.connection.rows($0) },
                cleanup: {
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                })
        case .postgres:
            let url = try PostgresServer.database(name)
            let setup = try PostgresConnection(url: url)
            try setup.execute("CREATE TABLE author (id bigserial PRIMARY KEY, name text)")
            try setup.execute(
                """
                CREATE TABLE item (id bigserial PRIMARY KEY, v text NOT NULL, n bigint CHECK (n < 1000), code text UNIQUE,
                  tag text DEFAULT lower('ABC'), amount numeric(6,2), author_id bigint REFERENCES author(id))
                """)
            try setup.execute("INSERT INTO item (v, n, code) VALUES ('old1', 1, 'c-old1'), ('old2', 2, 'c-old2'), ('old3', 3, 'c-old3')")
            return Store(
                context: try StoreRegistry.open(url), open: { try StoreRegistry.open(url) }, rows: { try setup.execute($0).rows },
                cleanup: {})
        }
    }

    /// New objects, more than one statement's worth: each takes its own row's key, the
    /// keys in the order the objects were made, and reads back the default the engine
    /// filled.
    @Test(arguments: Engine.allCases) func eachObjectGetsItsOwnRowsKey(_ engine: Engine) throws {
        let store = try Self.store(engine, name: "newrowskeys")
        defer { store.cleanup() }
        let context = store.context
        let objects = try (1...2_500).map { i in
            try context.insert(into: "item", values: ["v": .text("x\(i)"), "n": .integer(Int64(i % 1000)), "code": .text("c\(i)")])
        }
        let summary = try context.save()
        #expect(summary.inserted == 2_500)
        let keys = objects.compactMap(\.primaryKey)
        #expect(keys.count == 2_500)
        #expect(keys == keys.sorted() && Set(keys).count == keys.count && (keys.first ?? 0) > 3)
        var stored: [Int64: Value] = [:]
        for row in try store.rows("SELECT id, v FROM item") {
            if case .integer(let id) = row[0] { stored[id] = row[1] }
        }
        #expect(stored.count == 2_503)
        var mismatched = 0
        for (i, object) in objects.enumerated() {
            guard let key = object.primaryKey else { continue }
            let id = try object.value(forKey: "id")
            let tag = try object.value(forKey: "tag")
            if stored[key] != .text("x\(i + 1)") || id != .integer(key) || tag != .text("abc") { mismatched += 1 }
        }
        #expect(mismatched == 0)
    }

    /// Objects given a computed default's column, given nil for it, and leaving it to the
    /// engine, interleaved in one save: each row as its object had it, read back alike.
    @Test(arguments: Engine.allCases) func objectsLeavingOutDifferentColumnsGoInOneSave(_ engine: Engine) throws {
        let store = try Self.store(engine, name: "newrowscolumns")
        defer { store.cleanup() }
        let context = store.context
        func expected(_ i: Int) -> Value {
            switch i % 3 {
            case 0: return .text("given\(i)")
            case 1: return .null
            default: return .text("abc")
            }
        }
        let objects = try (0..<1_200).map { i in
            let object = try context.insert(into: "item", values: ["v": .text("y\(i)")])
            if i % 3 == 0 { try object.setValue(.text("given\(i)"), forKey: "tag") }
            if i % 3 == 1 { try object.setValue(.null, forKey: "tag") }
            return object
        }
        try context.save()
        let keys = objects.compactMap(\.primaryKey)
        #expect(keys.count == 1_200 && keys == keys.sorted())
        var stored: [Int64: Value] = [:]
        for row in try store.rows("SELECT id, tag FROM item WHERE v LIKE 'y%'") {
            if case .integer(let id) = row[0] { stored[id] = row[1] }
        }
        var wrong: [String] = []
        for (i, object) in objects.enumerated() {
            let tag = try object.value(forKey: "tag")
            if stored[object.primaryKey ?? -1] != expected(i) || tag != expected(i) { wrong.append("\(i): \(tag)") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// A full statement's worth of objects giving one text column, then as many giving
    /// another: the second statement is made for its own columns (statements alike share
    /// their SQL), and each row holds what its object gave. Both columns are text, so a
    /// statement made for the other column would be taken, not refused and written again.
    @Test(arguments: Engine.allCases) func fullStatementsOfOtherColumnsKeepTheirOwn(_ engine: Engine) throws {
        let store = try Self.store(engine, name: "newrowsshapes")
        defer { store.cleanup() }
        let context = store.context
        let objects = try (0..<2_000).map { i in
            try context.insert(into: "item", values: ["v": .text("s\(i)"), (i < 1_000 ? "code" : "tag"): .text("k\(i)")])
        }
        try context.save()
        var stored: [Int64: (code: Value, tag: Value)] = [:]
        for row in try store.rows("SELECT id, code, tag FROM item WHERE v LIKE 's%'") {
            if case .integer(let id) = row[0] { stored[id] = (row[1], row[2]) }
        }
        #expect(stored.count == 2_000)
        let wrong = objects.enumerated().count { i, object in
            guard let row = stored[object.primaryKey ?? -1] else { return true }
            return i < 1_000 ? (row.code != .text("k\(i)") || row.tag != .text("abc")) : (row.code != .null || row.tag != .text("k\(i)"))
        }
        #expect(wrong == 0, "rows holding another run's columns")
    }

    /// Objects naming objects inserted in the same save (each new item's author new too,
    /// made between them): every link holds its author's new key.
    @Test(arguments: Engine.allCases) func newObjectsNamingNewObjectsHoldTheirKeys(_ engine: Engine) throws {
        let store = try Self.store(engine, name: "newrowslinks")
        defer { store.cleanup() }
        let context = store.context
        var pairs: [(item: ManagedObject, author: ManagedObject)] = []
        for a in 0..<300 {
            let author = try context.insert(into: "author", values: ["name": .text("a\(a)")])
            for k in 0..<3 {
                let item = try context.insert(into: "item", values: ["v": .text("z\(a)-\(k)")])
                try context.setRelatedObject(author, "author", of: item)
                pairs.append((item, author))
            }
        }
        try context.save()
        var authorOf: [Int64: Value] = [:]
        for row in try store.rows("SELECT id, author_id FROM item WHERE v LIKE 'z%'") {
            if case .integer(let id) = row[0] { authorOf[id] = row[1] }
        }
        #expect(authorOf.count == 900)
        let wrong = pairs.filter { pair in
            guard let item = pair.item.primaryKey, let author = pair.author.primaryKey else { return true }
            return authorOf[item] != .integer(author) || (try? pair.item.value(forKey: "author_id")) != .integer(author)
        }
        #expect(wrong.isEmpty, "\(wrong.count) items hold another author's key")
    }

    /// The refusal one object of a save alone gets: the object made alone in a fresh
    /// context of the same store, and saved.
    static func refusalAlone(_ store: Store, values: [String: Value]) throws -> StoreError? {
        let context = try store.open()
        _ = try context.insert(into: "item", values: values)
        defer { context.rollback() }
        do { try context.save() } catch let error as StoreError { return error }
        return nil
    }

    /// Object #k of n refused (a CHECK, a value past its column's precision, a UNIQUE
    /// value another new object of the save holds): the save says what saving that
    /// object alone says, writes nothing, and keeps its changes; fixed, it saves.
    @Test(arguments: Engine.allCases) func aRefusedObjectIsNamedAsAloneAndNothingIsWritten(_ engine: Engine) throws {
        let store = try Self.store(engine, name: "newrowsrefused")
        defer { store.cleanup() }
        let context = store.context
        let objects = try (1...1_800).map { i in
            try context.insert(into: "item", values: ["v": .text("r\(i)"), "n": .integer(Int64(i % 1000)), "amount": .real(1.5)])
        }
        let before = try store.rows("SELECT count(*) FROM item")
        // Each case: what object #k is given, and the values it is saved with alone.
        var cases: [(name: String, k: Int, key: String, value: Value)] = [
            ("CHECK", 1_234, "n", .integer(5_000)),
            ("UNIQUE", 1_001, "code", .text("c-old2"))
        ]
        if engine == .postgres { cases.append(("numeric", 1_500, "amount", .real(123_456.5))) }
        for refused in cases {
            let object = objects[refused.k - 1]
            let kept = try object.value(forKey: refused.key)
            try object.setValue(refused.value, forKey: refused.key)
            var given: StoreError?
            do { try context.save() } catch let error as StoreError { given = error }
            var alone: [String: Value] = ["v": .text("alone"), "n": .integer(1), "amount": .real(1.5)]
            alone[refused.key] = refused.value
            let saidAlone = try Self.refusalAlone(store, values: alone)
            let said = try #require(given, "\(refused.name): object #\(refused.k) was saved")
            let aloneSaid = try #require(saidAlone, "\(refused.name): saved alone, the object was not refused")
            #expect(Self.withoutRow(said) == Self.withoutRow(aloneSaid), "\(refused.name)")
            #expect(Self.withoutObject(said.constraintViolation) == Self.withoutObject(aloneSaid.constraintViolation), "\(refused.name)")
            #expect(try store.rows("SELECT count(*) FROM item") == before, "\(refused.name): rows were written")
            #expect(context.hasChanges && objects.allSatisfy { $0.primaryKey == nil })
            try object.setValue(kept, forKey: refused.key)
        }
        // Two new objects holding the same UNIQUE value: the second is refused, as it
        // would be saved after the first.
        try objects[1_700].setValue(.text("twice"), forKey: "code")
        try objects[1_750].setValue(.text("twice"), forKey: "code")
        #expect(throws: StoreError.self) { try context.save() }
        #expect(try store.rows("SELECT count(*) FROM item") == before)
        try objects[1_750].setValue(.text("once"), forKey: "code")
        try context.save()
        #expect(try store.rows("SELECT count(*) FROM item") == [[.integer(1_803)]])
        #expect(objects.allSatisfy { $0.primaryKey != nil })
    }

    /// A refusal's words, less what names the row's values by position (PostgreSQL's
    /// "Failing row contains (...)" holds the key the sequence gave, another each time).
    static func withoutRow(_ error: StoreError) -> String {
        let said = String(describing: error).components(separatedBy: "Failing row contains")[0]
        // The refused object's own ID (temporary: another in each save) left out too.
        guard let object = error.constraintViolation?.object else { return said }
        return said.replacingOccurrences(of: " of \(object) ", with: " of the object ")
    }

    /// The violation without the refused object's ID, as `withoutRow`.
    static func withoutObject(_ violation: ConstraintViolation?) -> ConstraintViolation? {
        var violation = violation
        violation?.object = nil
        return violation
    }

    /// A trigger that drops some new rows (a BEFORE trigger returning NULL) leaves the
    /// server returning fewer rows than were sent: refused as the first dropped row alone
    /// is, with nothing written.
    @Test func aRowATriggerDropsIsRefusedAsAloneOnPostgreSQL() throws {
        let store = try Self.store(.postgres, name: "newrowsdropped")
        _ = try store.rows(
            "CREATE FUNCTION drop_skipped() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.v = 'skip' THEN RETURN NULL; END IF; RETURN NEW; END $$"
        )
        _ = try store.rows("CREATE TRIGGER drop_skipped BEFORE INSERT ON item FOR EACH ROW EXECUTE FUNCTION drop_skipped()")
        let context = try store.open()
        for i in 1...500 { _ = try context.insert(into: "item", values: ["v": .text(i == 321 ? "skip" : "s\(i)")]) }
        #expect(throws: StoreError.database(message: "item: the server returned no integer key for the new row")) { try context.save() }
        #expect(try store.rows("SELECT count(*) FROM item") == [[.integer(3)]])
    }

    /// A statement the server refuses whole, whose rows pass one at a time (a trigger
    /// that takes one row per statement, as a statement timeout or a serialization
    /// failure may refuse many rows at once): every row of the run is written again alone,
    /// those of the statements after the refused one too, and each object takes its key.
    @Test func aStatementRefusedWholeIsWrittenARowAtATimeOnPostgreSQL() throws {
        let store = try Self.store(.postgres, name: "newrowswhole")
        _ = try store.rows(
            """
            CREATE FUNCTION one_at_a_time() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
              IF (SELECT count(*) FROM added) > 1 THEN RAISE EXCEPTION 'one row at a time'; END IF; RETURN NULL; END $$
            """)
        _ = try store.rows(
            "CREATE TRIGGER one_at_a_time AFTER INSERT ON item REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION one_at_a_time()"
        )
        let context = try store.open()
        // More than one statement's worth (`rowsPerStatement`): the first is refused, the
        // server skips the second.
        let objects = try (1...1_200).map { try context.insert(into: "item", values: ["v": .text("w\($0)")]) }
        try context.save()
        #expect(try store.rows("SELECT count(*), count(DISTINCT id) FROM item WHERE v LIKE 'w%'") == [[.integer(1_200), .integer(1_200)]])
        let keys = objects.compactMap(\.primaryKey)
        #expect(keys.count == 1_200 && Set(keys).count == 1_200)
        #expect(try store.rows("SELECT v FROM item WHERE id = \(keys[1_100])") == [[.text("w1101")]])
    }
}

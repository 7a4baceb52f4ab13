import Foundation
import GRDB
import QuarryCoreData
import QuarryFetch
import QuarryLua
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Stores written by Core Data itself (`../shared/data/coredata`), opened as their model's
/// entities: every answer is checked against plain SQL over the Z-tables of the same copy,
/// read through a separate connection.
@Suite struct CoreDataStoreTests {
    /// A copy of a store, opened by Quarry, and a plain connection to it for the answers.
    struct Opened {
        let path: String
        let context: ObjectContext
        let sql: DatabaseQueue

        init(_ relative: String, model: String? = nil) throws {
            path = try CoreDataFixtures.copyOfStore(relative)
            context = try StoreOpener.open(path, model: model.map { try CoreDataFixtures.path($0) })
            var configuration = Configuration()
            configuration.readonly = true
            sql = try DatabaseQueue(path: path, configuration: configuration)
        }

        /// Z_ENT numbers of `entity` and its sub-entities, from Z_PRIMARYKEY.
        func family(_ entity: String) throws -> [Int64] {
            try sql.read { db in
                try Int64.fetchAll(
                    db,
                    sql: """
                        WITH RECURSIVE family(e) AS (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = ?
                          UNION SELECT p.Z_ENT FROM Z_PRIMARYKEY p JOIN family f ON p.Z_SUPER = f.e)
                        SELECT e FROM family ORDER BY e
                        """, arguments: [entity])
            }
        }

        /// The table of `entity`'s root.
        func table(_ entity: String) throws -> String {
            try sql.read { db in
                var name = entity
                while let parent = try String.fetchOne(
                    db, sql: "SELECT s.Z_NAME FROM Z_PRIMARYKEY e JOIN Z_PRIMARYKEY s ON e.Z_SUPER = s.Z_ENT WHERE e.Z_NAME = ?", arguments: [name])
                {
                    name = parent
                }
                return "Z" + name.uppercased()
            }
        }

        /// `SELECT Z_PK, <expression> FROM <root table> WHERE Z_ENT IN family ORDER BY Z_PK`.
        func column(_ entity: String, _ expression: String) throws -> [(Int64, DatabaseValue)] {
            let codes = try family(entity).map(String.init).joined(separator: ",")
            let table = try table(entity)
            return try sql.read { db in
                try Row.fetchAll(db, sql: "SELECT Z_PK, \(expression) FROM \(table) WHERE Z_ENT IN (\(codes)) ORDER BY Z_PK")
                    .map { ($0[0], $0[1]) }
            }
        }

        /// Every object of `entity`, in key order.
        func objects(_ entity: String) throws -> [ManagedObject] {
            try FetchRequest(entityName: entity).execute(in: context).objects() // in key order, the default
        }
    }

    @Test(arguments: CoreDataFixtures.stores.map(\.path))
    func everyStoreOpensAsItsModelsEntitiesWithTheCountsOfSQL(_ store: String) throws {
        let opened = try Opened(store)
        let names = try opened.sql.read { db in try String.fetchAll(db, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_NAME") }
        #expect(opened.context.entities.map(\.name).sorted() == names, "\(store)")
        for entity in opened.context.entities {
            #expect(!entity.name.hasPrefix("Z"), "a Z-table became an entity: \(entity.name)")
            let expected = try opened.column(entity.name, "1").count
            #expect(try FetchRequest(entityName: entity.name).count(in: opened.context) == expected, "\(store): count of \(entity.name)")
        }
        #expect(
            CoreDataStore.behind(opened.context)?.notes.contains { $0.contains("inferred") } == !CoreDataFixtures.stores.first { $0.path == store }!
                .hasCache)
    }

    /// Every attribute of every entity, read through Quarry, equals the column in SQL
    /// (dates from Core Data's 2001 epoch, UUID blobs as their text).
    @Test(arguments: CoreDataFixtures.stores.map(\.path))
    func everyValueIsTheColumnsValue(_ store: String) throws {
        let opened = try Opened(store)
        for entity in opened.context.entities {
            let objects = try opened.objects(entity.name)
            for attribute in entity.attributes {
                let column = "Z" + attribute.name.uppercased()
                let expected = try opened.column(entity.name, column)
                #expect(objects.map { $0.primaryKey } == expected.map { $0.0 })
                for (object, (_, stored)) in zip(objects, expected) {
                    let value = try object.value(forKey: attribute.name)
                    let want: Value
                    switch (attribute.type, stored.storage) {
                    case (_, .null): want = .null
                    case (.date, .double(let d)): want = .date(d + CoreDataStore.epochOffset)
                    case (.date, .int64(let i)): want = .date(Double(i) + CoreDataStore.epochOffset)
                    case (.uuid, .blob(let data)):
                        let hex = data.map { String(format: "%02X", $0) }.joined()
                        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { r in String(hex.dropFirst(r.lowerBound).prefix(r.count)) }
                        want = .text(parts.joined(separator: "-"))
                    default: want = attribute.type.decode(Value(stored))
                    }
                    #expect(value == want, "\(store): \(object.objectID).\(attribute.name) is \(value), SQL says \(want)")
                }
            }
        }
    }

    @Test func inheritanceIncludesSubEntitiesAndKnowsEachRowsEntity() throws {
        let opened = try Opened("cars/SampleModel_V1.sqlite")
        let h = try Harness(context: opened.context)
        #expect(h.string(#"count("Car")"#) == "\(try opened.column("Car", "1").count)")
        #expect(h.string(#"count("SportCar")"#) == "\(try opened.column("SportCar", "1").count)")
        #expect(
            h.string(#"#fetch{ "Car", subentities = false }"#)
                == "\(try opened.sql.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ZCAR WHERE Z_ENT = 1") ?? -1 })")
        // Each row's own entity, whatever it was fetched as.
        let kinds = try opened.sql.read { db in
            try Row.fetchAll(db, sql: "SELECT c.Z_PK, p.Z_NAME FROM ZCAR c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.Z_ENT ORDER BY c.Z_PK")
        }
        for row in kinds {
            let key: Int64 = row[0]
            let name: String = row[1]
            #expect(h.string(#"Car:get("Car/\#(key)"):entity().name"#) == name)
        }
        // A predicate over the parent may name a sub-entity's attribute.
        let limited = try opened.sql.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ZCAR WHERE ZISLIMITEDEDITION = 1") ?? -1 }
        #expect(h.string(#"count("Car", "isLimitedEdition == YES")"#) == "\(limited)")
    }

    /// A tampered store whose Z_PRIMARYKEY lacks a middle entity (SportCar): its own rows
    /// are not read, and its sub-entity's rows are still their own entity when fetched
    /// through the root, one object each, with counts and rows in agreement.
    @Test func aSubEntityWhoseParentZPrimaryKeyLacksHangsFromTheRoot() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let writer = try DatabaseQueue(path: path)
        try writer.write { db in try db.execute(sql: "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'SportCar'") }
        let expected = try writer.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM ZCAR WHERE Z_ENT IN (SELECT Z_ENT FROM Z_PRIMARYKEY)") ?? -1,
                try Int64.fetchAll(
                    db, sql: "SELECT Z_PK FROM ZCAR WHERE Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'ExpensiveSportCar') ORDER BY Z_PK")
            )
        }
        try writer.close()
        #expect(!expected.1.isEmpty, "the store has ExpensiveSportCar rows")
        let context = try StoreOpener.open(path)
        let h = try Harness(context: context)
        #expect(h.string(#"count("Car")"#) == "\(expected.0)")
        #expect(h.string(#"#fetch("Car")"#) == "\(expected.0)")
        h.run(#"walked = 0; for _ in ipairs(fetch("Car")) do walked = walked + 1 end"#)
        #expect(h.string("walked") == "\(expected.0)")
        for key in expected.1 {
            #expect(h.string(#"Car:get("Car/\#(key)"):entity().name"#) == "ExpensiveSportCar")
            #expect(h.string(#"rawequal(Car:get("Car/\#(key)"), ExpensiveSportCar:get("ExpensiveSportCar/\#(key)"))"#) == "true")
        }
        h.run(#"seen = {}; for _, c in ipairs(fetch("Car")) do seen[c:entity().name] = (seen[c:entity().name] or 0) + 1 end"#)
        #expect(h.string("seen.ExpensiveSportCar") == "\(expected.1.count)")
    }

    @Test func relationshipsFollowTheKeysOfSQL() throws {
        let opened = try Opened("cars/SampleModel_V1.sqlite")
        let h = try Harness(context: opened.context)
        let owners = try opened.sql.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, ZOWNER FROM ZCAR WHERE ZOWNER IS NOT NULL ORDER BY Z_PK LIMIT 30")
        }
        for row in owners {
            let car: Int64 = row[0]
            let owner: Int64 = row[1]
            #expect(h.string(#"Car:get("Car/\#(car)").owner:objectID()"#) == "Person/\(owner)")
        }
        let perPerson = try opened.sql.read { db in
            try Row.fetchAll(db, sql: "SELECT p.Z_PK, (SELECT count(*) FROM ZCAR c WHERE c.ZOWNER = p.Z_PK) FROM ZPERSON p ORDER BY p.Z_PK")
        }
        for row in perPerson {
            let person: Int64 = row[0]
            let cars: Int = row[1]
            #expect(h.string(#"#Person:get("Person/\#(person)").cars"#) == "\(cars)")
        }
        let joined = try opened.sql.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM ZCAR c JOIN ZPERSON p ON c.ZOWNER = p.Z_PK WHERE p.ZFIRSTNAME LIKE 'V%'") ?? -1
        }
        #expect(h.string(#"count("Car", "owner.firstName BEGINSWITH 'V'")"#) == "\(joined)")
        #expect(h.string(#"count("Person", "cars.@count > 1")"#) == "\(perPerson.filter { ($0[1] as Int) > 1 }.count)")
    }

    @Test func rowsThatLiveOnlyInTheWALAreRead() throws {
        let opened = try Opened("surfjournal/SurfJournalModel.sqlite", model: "surfjournal/SurfJournalModel.xcdatamodeld")
        let rows = try opened.sql.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ZJOURNALENTRY") ?? -1 }
        #expect(rows > 0)
        #expect(try FetchRequest(entityName: "JournalEntry").count(in: opened.context) == rows)
        #expect(CoreDataStore.behind(opened.context)?.modelSource.hasSuffix("SurfJournalModel.xcdatamodeld") == true)
        // The model file's names, not inferred ones.
        #expect(try opened.context.entity(named: "JournalEntry").attribute(named: "location") != nil)
    }

    /// Opening, reading every object and closing changes no byte of the store or its
    /// -wal, and leaves no file beside them.
    @Test(arguments: CoreDataFixtures.stores.map(\.path))
    func readingChangesNoByte(_ store: String) throws {
        let path = try CoreDataFixtures.copyOfStore(store)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasSuffix("-shm") {
                files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
            return files
        }
        let before = try snapshot()
        for readOnly in [false, true] {
            let context = try StoreOpener.open(path, readOnly: readOnly)
            for entity in context.entities {
                for object in try FetchRequest(entityName: entity.name).execute(in: context).objects() { _ = object.values }
            }
            context.close()
            #expect(try snapshot() == before, "\(store): reading (readOnly: \(readOnly)) changed the files")
        }
    }

    /// A save writes what Core Data would: keys from the root's Z_MAX in the same
    /// transaction, Z_ENT and Z_OPT, dates in the 2001 epoch, UUIDs as 16-byte blobs,
    /// the relationship column, and Z_OPT + 1 on a change of only the columns assigned.
    @Test func savingWritesAsCoreDataWould() throws {
        let opened = try Opened("cars/SampleModel_V1.sqlite")
        let h = try Harness(context: opened.context)
        let maxBefore = try opened.sql.read { db in try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Car'") ?? -1 }
        let untouched = try opened.sql.read { db in try Row.fetchOne(db, sql: "SELECT ZMARKEDFORDELETIONASOF, ZCOLOR, Z_OPT FROM ZCAR WHERE Z_PK = 1")
        }
        h.run(
            #"""
            local owner = Person:get("Person/1")
            assert(not pcall(SportCar.new, SportCar, { maker = "Ferrari", numberPlate = "Q-0", isLimitedEdition = true }),
                   "a SportCar has no isLimitedEdition (its sub-entity's)")
            local c = ExpensiveSportCar:new{ maker = "Ferrari", model = "F40", numberPlate = "Q-1", isLimitedEdition = true,
                                    markedForDeletionAsOf = date("2024-01-02T03:04:05Z") }
            c.owner = owner
            local p = Person:new{ firstName = "Quarry", lastName = "Test", id = "1CD6E50D-94D1-4E02-B82A-BB220F6AFCA4", updatedAt = date(1700000000) }
            save()
            assert(c:objectID() == "ExpensiveSportCar/\#(maxBefore + 1)", c:objectID())
            Car:get("Car/1").model = "Panda 2"
            save()
            """#)
        try opened.sql.read { db in
            #expect(try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Car'") == maxBefore + 1)
            let row = try #require(
                try Row.fetchOne(
                    db, sql: "SELECT Z_ENT, Z_OPT, ZOWNER, ZMAKER, ZMARKEDFORDELETIONASOF, ZISLIMITEDEDITION FROM ZCAR WHERE Z_PK = ?",
                    arguments: [maxBefore + 1]))
            let expensive = try Int64.fetchOne(db, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'ExpensiveSportCar'")
            #expect(row[0] as Int64? == expensive && row[1] as Int64 == 1 && row[2] as Int64 == 1 && row[3] as String == "Ferrari")
            #expect(row[4] as Double == 1_704_164_645 - CoreDataStore.epochOffset && row[5] as Int64 == 1)
            let person = try #require(try Row.fetchOne(db, sql: "SELECT Z_ENT, Z_OPT, hex(ZID), ZUPDATEDAT FROM ZPERSON WHERE ZFIRSTNAME = 'Quarry'"))
            #expect(person[0] as Int64 == 4 && person[1] as Int64 == 1 && person[2] as String == "1CD6E50D94D14E02B82ABB220F6AFCA4")
            #expect(person[3] as Double == 1_700_000_000 - CoreDataStore.epochOffset)
            let changed = try #require(try Row.fetchOne(db, sql: "SELECT ZMODEL, ZMARKEDFORDELETIONASOF, ZCOLOR, Z_OPT FROM ZCAR WHERE Z_PK = 1"))
            #expect(changed[0] as String == "Panda 2")
            #expect(changed[1] as DatabaseValue == untouched?[0] as DatabaseValue? && changed[2] as DatabaseValue == untouched?[1] as DatabaseValue?)
            #expect(changed[3] as Int64 == (untouched?[2] as Int64? ?? 0) + 1)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'quarry%'").isEmpty, "Quarry's tables were added")
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
        }
    }

    /// A new object takes the model's defaults (`defaultValueString`), as Core Data's does.
    @Test func newObjectsTakeTheModelsDefaults() throws {
        let opened = try Opened("cars/SampleModel_V1.sqlite")
        let h = try Harness(context: opened.context)
        h.run(#"ExpensiveSportCar:new{ maker = "Kia", numberPlate = "D-1" }; save()"#)
        try opened.sql.read { db in
            let stored = try Row.fetchOne(db, sql: "SELECT ZISLIMITEDEDITION FROM ZCAR WHERE ZNUMBERPLATE = 'D-1'")
            #expect(stored?[0] as Int64? == 0, "the model's default NO was not written")
        }
    }

    /// A to-one relationship the model makes required (Post.color) must have a target
    /// when saved, as Core Data validates it; nothing is written otherwise.
    @Test func requiredToOneRelationshipsAreValidated() throws {
        let opened = try Opened("posts/CoreDataMigration_Example_3.sqlite")
        let h = try Harness(context: opened.context)
        let before = try opened.sql.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ZPOST") }
        #expect(h.error(#"Post:new{ postID = "x" }; save()"#).contains("Post/t1.color is required but nil"))
        h.run(
            #"""
            rollback()
            local p = Post:new{ postID = "y" }
            p.color = Color:new{ colorID = "c", hex = "#ffffff" }
            save()
            """#)
        let after = try opened.sql.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ZPOST") }
        #expect(after == (before ?? 0) + 1)
    }

    /// `explain` over a Core Data store shows the Z-table SQL each entity reads.
    @Test func explainShowsTheZTables() throws {
        let opened = try Opened("cars/SampleModel_V1.sqlite")
        let h = try Harness(context: opened.context)
        let text = h.string(#"explain(fetch("Car", "owner.firstName == %@", "x"))"#) ?? ""
        #expect(text.contains(#""Car" reads: SELECT "Z_PK" AS "_pk""#) && text.contains(#"FROM main."ZCAR""#), "\(text)")
        #expect(text.contains(#"FROM main."ZPERSON""#) && text.contains("978307200"), "\(text)")
    }

    /// A copy of the cars store changed by `sql` (as another program might leave it), opened.
    private func carsOpened(after sql: String) throws -> ObjectContext {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
        return try StoreOpener.open(path)
    }

    /// A model cache that cannot be decoded is said to be so (not "no model"), and the
    /// names are inferred.
    @Test func anUnreadableModelCacheIsNamedInTheNote() throws {
        let context = try carsOpened(after: "UPDATE Z_MODELCACHE SET Z_CONTENT = x'0102030405'")
        #expect(
            context.openingNotes.contains { $0.contains("its model cache could not be read") && $0.contains("inferred") }, "\(context.openingNotes)")
        #expect(try FetchRequest(entityName: "Car").count(in: context) == 125, "inferred names read the rows")
    }

    /// A save SQLite refuses is told in the model's names, not the Z-table's.
    @Test func refusalsNameTheModelsKeys() throws {
        let opened = try Opened("cars/SampleModel_V1.sqlite")
        let h = try Harness(context: opened.context)
        let message = h.error(#"Car:new{ maker = "x", numberPlate = Car:first().numberPlate }; save()"#)
        #expect(message.contains("UNIQUE constraint failed: Car.numberPlate") && !message.contains("ZCAR"), "\(message)")
    }

    /// Rows whose Z_ENT names no entity of the table's family are read as its root, and a
    /// note says how many.
    @Test func rowsOfAnUnknownEntityAreNoted() throws {
        let context = try carsOpened(after: "UPDATE ZCAR SET Z_ENT = 99 WHERE Z_PK IN (1, 2)")
        #expect(context.openingNotes.contains("ZCAR: 2 rows whose Z_ENT names no entity of Car's family are read as Car"), "\(context.openingNotes)")
    }

    /// A table holding one entity is not counted for strays at each open (that read every
    /// table of a big store): its rows are all its entity's, whatever their Z_ENT.
    @Test func aTableOfOneEntityIsNotScannedForStrays() throws {
        let context = try carsOpened(after: "UPDATE ZPERSON SET Z_ENT = 99 WHERE Z_PK IN (SELECT Z_PK FROM ZPERSON LIMIT 2)")
        #expect(!context.openingNotes.contains { $0.contains("ZPERSON") }, "\(context.openingNotes)")
        #expect(try FetchRequest(entityName: "Person").count(in: context) == 20)
    }

    /// Where Z_PK is the table's rowid (as Core Data declares it) the view has no filter on
    /// its type, so SQLite counts it as it counts the table; a Z_PK that may hold text
    /// keeps the filter, and a row keyed by text is still no object.
    @Test func onlyAKeyThatMayHoldTextIsFiltered() throws {
        let opened = try Opened("cars/SampleModel_V1.sqlite")
        let person = try #require(CoreDataStore.behind(opened.context)?.tableSQL(readBy: "\"Person\"").first?.sql)
        #expect(!person.contains("typeof(\"Z_PK\")") && person.hasSuffix("FROM main.\"ZPERSON\""), "\(person)")
        let context = try carsOpened(
            after: """
                ALTER TABLE ZPERSON RENAME TO OLDPERSON; CREATE TABLE ZPERSON AS SELECT * FROM OLDPERSON; DROP TABLE OLDPERSON;
                INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT) VALUES ('text', 4, 1)
                """)
        let filtered = try #require(CoreDataStore.behind(context)?.tableSQL(readBy: "\"Person\"").first?.sql)
        #expect(filtered.contains("typeof(\"Z_PK\") = 'integer'"), "\(filtered)")
        #expect(try FetchRequest(entityName: "Person").count(in: context) == 20)
    }

    /// A schema another program wrote by hand: a table's SQL stored as a blob (GRDB's
    /// text conversion trapped on it), and a table whose name folds to another's only in
    /// Unicode (`ZPERſON`; SQLite folds ASCII only), beside a Z_PK that may hold text.
    @Test func oddSchemasAreReadAsSQLiteReadsThem() throws {
        let blobbed = try carsOpened(
            after: """
                CREATE TABLE ZJUNK(a); PRAGMA writable_schema=ON;
                UPDATE sqlite_master SET sql = CAST(CAST('CREATE TABLE ZJUNK(a /*' AS BLOB) || X'FF' || CAST('*/)' AS BLOB) AS BLOB) WHERE name = 'ZJUNK';
                PRAGMA writable_schema=OFF
                """)
        #expect(try FetchRequest(entityName: "Car").count(in: blobbed) == 125)
        let folded = try carsOpened(
            after: """
                ALTER TABLE ZPERSON RENAME TO ZOLD; CREATE TABLE "ZPERſON"(Z_PK INTEGER PRIMARY KEY);
                CREATE TABLE ZPERSON (Z_PK INTEGER PRIMARY KEY DESC, Z_ENT INTEGER, Z_OPT INTEGER, ZUPDATEDAT TIMESTAMP, ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR, ZID BLOB);
                INSERT INTO ZPERSON SELECT * FROM ZOLD; DROP TABLE ZOLD;
                INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZUPDATEDAT) VALUES ('abc', 4, 1, 't', 0), (1.5, 4, 1, 'r', 0)
                """)
        #expect(try FetchRequest(entityName: "Person").count(in: folded) == 20)
    }

    @Test func manyToManyPairsWriteTheJoinTable() throws {
        let opened = try Opened("authors/TestModel.sqlite")
        let h = try Harness(context: opened.context)
        h.run(
            #"""
            local a = Author:new{ firstName = "Ada", lastName = "Lovelace" }
            local b, c = Book:new{ title = "Notes" }, Book:new{ title = "Letters" }
            a.books:add(b); c.authors:add(a)
            save()
            assert(#a.books == 2 and #b.authors == 1)
            assert(count("Book", "ANY authors.lastName == 'Lovelace'") == 2)
            b:delete(); save()
            """#)
        let (links, books, integrity) = try opened.sql.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM Z_1BOOKS"), try Int.fetchOne(db, sql: "SELECT count(*) FROM ZBOOK"),
                try String.fetchOne(db, sql: "PRAGMA integrity_check")
            )
        }
        #expect(links == 1 && books == 1 && integrity == "ok")
    }

    @Test func whatCannotBeWrittenFaithfullyIsRefused() throws {
        let opened = try Opened("cars/SampleModel_V1.sqlite")
        let h = try Harness(context: opened.context)
        #expect(h.error(#"entity "Thing" { n = "int64" }"#).contains("Core Data store"))
        // Another model is not taken: the store carries its own (Z_MODELCACHE), which
        // --model does not override, so the refusal does not offer it.
        let model = try CoreDataFixtures.path("cars/SampleModel.xcdatamodeld")
        let refusal = h.error("model([[\(model)]])")
        #expect(refusal.contains("the model it carries (Z_MODELCACHE)") && !refusal.contains("open it with --model MODEL"), "\(refusal)")
        let before = try Data(contentsOf: URL(fileURLWithPath: opened.path))
        // The store's own uniqueness constraint holds: nothing is written.
        let plate = try opened.sql.read { db in
            try String.fetchOne(db, sql: "SELECT ZNUMBERPLATE FROM ZCAR WHERE ZNUMBERPLATE IS NOT NULL LIMIT 1") ?? ""
        }
        let message = h.error(#"Car:new{ maker = "x", model = "y", numberPlate = "\#(plate)" }; save()"#)
        #expect(message.contains("UNIQUE"), "\(message)")
        #expect(h.string("haschanges()") == "true")
        h.run("rollback()")
        #expect(try Data(contentsOf: URL(fileURLWithPath: opened.path)) == before)
    }

    /// A store whose history table is not the one Core Data makes is read, but a save is
    /// refused whole (its history cannot be written as Core Data writes it), with nothing
    /// written. (Stores with Core Data's own history tables: CoreDataHistoryWriteTests.)
    @Test func aStoreWithPersistentHistoryRefusesSaves() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, ZAUTHOR VARCHAR)") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"count("Car")"#) == "125")
        let message = h.error(#"Car:get("Car/1").model = "x"; save()"#)
        #expect(message.contains("persistent history") && message.contains("nothing was written"), "\(message)")
        #expect(h.string("haschanges()") == "true")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}

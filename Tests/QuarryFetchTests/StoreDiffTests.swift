import Foundation
import QuarryFetch
import QuarryModel
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// `StoreDiff`: two copies of a store, one changed by `sqlite3` (as another program
/// would), compared object by object. Each test makes known changes and expects exactly
/// those back, no more: a diff that reported every row, or none, fails.
@Suite struct StoreDiffTests {
    /// Runs `sql` on the file at `path` through the `sqlite3` program.
    static func sqlite3(_ path: String, _ sql: String) throws {
        let ended = try Subprocess.run("/usr/bin/sqlite3", [path, sql])
        guard ended.status == 0 else {
            throw SQLite3Failure(description: "sqlite3 \(path) failed (\(ended.status)): \(String(decoding: ended.errors, as: UTF8.self))")
        }
    }

    struct SQLite3Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A copy of the file at `path` beside it, named `name`.
    static func copy(_ path: String, as name: String) throws -> String {
        let target = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name).path
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: target + suffix)
        }
        return target
    }

    /// The changes as lines `mark entity key property old new`, sorted, to compare whole.
    static func lines(_ diff: StoreDiff) -> [String] {
        diff.changes.map { c in
            [c.kind.mark, c.entity, "\(c.keyValue)", c.property ?? "", "\(c.old)", "\(c.new)"].joined(separator: " ")
        }.sorted()
    }

    /// A foreign SQLite file: `item` keyed by an integer, `line` by two columns, `loose`
    /// by nothing at all.
    static func foreignFile() throws -> String {
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = folder.appendingPathComponent("shop.sqlite").path
        var sql = """
            CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL, code TEXT UNIQUE);
            CREATE TABLE line (order_no INTEGER NOT NULL, n INTEGER NOT NULL, qty INTEGER, note TEXT, PRIMARY KEY (order_no, n));
            CREATE TABLE loose (label TEXT, amount INTEGER);
            """
        for i in 1...300 {
            sql += "INSERT INTO item VALUES (\(i), 'item \(i)', \(Double(i) * 1.25), 'C\(i)');"
            sql += "INSERT INTO line VALUES (\(i / 10), \(i % 10), \(i), 'n\(i)');"
        }
        sql += "INSERT INTO loose VALUES ('a', 1), ('b', 2);"
        try sqlite3(path, sql)
        return path
    }

    @Test func aForeignFileReportsTheChangedAttributeTheDeletedRowAndTheInsertedRowOnly() throws {
        let old = try Self.foreignFile()
        let new = try Self.copy(old, as: "changed.sqlite")
        try Self.sqlite3(
            new,
            """
            UPDATE item SET name = 'renamed' WHERE id = 7;
            DELETE FROM item WHERE id = 250;
            INSERT INTO item VALUES (301, 'fresh', 1.5, 'C301');
            UPDATE line SET qty = 999 WHERE order_no = 3 AND n = 4;
            DELETE FROM line WHERE order_no = 29 AND n = 9;
            """)
        let a = try StoreOpener.open(old, readOnly: true)
        let b = try StoreOpener.open(new, readOnly: true)
        let diff = try StoreDiff.compare(a, b, options: DiffOptions(by: ["loose": ["label"]]))
        #expect(diff.model.isEmpty)
        let changes = diff.changes
        #expect(changes.count == 5, "\(Self.lines(diff))")
        #expect(
            changes.contains(
                ObjectChange(.changed, entity: "item", key: [.integer(7)], property: "name", old: .text("item 7"), new: .text("renamed"))))
        #expect(changes.contains(ObjectChange(.deleted, entity: "item", key: [.integer(250)])))
        #expect(changes.contains(ObjectChange(.inserted, entity: "item", key: [.integer(301)])))
        #expect(
            changes.contains(
                ObjectChange(.changed, entity: "line", key: [.integer(3), .integer(4)], property: "qty", old: .integer(34), new: .integer(999))))
        #expect(changes.contains(ObjectChange(.deleted, entity: "line", key: [.integer(29), .integer(9)])))
    }

    @Test func aStoreComparedWithItselfOrAnExactCopyHasNoDifference() throws {
        let old = try Self.foreignFile()
        let copy = try Self.copy(old, as: "same.sqlite")
        let a = try StoreOpener.open(old, readOnly: true)
        let b = try StoreOpener.open(copy, readOnly: true)
        let options = DiffOptions(by: ["loose": ["label"]])
        #expect(try StoreDiff.compare(a, a, options: options).isEmpty)
        #expect(try StoreDiff.compare(a, b, options: options).isEmpty)
    }

    /// A whole-store diff leaves a table without a key out, named in one note with the `by`
    /// that compares it, and compares the rest; named by `entities`, it is refused by name.
    @Test func aTableWithoutAKeyIsLeftOutSaidAndRefusedWhenNamed() throws {
        let old = try Self.foreignFile()
        let a = try StoreOpener.open(old, readOnly: true)
        let changed = try Self.copy(old, as: "priced.sqlite")
        try Self.sqlite3(changed, "UPDATE item SET price = 0 WHERE id = 1; UPDATE loose SET amount = 9;")
        let c = try StoreOpener.open(changed, readOnly: true)
        let whole = try StoreDiff.compare(a, c)
        #expect(whole.changes.map(\.entity) == ["item"], "\(whole.changes)")
        let said = whole.notes.filter {
            $0.hasPrefix("not compared, having no key to match objects by (rows known by place): loose (by = { loose = ")
        }
        #expect(said.count == 1 && said[0].hasSuffix("} compares it)"), "\(whole.notes)")
        do {
            _ = try StoreDiff.compare(a, a, options: DiffOptions(entities: ["loose"]))
            Issue.record("a table without a primary key was compared")
        } catch let error as DiffError {
            let line = "\(error)"
            #expect(line.hasPrefix("diff: entity loose has no identity"), "\(line)")
            #expect(line.contains("by = { loose = "), "\(line)")
        }
        // A key holding a value twice is no identity either.
        let new = try Self.copy(old, as: "twice.sqlite")
        try Self.sqlite3(new, "INSERT INTO loose VALUES ('a', 3);")
        let b = try StoreOpener.open(new, readOnly: true)
        #expect(throws: DiffError.self) { try StoreDiff.compare(a, b, options: DiffOptions(by: ["loose": ["label"]])) }
    }

    @Test func aTextKeyUnderANocaseCollationIsRefusedRatherThanMisread() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = folder.appendingPathComponent("nocase.sqlite").path
        try Self.sqlite3(
            path, "CREATE TABLE t (k TEXT COLLATE NOCASE PRIMARY KEY, v INTEGER); INSERT INTO t VALUES ('b', 1), ('A', 2), ('a2', 3), ('B2', 4);")
        let a = try StoreOpener.open(path, readOnly: true)
        do {
            _ = try StoreDiff.compare(a, a)
            Issue.record("keys in NOCASE order were merged as if in byte order")
        } catch let error as DiffError {
            #expect("\(error)".contains("entity t has no identity") && "\(error)".contains("collation"), "\(error)")
        }
    }

    @Test func aToleranceHidesSmallFloatingChangesAndNotLargerOnes() throws {
        let old = try Self.foreignFile()
        let new = try Self.copy(old, as: "prices.sqlite")
        try Self.sqlite3(new, "UPDATE item SET price = price + 0.001 WHERE id = 10; UPDATE item SET price = price + 0.5 WHERE id = 11;")
        let a = try StoreOpener.open(old, readOnly: true)
        let b = try StoreOpener.open(new, readOnly: true)
        let exact = try StoreDiff.compare(a, b, options: DiffOptions(by: ["loose": ["label"]], entities: ["item"]))
        #expect(exact.changes.map(\.key) == [[.integer(10)], [.integer(11)]])
        let tolerant = try StoreDiff.compare(a, b, options: DiffOptions(by: ["loose": ["label"]], tolerance: ["price": 0.005], entities: ["item"]))
        #expect(tolerant.changes.map(\.key) == [[.integer(11)]])
    }

    @Test func objectsMatchedByAKeyTheUserNamesFollowTheKeyNotTheRow() throws {
        let old = try Self.foreignFile()
        let new = try Self.copy(old, as: "renumbered.sqlite")
        // Every row renumbered, codes kept: by code nothing changed but the ids.
        try Self.sqlite3(new, "UPDATE item SET id = id + 1000;")
        let a = try StoreOpener.open(old, readOnly: true)
        let b = try StoreOpener.open(new, readOnly: true)
        let byRow = try StoreDiff.compare(a, b, options: DiffOptions(entities: ["item"]))
        #expect(byRow.changes.count == 600)
        let byCode = try StoreDiff.compare(a, b, options: DiffOptions(by: ["item": ["code"]], entities: ["item"]))
        #expect(byCode.changes.count == 300)
        #expect(byCode.changes.allSatisfy { $0.property == "id" && $0.kind == .changed })
    }

    // MARK: Core Data

    @Test func aCoreDataStoreReportsAnAttributeAToOneADeletedAndAnInsertedPost() throws {
        let old = try CoreDataFixtures.copyOfStore("posts/CoreDataMigration_Example_3.sqlite")
        let new = try Self.copy(old, as: "device.sqlite")
        try Self.sqlite3(
            new,
            """
            UPDATE ZPOST SET ZPOSTID = 'changed' WHERE Z_PK = 5;
            DELETE FROM ZPOST WHERE Z_PK = 7;
            UPDATE ZPOST SET ZCOLOR = 3 WHERE Z_PK = 9;
            INSERT INTO ZPOST (Z_PK, Z_ENT, Z_OPT, ZCOLOR, ZDATE, ZPOSTID) VALUES (9000, 2, 1, 1, 526913713.5, 'new');
            """)
        let a = try StoreOpener.open(old, readOnly: true)
        let b = try StoreOpener.open(new, readOnly: true)
        let diff = try StoreDiff.compare(a, b)
        #expect(diff.model.isEmpty)
        let changes = diff.changes
        #expect(changes.count == 4, "\(Self.lines(diff))")
        guard case .integer(let oldColor)? = try a.connection.scalar("SELECT ZCOLOR FROM ZPOST WHERE Z_PK = 9") else {
            Issue.record("post 9 of the posts store has no color")
            return
        }
        #expect(
            changes.contains(
                ObjectChange(
                    .changed, entity: "Post", key: [.integer(5)], property: "postID",
                    old: try #require(try a.connection.scalar("SELECT ZPOSTID FROM ZPOST WHERE Z_PK = 5")), new: .text("changed"))))
        #expect(changes.contains(ObjectChange(.deleted, entity: "Post", key: [.integer(7)])))
        #expect(
            changes.contains(
                ObjectChange(.changed, entity: "Post", key: [.integer(9)], property: "color", old: .text("Color/\(oldColor)"), new: .text("Color/3")))
        )
        #expect(changes.contains(ObjectChange(.inserted, entity: "Post", key: [.integer(9000)])))
    }

    @Test func aCoreDataManyToManyReportsTheLinkAddedAndTheLinkRemoved() throws {
        let old = try CoreDataFixtures.copyOfStore("authors/TestModel.sqlite")
        try Self.sqlite3(
            old,
            """
            INSERT INTO ZAUTHOR VALUES (1, 1, 1, 'Ada', 'L'), (2, 1, 1, 'Alan', 'T');
            INSERT INTO ZBOOK VALUES (1, 2, 1, 'Notes'), (2, 2, 1, 'Machines'), (3, 2, 1, 'Numbers');
            INSERT INTO Z_1BOOKS VALUES (1, 1), (1, 3), (2, 2), (2, 3);
            UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_ENT = 1;
            UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_ENT = 2;
            """)
        let new = try Self.copy(old, as: "linked.sqlite")
        try Self.sqlite3(new, "DELETE FROM Z_1BOOKS WHERE Z_1AUTHORS = 1 AND Z_2BOOKS = 3; INSERT INTO Z_1BOOKS VALUES (2, 1);")
        let a = try StoreOpener.open(old, readOnly: true)
        let b = try StoreOpener.open(new, readOnly: true)
        let diff = try StoreDiff.compare(a, b)
        #expect(diff.model.isEmpty)
        #expect(diff.changes.count == 2, "\(Self.lines(diff))")
        #expect(diff.changes.contains(ObjectChange(.changed, entity: "Author", key: [.integer(1)], property: "books", old: .text("Book/3"))))
        #expect(diff.changes.contains(ObjectChange(.changed, entity: "Author", key: [.integer(2)], property: "books", new: .text("Book/1"))))
    }

    @Test func aCoreDataDeleteWithItsCascadeReportsEveryDeletedObject() throws {
        let old = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let new = try Self.copy(old, as: "cascaded.sqlite")
        let a = try StoreOpener.open(old, readOnly: true)
        // A person with cars: deleted with them, as a cascade rule would.
        guard case .integer(let person)? = try a.connection.scalar("SELECT ZOWNER FROM ZCAR WHERE ZOWNER IS NOT NULL ORDER BY ZOWNER LIMIT 1") else {
            Issue.record("the cars store has no car with an owner")
            return
        }
        let cars = try a.connection.rows("SELECT Z_PK FROM ZCAR WHERE ZOWNER = ? ORDER BY Z_PK", arguments: [.integer(person)]).map { $0[0] }
        #expect(!cars.isEmpty)
        try Self.sqlite3(new, "DELETE FROM ZCAR WHERE ZOWNER = \(person); DELETE FROM ZPERSON WHERE Z_PK = \(person);")
        let b = try StoreOpener.open(new, readOnly: true)
        let diff = try StoreDiff.compare(a, b)
        #expect(diff.model.isEmpty)
        let expected =
            cars.map { ObjectChange(.deleted, entity: "Car", key: [$0]) } + [ObjectChange(.deleted, entity: "Person", key: [.integer(person)])]
        #expect(diff.changes == expected, "\(Self.lines(diff))")
    }

    /// A copy changed through Quarry (an attribute, a to-one, a delete, saved as Core Data
    /// writes them: Z_OPT and Z_PRIMARYKEY move too) reports what the save changed and
    /// nothing of the bookkeeping.
    @Test func aCoreDataStoreChangedThroughQuarryReportsWhatTheSaveChanged() throws {
        let old = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let new = try Self.copy(old, as: "edited.sqlite")
        let b = try StoreOpener.open(new)
        let car = try #require(try b.object(entityName: "Car", primaryKey: 1))
        guard case .text(let maker) = try car.value(forKey: "maker"), let owner = try b.relatedObject("owner", of: car) else {
            Issue.record("car 1 of the cars store has no maker or owner")
            return
        }
        let other = try #require(try b.object(entityName: "Person", primaryKey: owner.primaryKey == 2 ? 3 : 2))
        try car.setValue(.text("Saab"), forKey: "maker")
        try b.setRelatedObject(other, "owner", of: car)
        try b.delete(try #require(try b.object(entityName: "Car", primaryKey: 3)))
        try b.save()
        let a = try StoreOpener.open(old, readOnly: true)
        let diff = try StoreDiff.compare(a, b)
        #expect(diff.model.isEmpty)
        #expect(
            Self.lines(diff)
                == [
                    "- Car integer(3)  null null", "~ Car integer(1) maker \(Value.text(maker)) \(Value.text("Saab"))",
                    "~ Car integer(1) owner \(Value.text("Person/\(owner.primaryKey ?? 0)")) \(Value.text("Person/\(other.primaryKey ?? 0)"))"
                ].sorted(), "\(Self.lines(diff))")
    }

    @Test func aCoreDataStoreComparedWithItselfHasNoDifference() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let a = try StoreOpener.open(path, readOnly: true)
        #expect(try StoreDiff.compare(a, a).isEmpty)
    }

    // MARK: Quarry's files

    @Test func quarryFilesMatchObjectsByTheirObjectIDs() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = folder.appendingPathComponent("notes.quarry").path
        let context = try StoreOpener.open(path)
        try context.define(
            EntityDescription(
                name: "Note",
                attributes: [
                    AttributeDescription(name: "text", type: .string), AttributeDescription(name: "stars", type: .int64),
                    AttributeDescription(name: "price", type: .decimal, isOptional: true)
                ]))
        for i in 1...50 { _ = try context.insert(into: "Note", values: ["text": .text("note \(i)"), "stars": .integer(Int64(i % 5))]) }
        try context.save()
        context.close()
        let copy = try Self.copy(path, as: "notes2.quarry")
        let b = try StoreOpener.open(copy)
        let note = try #require(try b.object(entityName: "Note", primaryKey: 3))
        try note.setValue(.text("café"), forKey: "text")
        try b.delete(try #require(try b.object(entityName: "Note", primaryKey: 4)))
        try b.save()
        let a = try StoreOpener.open(path, readOnly: true)
        let diff = try StoreDiff.compare(a, b)
        #expect(diff.model.isEmpty)
        #expect(
            diff.changes == [
                ObjectChange(.changed, entity: "Note", key: [.integer(3)], property: "text", old: .text("note 3"), new: .text("café")),
                ObjectChange(.deleted, entity: "Note", key: [.integer(4)])
            ], "\(Self.lines(diff))")
    }
}

import Foundation
import QuarryFetch
import QuarryModel
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// `diff` of two SQLite files by SQL (`ChangedRows`: the new file attached to the old
/// store's connection, read-only, and only the rows that differ read) against the general
/// way (every row of both read and compared in Swift), on the same pairs of files: both
/// must give the same changes, in the same order, and neither file may change.
@Suite struct DiffInSQLTests {
    /// A Quarry file: 40 items with text, bytes, a double, an integer and an optional
    /// note, each owned by one of 5 people (a to-one) and tagged with some of 4 tags (a
    /// many-to-many); saved and closed.
    static func store() throws -> String {
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = folder.appendingPathComponent("items.quarry").path
        let context = try StoreOpener.open(path)
        _ = try context.define(
            EntityDescription(
                name: "Tag", attributes: [AttributeDescription(name: "label", type: .string)],
                relationships: [RelationshipDescription(name: "items", destination: "Item", inverse: "tags", isToMany: true)]))
        _ = try context.define(
            EntityDescription(
                name: "Person", attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [RelationshipDescription(name: "items", destination: "Item", inverse: "owner", isToMany: true)]))
        _ = try context.define(
            EntityDescription(
                name: "Item",
                attributes: [
                    AttributeDescription(name: "title", type: .string), AttributeDescription(name: "bytes", type: .binary, isOptional: true),
                    AttributeDescription(name: "price", type: .double), AttributeDescription(name: "stars", type: .int64),
                    AttributeDescription(name: "note", type: .string, isOptional: true)
                ],
                relationships: [
                    RelationshipDescription(name: "owner", destination: "Person", inverse: "items", isToMany: false),
                    RelationshipDescription(name: "tags", destination: "Tag", inverse: "items", isToMany: true)
                ]))
        let tags = try (0..<4).map { try context.insert(into: "Tag", values: ["label": .text("tag\($0)")]) }
        let people = try (0..<5).map { try context.insert(into: "Person", values: ["name": .text("p\($0)")]) }
        for i in 1...40 {
            var values: [String: Value] = [
                "title": .text("item \(i)"), "bytes": .blob(Array("b\(i)".utf8)), "price": .real(i == 6 ? 0 : Double(i) * 1.25),
                "stars": .integer(Int64(i % 5))
            ]
            if i % 2 == 1 { values["note"] = .text("note \(i)") }
            let item = try context.insert(into: "Item", values: values)
            try context.setRelatedObject(people[i % 5], "owner", of: item)
            try context.addRelated(tags[i % 4], to: "tags", of: item)
        }
        _ = try context.save()
        context.close()
        return path
    }

    /// The file's bytes, and its `-wal`'s where it has one.
    static func bytes(_ path: String) -> [Data?] {
        [path, path + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    /// The same comparison both ways: SQL's answer, after checking it took SQL's way for
    /// `entity`, equals the general way's; neither file's bytes changed.
    static func bothWays(_ old: String, _ new: String, options: DiffOptions = DiffOptions(), entity: String = "Item") throws -> StoreDiff {
        let before = (bytes(old), bytes(new))
        let a = try StoreOpener.open(old, readOnly: true)
        let b = try StoreOpener.open(new, readOnly: true)
        let bySQL = try StoreDiff.compare(a, b, options: options)
        var general = options
        general.findsChangesInSQL = false
        let byRows = try StoreDiff.compare(a, b, options: general)
        #expect(bySQL.comparedInSQL.contains(entity), "SQL's way was not taken for \(entity): \(bySQL.comparedInSQL)")
        #expect(byRows.comparedInSQL.isEmpty)
        #expect(bySQL.changes == byRows.changes, "SQL: \(StoreDiffTests.lines(bySQL))\nrows: \(StoreDiffTests.lines(byRows))")
        #expect(bySQL.notes == byRows.notes)
        a.close()
        b.close()
        #expect(bytes(old) == before.0, "the old file changed")
        #expect(bytes(new) == before.1, "the new file changed")
        return bySQL
    }

    @Test func changedAttributesRowsNullsBlobsSignedZerosToleranceAndLinksAgreeWithTheGeneralWay() throws {
        let old = try Self.store()
        let probe = try StoreOpener.open(old, readOnly: true)
        let item = try probe.entity(named: "Item")
        let owner = try #require(item.relationship(named: "owner")).keyColumn
        let tags = try #require(item.relationship(named: "tags"))
        guard case .linkTable(let link, let source, let target)? = probe.storage(of: tags, in: "Item") else {
            Issue.record("Item.tags has no link table")
            return
        }
        let key = probe.mapped(item).keyColumn
        probe.close()
        let new = try StoreDiffTests.copy(old, as: "changed.quarry")
        try StoreDiffTests.sqlite3(
            new,
            """
            UPDATE Item SET title = 'changed' WHERE \(key) = 2;
            UPDATE Item SET note = NULL WHERE \(key) = 3;
            UPDATE Item SET note = 'now one' WHERE \(key) = 4;
            UPDATE Item SET title = CAST(title AS BLOB) WHERE \(key) = 5;
            UPDATE Item SET price = -0.0 WHERE \(key) = 6;
            UPDATE Item SET price = price + 0.001 WHERE \(key) = 7;
            UPDATE Item SET price = price + 0.5 WHERE \(key) = 8;
            UPDATE Item SET bytes = CAST(bytes AS TEXT) WHERE \(key) = 9;
            UPDATE Item SET "\(owner)" = (\(owner) % 5) + 1 WHERE \(key) = 10;
            UPDATE Item SET "\(owner)" = NULL WHERE \(key) = 11;
            DELETE FROM Item WHERE \(key) = 12;
            CREATE TEMP TABLE t AS SELECT * FROM Item WHERE \(key) = 13;
            UPDATE t SET \(key) = 1000;
            INSERT INTO Item SELECT * FROM t;
            DELETE FROM "\(link)" WHERE "\(source)" = 14;
            INSERT INTO "\(link)" ("\(source)", "\(target)") VALUES (15, 1);
            """)
        let exact = try Self.bothWays(old, new)
        let changed = Set(exact.changes.filter { $0.entity == "Item" }.map(\.keyValue))
        // Every change made is found, -0.0 is 0.0, and nothing else.
        #expect(
            changed == Set(([2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 14, 15, 1000] as [Int64]).map { Value.integer($0) }), "\(StoreDiffTests.lines(exact))")
        let tolerant = try Self.bothWays(old, new, options: DiffOptions(tolerance: ["price": 0.005]))
        #expect(!tolerant.changes.contains { $0.keyValue == .integer(7) })
        #expect(tolerant.changes.contains { $0.keyValue == .integer(8) && $0.property == "price" })
    }

    @Test func aStoreAgainstAnExactCopyIsEmptyBothWays() throws {
        let old = try Self.store()
        let copy = try StoreDiffTests.copy(old, as: "same.quarry")
        #expect(try Self.bothWays(old, copy).isEmpty)
        #expect(try Self.bothWays(old, old).isEmpty)
    }

    /// A key two rows hold, the last row of one chunk (2,048 rows) and the first of the
    /// next: refused as within a chunk, not read past.
    @Test func aKeyHeldTwiceAcrossAChunkBoundaryIsRefused() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = folder.appendingPathComponent("boundary.sqlite").path
        try StoreDiffTests.sqlite3(
            path,
            """
            CREATE TABLE loose (label TEXT, amount INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2047)
            INSERT INTO loose SELECT printf('k%05d', i), i FROM n;
            INSERT INTO loose VALUES ('k02047', -1), ('k02048', 1), ('k02049', 2);
            """)
        let a = try StoreOpener.open(path, readOnly: true)
        do {
            _ = try StoreDiff.compare(a, a, options: DiffOptions(by: ["loose": ["label"]]))
            Issue.record("the key k02047, held by rows 2,048 and 2,049, was not refused")
        } catch let error as DiffError {
            #expect("\(error)".contains("k02047 belongs to two objects"), "\(error)")
        }
    }
}

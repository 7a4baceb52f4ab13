import Foundation
import GRDB
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// A store laid out as Core Data lays out these cases, built by hand (no real store in
/// the shared data has one with values to tell the columns apart): Tower (3) and Box (4),
/// siblings under Shape, each declare `height`: Tower, numbered first though its name
/// sorts last, keeps it in `ZHEIGHT`, Box in `ZHEIGHT1`. Owner (1) has `shapes`, a to-many
/// with no inverse, kept in `ZSHAPE.Z1SHAPES`; its many-to-many `tags` is in the suffixed
/// join table `Z_1TAGS1` (beside a `Z_1TAGS` of another pair).
enum SiblingStore {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Owner" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="shapes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Shape"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="owners" inverseEntity="Tag"/>
            </entity>
            <entity name="Shape" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Tower" parentEntity="Shape" syncable="YES">
                <attribute name="height" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            </entity>
            <entity name="Box" parentEntity="Shape" syncable="YES">
                <attribute name="height" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            </entity>
            <entity name="Tag" syncable="YES">
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="owners" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Owner" inverseName="tags" inverseEntity="Owner"/>
            </entity>
        </model>
        """

    /// The store and its model (`contents`) in a fresh folder: (store, model).
    /// `withHistory`: the store keeps persistent history, and the model preserves Box's
    /// `height` after deletion (its tombstone comes from `ZHEIGHT1`).
    static func make(withHistory: Bool = false) throws -> (store: String, model: String) {
        let folder = try CoreDataFixtures.temporaryFolder()
        let model = folder.appendingPathComponent("contents").path
        var text = Self.model
        if withHistory {
            let plain = #"<entity name="Box" parentEntity="Shape" syncable="YES">"# + "\n" + #"        <attribute name="height" optional="YES""#
            text = text.replacingOccurrences(of: plain, with: plain + #" preserveAfterDeletion="YES""#)
            if text == Self.model {
                throw CocoaError(.featureUnsupported, userInfo: [NSDebugDescriptionErrorKey: "the model's Box entity changed shape"])
            }
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: model))
        let store = folder.appendingPathComponent("Shapes.sqlite").path
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                    INSERT INTO Z_PRIMARYKEY VALUES (1, 'Owner', 0, 1), (2, 'Shape', 0, 3), (3, 'Tower', 2, 0), (4, 'Box', 2, 0), (5, 'Tag', 0, 1);
                    CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                    INSERT INTO Z_METADATA VALUES (1, 'B0E2B5A4-0000-4000-8000-000000000001', NULL);
                    CREATE TABLE ZOWNER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                    CREATE TABLE ZSHAPE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHEIGHT INTEGER, ZHEIGHT1 INTEGER, Z1SHAPES INTEGER, ZNAME VARCHAR);
                    CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLABEL VARCHAR);
                    CREATE TABLE Z_1TAGS1 (Z_1OWNERS1 INTEGER, Z_5TAGS INTEGER, PRIMARY KEY (Z_1OWNERS1, Z_5TAGS));
                    CREATE TABLE Z_1TAGS (Z_9OTHERS INTEGER, Z_10THINGS INTEGER, PRIMARY KEY (Z_9OTHERS, Z_10THINGS));
                    INSERT INTO ZOWNER VALUES (1, 1, 1, 'Ada');
                    INSERT INTO ZSHAPE VALUES (1, 3, 1, 10, NULL, 1, 'tower'), (2, 4, 1, NULL, 20, 1, 'box'), (3, 4, 1, NULL, 30, NULL, 'crate');
                    INSERT INTO ZTAG VALUES (1, 5, 1, 'red');
                    INSERT INTO Z_1TAGS1 VALUES (1, 1);
                    """)
            if withHistory { try db.execute(sql: CoreDataFixtures.persistentHistorySQL(tombstones: 1)) }
        }
        try queue.close()
        return (store, model)
    }

    static func int(_ path: String, _ sql: String) throws -> Int64? {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Int64.fetchOne(db, sql: sql) }
    }
}

extension CoreDataLayoutTests {
    @Test func siblingsKeepASharedNameInColumnsSuffixedInEntityNumberOrder() throws {
        let (store, model) = try SiblingStore.make()
        let context = try OpenFileRequest.open(path: store, model: model)
        defer { context.close() }
        #expect(context.openingNotes.isEmpty, "\(context.openingNotes)")
        let tower = try #require(try context.object(entityName: "Tower", primaryKey: 1))
        let box = try #require(try context.object(entityName: "Box", primaryKey: 2))
        #expect(try tower.value(forKey: "height") == .integer(10))
        #expect(try box.value(forKey: "height") == .integer(20))
        // Through the parent's view, each row reads its own entity's column.
        let heights = try context.connection.read { db in try Int64.fetchAll(db, sql: "SELECT height FROM \"Shape\" ORDER BY _pk") }
        #expect(heights == [10, 20, 30])

        try box.setValue(.integer(21), forKey: "height")
        try tower.setValue(.integer(11), forKey: "height")
        _ = try context.insert(into: "Box", values: ["name": .text("new"), "height": .integer(40)])
        try context.save()
        #expect(try SiblingStore.int(store, "SELECT ZHEIGHT1 FROM ZSHAPE WHERE Z_PK = 2") == 21)
        #expect(try SiblingStore.int(store, "SELECT ZHEIGHT FROM ZSHAPE WHERE Z_PK = 2") == nil)
        #expect(try SiblingStore.int(store, "SELECT ZHEIGHT FROM ZSHAPE WHERE Z_PK = 1") == 11)
        #expect(try SiblingStore.int(store, "SELECT ZHEIGHT1 FROM ZSHAPE WHERE Z_PK = 1") == nil)
        #expect(try SiblingStore.int(store, "SELECT ZHEIGHT1 FROM ZSHAPE WHERE ZNAME = 'new'") == 40)
        #expect(try SiblingStore.int(store, "SELECT count(*) FROM ZSHAPE WHERE ZNAME = 'new' AND ZHEIGHT IS NULL") == 1)
    }

    @Test func aTombstoneIsReadFromTheSiblingsSuffixedColumn() throws {
        let (store, model) = try SiblingStore.make(withHistory: true)
        let context = try OpenFileRequest.open(path: store, model: model)
        defer { context.close() }
        let box = try #require(try context.object(entityName: "Box", primaryKey: 2))
        try context.delete(box)
        try context.save()
        #expect(try SiblingStore.int(store, "SELECT ZTOMBSTONE0 FROM ACHANGE WHERE ZCHANGETYPE = 2 AND ZENTITYPK = 2") == 20)
    }

    @Test func aToManyWithNoInverseIsTheDestinationsHiddenColumn() throws {
        let (store, model) = try SiblingStore.make()
        let context = try OpenFileRequest.open(path: store, model: model)
        defer { context.close() }
        let owner = try #require(try context.object(entityName: "Owner", primaryKey: 1))
        let shapes = try context.relatedObjects("shapes", of: owner)
        #expect(Set(shapes.compactMap(\.primaryKey)) == [1, 2])
        let crate = try #require(try context.object(entityName: "Box", primaryKey: 3))
        try context.setRelatedObjects(shapes.filter { $0.primaryKey == 1 } + [crate], "shapes", of: owner)
        try context.save()
        let linked = try context.connection.read { db in try Int64.fetchAll(db, sql: "SELECT Z_PK FROM main.ZSHAPE WHERE Z1SHAPES = 1 ORDER BY Z_PK")
        }
        #expect(linked == [1, 3])
        #expect(try SiblingStore.int(store, "SELECT count(*) FROM ZSHAPE WHERE Z_PK = 2 AND Z1SHAPES IS NULL") == 1)
    }

    @Test func aSuffixedJoinTableIsFoundByItsColumns() throws {
        let (store, model) = try SiblingStore.make()
        let context = try OpenFileRequest.open(path: store, model: model)
        defer { context.close() }
        let owner = try #require(try context.object(entityName: "Owner", primaryKey: 1))
        let tags = try context.relatedObjects("tags", of: owner)
        #expect(tags.compactMap(\.primaryKey) == [1])
        let tag = try #require(tags.first)
        #expect(try context.relatedObjects("owners", of: tag).compactMap(\.primaryKey) == [1])
        let blue = try context.insert(into: "Tag", values: ["label": .text("blue")])
        try context.setRelatedObjects([tag, blue], "tags", of: owner)
        try context.save()
        #expect(try SiblingStore.int(store, "SELECT count(*) FROM Z_1TAGS1 WHERE Z_1OWNERS1 = 1") == 2)
        #expect(try SiblingStore.int(store, "SELECT count(*) FROM Z_1TAGS") == 0)
    }
}

extension CoreDataLayoutTests {
    /// `photos/` (Core Data's own layout, read from its model cache) has each case:
    /// Album (28) and FetchingAlbum (35) each declare `searchIndexRebuildState`
    /// (`ZSEARCHINDEXREBUILDSTATE`, `ZSEARCHINDEXREBUILDSTATE1`); Asset (3)'s
    /// `libraryScopeAssetContributors` has no inverse (`ZASSETCONTRIBUTOR.Z3LIBRARYSCOPEASSETCONTRIBUTORS`);
    /// the join table of Asset's `suggestionsBeingRepresentativeAssets` keys Assets in the
    /// suffixed `Z_3REPRESENTATIVEASSETS1`.
    @Test func photosMapsItsSuffixedAndHiddenColumns() throws {
        let path = try CoreDataFixtures.copyOfStore("photos/Photos.sqlite")
        let context = try OpenFileRequest.open(path: path)
        defer { context.close() }
        #expect(context.openingNotes.isEmpty, "\(context.openingNotes)")
        let store = try #require(CoreDataStore.behind(context))
        let fetching = try #require(store.mapped("FetchingAlbum")?.viewSQL)
        #expect(fetching.contains("\"ZSEARCHINDEXREBUILDSTATE1\" AS \"searchIndexRebuildState\""), "\(fetching)")
        let album = try #require(store.mapped("Album")?.viewSQL)
        #expect(album.contains("\"ZSEARCHINDEXREBUILDSTATE\" AS \"searchIndexRebuildState\""), "\(album)")
        let generic = try #require(store.mapped("GenericAlbum")?.viewSQL)
        #expect(generic.contains("WHEN \"Z_ENT\" IN (35) THEN \"ZSEARCHINDEXREBUILDSTATE1\""), "\(generic)")
        #expect(
            store.linkViews.map(\.view).contains {
                $0.contains("quarry_link_Asset_libraryScopeAssetContributors") && $0.contains("\"Z3LIBRARYSCOPEASSETCONTRIBUTORS\" AS source")
            })
        #expect(
            store.linkViews.map(\.view).contains {
                $0.contains("FROM main.\"Z_3SUGGESTIONSBEINGREPRESENTATIVEASSETS\"") && $0.contains("\"Z_3REPRESENTATIVEASSETS1\"")
            })
        // Reading the hidden column's relationship no longer fails (no such table).
        let asset = try #require(try context.connection.read { db in try Int64.fetchOne(db, sql: "SELECT _pk FROM \"Asset\" LIMIT 1") })
        let object = try #require(try context.object(entityName: "Asset", primaryKey: asset))
        let contributors = try context.relatedObjects("libraryScopeAssetContributors", of: object)
        let stored = try context.connection.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM main.ZASSETCONTRIBUTOR WHERE Z3LIBRARYSCOPEASSETCONTRIBUTORS = ?", arguments: [asset])
        }
        #expect(contributors.count == stored)
    }
}

import Foundation
import GRDB
import QuarryModel
import QuarryModelFiles
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryStore

/// Issue 81: with no model, a to-one whose key column is named after the relationship, not
/// after its destination (`ZUSAGETIMEDITEM.ZCATEGORY` holding keys of UsageCategory), was
/// read as an integer attribute. Core Data indexes every to-one's key column
/// (`Z<TABLE>_Z<NAME>_INDEX`); such a column named after the end of one entity's name (or
/// of one hierarchy's names) is a to-one to it. Checked against the model each store's own
/// cache gives, on a copy whose cache is dropped: every to-one inferred is one the model
/// has, and the ones named below are found.
@Suite struct CoreDataInferredToOneTests {
    /// Every to-one as `Owner.name -> Destination`, names lowercased (the inferred model
    /// cannot know their case), as each entity declares it.
    static func toOnes(_ model: CoreDataModel) -> Set<String> {
        Set(model.entities.flatMap { e in e.relationships.filter { !$0.isToMany }.map { "\(e.name).\($0.name.lowercased()) -> \($0.destination)" } })
    }

    /// The inferred to-ones `model` has no counterpart for: one declared by the owner or a
    /// sub-entity of it (the inferred model gives a table's columns to its root), of the
    /// same name, leading to the destination or to a sub-entity of it.
    static func unknown(_ inferred: CoreDataModel, in model: CoreDataModel) -> [String] {
        func isKind(_ name: String, of ancestor: String) -> Bool { name == ancestor || model.ancestors(of: name).contains { $0.name == ancestor } }
        var wrong: [String] = []
        for e in inferred.entities {
            for r in e.relationships where !r.isToMany {
                let matched = model.entities.contains { m in
                    isKind(m.name, of: e.name)
                        && m.relationships.contains { !$0.isToMany && $0.name.lowercased() == r.name && isKind($0.destination, of: r.destination) }
                }
                if !matched { wrong.append("\(e.name).\(r.name) -> \(r.destination)") }
            }
        }
        return wrong.sorted()
    }

    @Test func screenTimesToOnesNamedAfterTheirRelationshipAreInferred() throws {
        let (cached, inferred, _, path) = try CoreDataInferredJoinTablesTests.cachedAndInferred("screentime/RMAdminStore-Local.sqlite")
        let expected = Self.toOnes(cached)
        let found = Self.toOnes(inferred)
        #expect(Self.unknown(inferred, in: cached).isEmpty, "inferred to-ones the model does not have: \(Self.unknown(inferred, in: cached))")
        for toOne in [
            "UsageTimedItem.category -> UsageCategory", "UsageCategory.block -> UsageBlock", "Blueprint.usagelimit -> BlueprintUsageLimit",
            "Usage.user -> CoreUser", "UserDeviceAddress.device -> CoreDevice"
        ] {
            #expect(expected.contains(toOne), "the model's: \(toOne)")
            #expect(found.contains(toOne), "inferred: \(toOne) among \(found.sorted())")
        }
        // Read through the store opened without its model: each timed item's category is
        // the UsageCategory row its ZCATEGORY names, as plain SQL reads it.
        let context = try OpenFileRequest.open(path: path)
        defer { context.close() }
        #expect(CoreDataStore.behind(context)?.modelSource == "inferred")
        let pairs = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, ZCATEGORY FROM ZUSAGETIMEDITEM WHERE ZCATEGORY IS NOT NULL ORDER BY Z_PK LIMIT 5")
                .map { (Int64($0[0] as Int64), Int64($0[1] as Int64)) }
        }
        #expect(!pairs.isEmpty, "the store has timed items with a category")
        for (item, category) in pairs {
            let object = try #require(try context.object(entityName: "UsageTimedItem", primaryKey: item))
            let target = try context.relatedObject("category", of: object)
            #expect(target?.objectID == "UsageCategory/\(category)", "UsageTimedItem/\(item)")
        }
    }

    /// Photos.app's store: the to-ones named after the end of their destination's name.
    @Test func photosToOnesNamedAfterTheirRelationshipAreInferred() throws {
        let (cached, inferred, _, _) = try CoreDataInferredJoinTablesTests.cachedAndInferred("photos/Photos.sqlite")
        let expected = Self.toOnes(cached)
        let found = Self.toOnes(inferred)
        #expect(Self.unknown(inferred, in: cached).isEmpty, "inferred to-ones the model does not have: \(Self.unknown(inferred, in: cached))")
        for toOne in ["Asset.master -> CloudMaster", "DetectedFace.facegroup -> DetectedFaceGroup", "Moment.highlight -> PhotosHighlight"] {
            #expect(expected.contains(toOne), "the model's: \(toOne)")
            #expect(found.contains(toOne), "inferred: \(toOne)")
        }
    }

    /// The shape the issue names (`ZCATEGORY` of a feedback row holding FeedbackCategory
    /// keys), on a store made here as Core Data lays one out (the key column indexed as
    /// `ZFEEDBACK_ZCATEGORY_INDEX`) with no model cache: the column is the relationship.
    @Test func aFeedbacksCategoryIsInferredAsItsRelationship() throws {
        let path = try CoreDataFixtures.temporaryFolder().appendingPathComponent("Feedback.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                    CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                    CREATE TABLE ZFEEDBACK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCATEGORY INTEGER, ZTEXT VARCHAR );
                    CREATE INDEX ZFEEDBACK_ZCATEGORY_INDEX ON ZFEEDBACK (ZCATEGORY);
                    CREATE TABLE ZFEEDBACKCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
                    INSERT INTO Z_PRIMARYKEY VALUES (1, 'Feedback', 0, 2), (2, 'FeedbackCategory', 0, 2);
                    INSERT INTO ZFEEDBACKCATEGORY VALUES (1, 2, 1, 'Bug'), (2, 2, 1, 'Idea');
                    INSERT INTO ZFEEDBACK VALUES (1, 1, 1, 2, 'more please'), (2, 1, 1, 1, 'crash');
                    """)
        }
        try queue.close()
        let context = try OpenFileRequest.open(path: path)
        defer { context.close() }
        let model = try #require(CoreDataStore.behind(context)?.model)
        #expect(CoreDataStore.behind(context)?.modelSource == "inferred")
        #expect(Self.toOnes(model) == ["Feedback.category -> FeedbackCategory"])
        #expect(model.entity(named: "Feedback")?.attributes.map(\.name).contains { $0.lowercased() == "category" } == false)
        let feedback = try #require(try context.object(entityName: "Feedback", primaryKey: 1))
        #expect(try context.relatedObject("category", of: feedback)?.objectID == "FeedbackCategory/2")
    }
}

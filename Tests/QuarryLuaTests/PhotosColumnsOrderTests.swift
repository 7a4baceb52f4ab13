import Foundation
import GRDB
import QuarryCoreData
import QuarryModel
import QuarryModelFiles
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Photos.app's store holds 1,489 update rows Core Data itself wrote, each with its
/// `ZCOLUMNS` bit vector. One reader (`PersistentHistoryColumns.names` over
/// `coreDataOrder`) decodes them all: every vector is exactly as long as the order needs,
/// and transactions whose names say what they changed decode to those properties. The
/// name order (`nameOrder`, what Quarry wrote before) fails the same evidence.
@Suite struct PhotosColumnsOrderTests {
    struct Update {
        var transaction: Int64
        var context: String
        var entity: String
        var columns: Data
    }

    /// Every update row with its transaction's context name and the row's entity name.
    static func updates(_ path: String) throws -> [Update] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.ZTRANSACTIONID, coalesce(s.ZNAME, ''), p.Z_NAME, c.ZCOLUMNS FROM ACHANGE c
                    JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.ZENTITY JOIN ATRANSACTION t ON t.Z_PK = c.ZTRANSACTIONID
                    LEFT JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZCONTEXTNAMETS
                    WHERE c.ZCHANGETYPE = 1 ORDER BY c.Z_PK
                    """
            ).map { Update(transaction: $0[0], context: $0[1], entity: $0[2], columns: ($0[3] as Data?) ?? Data()) }
        }
    }

    static func setBits(_ data: Data) -> [Int] {
        data.enumerated().flatMap { byte in (0..<8).filter { byte.element & (UInt8(0x80) >> UInt8($0)) != 0 }.map { byte.offset * 8 + $0 } }
    }

    let path: String
    let model: CoreDataModel
    let rows: [Update]

    init() throws {
        path = try CoreDataFixtures.copyOfStore("photos/Photos.sqlite")
        let context = try StoreOpener.open(path)
        model = try #require(CoreDataStore.behind(context)?.model)
        context.close()
        rows = try Self.updates(path)
    }

    func decoded(_ row: Update) -> [String] {
        PersistentHistoryColumns.names(in: row.columns, order: PersistentHistoryColumns.coreDataOrder(of: row.entity, in: model))
    }

    /// The names decoded from every row of `entity` in transactions whose context name contains `context`.
    func decoded(_ entity: String, context: String) -> Set<[String]> {
        Set(rows.filter { $0.entity == entity && $0.context.contains(context) }.map(decoded))
    }

    @Test func everyVectorIsAsLongAsCoreDatasOrderNeeds() throws {
        #expect(rows.count == 1489)
        var entities = Set<String>()
        for row in rows {
            let order = PersistentHistoryColumns.coreDataOrder(of: row.entity, in: model)
            entities.insert(row.entity)
            #expect(row.columns.count == (order.count + 7) / 8, "\(row.entity): \(row.columns.count) bytes for \(order.count) properties")
            #expect(Self.setBits(row.columns).allSatisfy { $0 < order.count }, "\(row.entity): a bit past the last property")
        }
        #expect(entities.count == 19)
        // Folder and ImportSession have 32 properties; their vectors are 5 bytes because of
        // the hidden position slot of parentFolder in Folder's ordered childCollections.
        for entity in ["Folder", "ImportSession"] {
            #expect(PersistentHistoryColumns.coreDataOrder(of: entity, in: model).count == 33)
            #expect(Self.nameOrder(of: entity, in: model).count == 32)
        }
    }

    /// Transactions named after what they change decode to exactly that.
    @Test func namedTransactionsDecodeToWhatTheyChanged() {
        #expect(decoded("AdditionalAssetAttributes", context: "invalidateReverseLocationDataOnAllAssets") == [["reverseLocationDataIsValid"]])
        #expect(decoded("Asset", context: "resetImageRequestHintsInContext") == [["imageRequestHints"]])
        #expect(decoded("Asset", context: "RevalidateFaceAreaPoints") == [["faceAreaPoints"]])
        #expect(decoded("Asset", context: "PLRebuildMissingThumbsMaintenanceTask") == [["thumbnailIndex"]])
        #expect(decoded("Asset", context: "migrateAllAssetsPendingTableThumbRebuild") == [["imageRequestHints", "thumbnailIndex"]])
        #expect(decoded("InternalResource", context: "_migrateResourceUTIAndCodecInStagedStore") == [["compactUTI", "utiConformanceHint"]])
        #expect(decoded("GlobalKeyValue", context: "updateSavedLocaleIfNeeded") == [["stringValue"]])
        // Resetting face analysis clears faces' groups and faceprints (to-one relationships).
        let faces = decoded("DetectedFace", context: "resetFaceAnalysisWithResetLevel").flatMap { $0 }
        #expect(Set(faces).isSuperset(of: ["faceGroup", "faceGroupBeingKeyFace", "faceprint"]))
        // Adding missing locations writes latitude and longitude, among dates and time zones.
        let located = Set(decoded("ExtendedAttributes", context: "AddMissingExtendedAttributeLocation").flatMap { $0 })
        #expect(located.isSuperset(of: ["latitude", "longitude", "dateCreated", "timezoneName", "timezoneOffset"]))
        // Rewriting stashed order keys sets only an album's position in its folder.
        for entity in ["Album", "Folder", "FetchingAlbum"] {
            #expect(
                decoded(entity, context: "writeStashedLocationValuesInContext").contains([PersistentHistoryColumns.positionSlot(of: "parentFolder")]),
                "\(entity)")
        }
        // Updating import sessions' caches: their counts and their date range.
        #expect(
            decoded("ImportSession", context: "PLCacheUpdatesMaintenanceTask")
                == [["cachedCount", "cachedPhotosCount"], ["endDate", "startDate"], ["cachedCount", "cachedPhotosCount", "endDate", "startDate"]])
    }

    /// Asset's to-many relationships whose inverse is a to-many (`manyToMany`) or not.
    func assetToMany(manyToMany: Bool) -> Set<String> {
        Set(
            model.allRelationships(of: "Asset").filter { relationship in
                guard relationship.isToMany else { return false }
                let inverse = model.allRelationships(of: relationship.destination).first { $0.name == relationship.inverse }
                return (inverse?.isToMany ?? false) == manyToMany
            }.map(\.name))
    }

    /// Both ends of a relationship change in one transaction: an album moved into a folder,
    /// a keyword's assets, an album's assets and an album's key asset with the asset's
    /// to-many back. Within Asset's to-many groups Core Data's order is not by name and the
    /// rows do not show it, so for Asset only the group is checked.
    @Test func bothEndsOfARelationshipDecodeTogether() {
        var byTransaction: [Int64: [Update]] = [:]
        for row in rows { byTransaction[row.transaction, default: []].append(row) }
        func transactions(_ entity: String, _ names: [String]) -> [[Update]] {
            byTransaction.values.filter { $0.contains { $0.entity == entity && decoded($0) == names } }
        }
        // An album moved into a folder: its parentFolder and position, the folder's children.
        let moved = transactions("Album", ["parentFolder", PersistentHistoryColumns.positionSlot(of: "parentFolder")])
        #expect(!moved.isEmpty)
        for rows in moved { #expect(rows.contains { $0.entity == "Folder" && decoded($0) == ["childCollections"] }) }
        // A keyword given to an asset: the many-to-many's ends.
        let keywords = transactions("Keyword", ["assetAttributes"]).filter { $0.contains { $0.entity == "AdditionalAssetAttributes" } }
        #expect(!keywords.isEmpty)
        for rows in keywords { #expect(rows.contains { $0.entity == "AdditionalAssetAttributes" && decoded($0) == ["keywords"] }) }
        // An album's assets (many-to-many) and its key assets (to-one).
        for (album, manyToMany) in [(["assets"], true), (["keyAsset"], false)] {
            let found = transactions("Album", album)
            let group = assetToMany(manyToMany: manyToMany)
            #expect(!found.isEmpty && !group.isEmpty)
            for rows in found {
                let asset = rows.filter { $0.entity == "Asset" }.flatMap(decoded)
                #expect(!asset.isEmpty && asset.allSatisfy(group.contains), "\(album): \(asset)")
            }
        }
    }

    /// The reader has teeth: Quarry's earlier order (all properties by name) decodes the
    /// same rows to something else.
    @Test func nameOrderFailsTheEvidence() {
        let row = rows.first { $0.entity == "Asset" && $0.context.contains("resetImageRequestHintsInContext") }
        let columns = row?.columns ?? Data()
        #expect(PersistentHistoryColumns.names(in: columns, order: Self.nameOrder(of: "Asset", in: model)) != ["imageRequestHints"])
        #expect(
            PersistentHistoryColumns.names(in: columns, order: PersistentHistoryColumns.coreDataOrder(of: "Asset", in: model)) == [
                "imageRequestHints"
            ])
    }

    /// Every stored property by name: the order Quarry wrote before Photos' rows showed Core Data's.
    static func nameOrder(of entity: String, in model: CoreDataModel) -> [String] {
        let attributes = model.allAttributes(of: entity).filter { !$0.isTransient }.map(\.name)
        let relationships = model.allRelationships(of: entity).filter { !$0.isTransient }.map(\.name)
        return Array(Set(attributes + relationships)).sorted()
    }
}

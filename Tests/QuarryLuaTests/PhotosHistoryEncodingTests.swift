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

/// Photos.app's store holds persistent history Core Data itself wrote. Its delete rows fix
/// the order of tombstones (`ZTOMBSTONE0...`) for entities that preserve several
/// attributes after deletion: one reader (`fits`) checks Core Data's rows and Quarry's
/// against the order Quarry writes, and a wrong order fails it.
@Suite struct PhotosHistoryEncodingTests {
    /// Whether tombstone values fit `attributes` in order: each is NULL or of the storage
    /// class the attribute's type is stored as, and no value follows the last attribute.
    static func fits(_ values: [DatabaseValue], _ attributes: [CoreDataAttribute]) -> Bool {
        for (i, value) in values.enumerated() {
            if value.isNull { continue }
            guard i < attributes.count else { return false }
            let name = "\(attributes[i].type)"
            switch value.storage {
            case .int64: if !name.hasPrefix("integer") && name != "boolean" { return false }
            case .string: if name != "string" && name != "uuid" { return false }
            case .double: if !["double", "float", "date", "decimal"].contains(name) { return false }
            case .blob: if !["binary", "uuid", "transformable"].contains(name) { return false }
            case .null: break
            }
        }
        return true
    }

    static func tombstones(_ path: String, where condition: String) throws -> [(entity: String, values: [DatabaseValue])] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            let count = try db.columns(in: "ACHANGE").filter { $0.name.hasPrefix("ZTOMBSTONE") }.count
            let columns = (0..<count).map { "c.ZTOMBSTONE\($0)" }.joined(separator: ", ")
            return try Row.fetchAll(
                db,
                sql:
                    "SELECT p.Z_NAME, \(columns) FROM ACHANGE c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.ZENTITY WHERE c.ZCHANGETYPE = 2 AND \(condition) ORDER BY c.Z_PK"
            )
            .map { row in (String.fromDatabaseValue(row[0]) ?? "?", (1...count).map { row[$0] as DatabaseValue }) }
        }
    }

    func preserved(_ entity: String, in model: CoreDataModel) -> [CoreDataAttribute] {
        model.allAttributes(of: entity).filter { $0.preservesValueInHistoryOnDeletion && !$0.isTransient }
    }

    @Test func coreDatasOwnTombstonesFollowTheModelsOrder() throws {
        let path = try CoreDataFixtures.copyOfStore("photos/Photos.sqlite")
        let context = try StoreOpener.open(path)
        let model = try #require(CoreDataStore.behind(context)?.model)
        let rows = try Self.tombstones(path, where: "1")
        #expect(rows.count == 42)
        for row in rows {
            #expect(Self.fits(row.values, preserved(row.entity, in: model)), "\(row.entity): \(row.values)")
        }
        // Rows that hold two values, where the order shows: Person (cloudDeleteState,
        // personUUID) and InternalResource (cloudDeleteAssetUUIDWithResourceType, cloudDeleteState).
        let ordered = rows.filter { $0.values.filter { !$0.isNull }.count >= 2 }
        #expect(Set(ordered.map(\.entity)).isSuperset(of: ["Person", "InternalResource"]))
        // The reader has teeth: either entity's attributes the other way round do not fit.
        for row in ordered where ["Person", "InternalResource"].contains(row.entity) {
            #expect(!Self.fits(row.values, preserved(row.entity, in: model).reversed()), "\(row.entity)")
        }
        context.close()
    }

    /// Quarry deletes objects whose entities preserve several attributes (an album: three;
    /// a person: two) and writes their tombstones as Core Data's rows have them.
    @Test func quarrysTombstonesReadAsCoreDatas() throws {
        let path = try CoreDataFixtures.copyOfStore("photos/Photos.sqlite")
        let queue = try DatabaseQueue(path: path)
        let album = try #require(
            try queue.read { db in
                try Row.fetchOne(
                    db,
                    sql:
                        "SELECT Z_PK, ZCLOUDDELETESTATE, ZCLOUDGUID, ZUUID FROM ZGENERICALBUM WHERE Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Album') ORDER BY Z_PK LIMIT 1"
                )
            })
        let person = try #require(
            try queue.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT Z_PK, ZCLOUDDELETESTATE, ZPERSONUUID FROM ZPERSON WHERE ZPERSONUUID IS NOT NULL ORDER BY Z_PK LIMIT 1")
            })
        let last = try queue.read { db in try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM ACHANGE") } ?? 0
        try queue.close()
        let h = try Harness(context: try StoreOpener.open(path))
        let albumKey: Int64 = album[0]
        let personKey: Int64 = person[0]
        h.run(#"GenericAlbum:get("GenericAlbum/\#(albumKey)"):delete(); Person:get("Person/\#(personKey)"):delete(); save()"#)
        let model = try #require(CoreDataStore.behind(h.context)?.model)
        let written = try Self.tombstones(path, where: "c.Z_PK > \(last)")
        let albumRow = try #require(written.first { $0.entity == "Album" })
        let personRow = try #require(written.first { $0.entity == "Person" })
        #expect(Array(albumRow.values.prefix(3)) == [album[1], album[2], album[3]] as [DatabaseValue])
        #expect(Array(personRow.values.prefix(2)) == [person[1], person[2]] as [DatabaseValue])
        #expect(albumRow.values.dropFirst(3).allSatisfy(\.isNull) && personRow.values.dropFirst(2).allSatisfy(\.isNull))
        #expect(Self.fits(albumRow.values, preserved("Album", in: model)) && Self.fits(personRow.values, preserved("Person", in: model)))
        let check = try DatabaseQueue(path: path)
        #expect(try check.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
        try check.close()
    }
}

import Foundation
import GRDB
import QuarryCoreData
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Moving an album to another folder changes its `parentFolder` and its place in the
/// folder's ordered `childCollections` (the row's `Z_FOK_PARENTFOLDER`). Core Data's own
/// rows in photos/ record both bits for such a change; the change Quarry writes does too.
@Suite struct PhotosPositionSlotTests {
    @Test func aMoveToAnotherFolderSetsTheRelationshipAndItsPositionSlot() throws {
        let path = try CoreDataFixtures.copyOfStore("photos/Photos.sqlite")
        let columns = try PhotosColumnsOrderTests()
        // Core Data's own: some update of an album sets both parentFolder and its slot.
        let coreDatas = columns.rows.map(columns.decoded)
        #expect(coreDatas.contains { Set($0).isSuperset(of: ["parentFolder", "Z_FOK_PARENTFOLDER"]) })

        let queue = try DatabaseQueue(path: path)
        let (album, albumEntity, folder) = try queue.read { db -> (Int64, String, Int64) in
            let row = try #require(
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT a.Z_PK, p.Z_NAME, (SELECT f.Z_PK FROM ZGENERICALBUM f JOIN Z_PRIMARYKEY fp ON fp.Z_ENT = f.Z_ENT
                                                  WHERE fp.Z_NAME = 'Folder' AND f.Z_PK IS NOT a.ZPARENTFOLDER LIMIT 1)
                        FROM ZGENERICALBUM a JOIN Z_PRIMARYKEY p ON p.Z_ENT = a.Z_ENT
                        WHERE p.Z_NAME = 'Album' AND a.ZPARENTFOLDER IS NOT NULL LIMIT 1
                        """))
            return (row[0], row[1], try #require(row[2] as Int64?))
        }
        try queue.close()
        let lastChange =
            try CoreDataHistoryStores.rows(path, "SELECT max(Z_PK) FROM ACHANGE").first?.first.flatMap { Int64.fromDatabaseValue($0) } ?? 0

        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"local a = Album:get("Album/\#(album)"); a.parentFolder = Folder:get("Folder/\#(folder)"); save()"#)
        let mine = try CoreDataHistoryStores.rows(
            path,
            """
            SELECT c.ZCOLUMNS FROM ACHANGE c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.ZENTITY
            WHERE c.Z_PK > \(lastChange) AND c.ZCHANGETYPE = 1 AND p.Z_NAME = '\(albumEntity)' AND c.ZENTITYPK = \(album)
            """)
        let bits = try #require(mine.first?.first.flatMap { Data.fromDatabaseValue($0) }, "no update row for the album: \(mine)")
        let names = PersistentHistoryColumns.names(in: bits, order: PersistentHistoryColumns.coreDataOrder(of: albumEntity, in: columns.model))
        #expect(Set(names) == ["parentFolder", "Z_FOK_PARENTFOLDER"], "\(names)")
        #expect(try CoreDataHistoryStores.rows(path, "PRAGMA integrity_check") == [["ok".databaseValue]])
    }
}

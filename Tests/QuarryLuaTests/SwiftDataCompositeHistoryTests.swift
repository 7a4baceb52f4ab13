import Foundation
import GRDB
import QuarryCoreData
import QuarryModel
import QuarryModelFiles
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Issue 81 ("Core Data and SwiftData fidelity"): on a SwiftData store whose entity has a
/// composite attribute, SwiftData's own history rows (`ACHANGE.ZCOLUMNS`) for that entity
/// are wider than one bit per property: the composite's elements count. No store in reach
/// has such rows, so this is the composite store built to a real one's format
/// (`SwiftDataCompositeStore`) with Core Data's history tables added, and the order is
/// the one `PersistentHistoryColumns.coreDataOrder` documents as inferred: each stored
/// element a slot among the attributes, by the name its column is made from, then by its
/// path. Written out here from the model, not computed by the code under test.
@Suite struct SwiftDataCompositeHistoryTests {
    /// Cocktail's slots: its two plain attributes and the stored elements of its five
    /// composites (twelve), by column name then path. One per property would be 7: 1 byte.
    static let cocktailSlots = [
        "historicSpec.alaska", "historicSpec.algonquin", "origin.city", "cocktailName", "collection", "glasswareType", "author.id", "id",
        "origin.coords.lat", "origin.coords.lon", "author.person", "author.place", "origin.place", "author.year"
    ]

    func store() throws -> String {
        let path = try CoreDataFixtures.temporaryFolder().appendingPathComponent("default.store").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: try SwiftDataCompositeStore.sql())
            try db.execute(sql: CoreDataFixtures.persistentHistorySQL())
        }
        try queue.close()
        return path
    }

    /// The vector of `changed` in `cocktailSlots`' order, bit 0 the high bit of byte 0.
    static func expected(_ changed: Set<String>) -> Data {
        var bytes = [UInt8](repeating: 0, count: (cocktailSlots.count + 7) / 8)
        for (i, name) in cocktailSlots.enumerated() where changed.contains(name) { bytes[i / 8] |= 0x80 >> (i % 8) }
        return Data(bytes)
    }

    @Test func theOrderCountsEachStoredElementOfAComposite() throws {
        let model = try CoreDataModel.decodeArchive(SwiftDataCompositeStore.modelArchive(), path: "Built.mom")
        #expect(PersistentHistoryColumns.coreDataOrder(of: "Cocktail", in: model) == Self.cocktailSlots)
        #expect(
            PersistentHistoryColumns.coreDataOrder(of: "IngredientBase", in: model) == ["id", "prep.id", "name", "prep.prepIngredientName"])
        // A changed element sets its own bit, and reads back as its key.
        let bits = PersistentHistoryColumns.columns(changed: ["author.person", "cocktailName"], of: "Cocktail", in: model)
        #expect(bits == Self.expected(["author.person", "cocktailName"]))
        #expect(bits.count == 2)
        #expect(
            PersistentHistoryColumns.names(in: bits, order: PersistentHistoryColumns.coreDataOrder(of: "Cocktail", in: model)) == [
                "cocktailName", "author.person"
            ])
        // A composite named whole stands for all of its elements.
        #expect(
            PersistentHistoryColumns.columns(changed: ["origin"], of: "Cocktail", in: model)
                == Self.expected(["origin.city", "origin.coords.lat", "origin.coords.lon", "origin.place"]))
    }

    @Test func aSaveWritesTheElementsBitsTwoBytesWide() throws {
        let path = try store()
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            b = Cocktail:get("Cocktail/3")
            b.author = {id = "BE8C89E4-5F68-4435-9173-5CE80B2B2DE8", person = "D. Bradsell", place = "Fred's Club, London", year = "1984"}
            save()
            """#)
        let rows = try CoreDataHistoryStores.rows(path, "SELECT ZCHANGETYPE, ZENTITYPK, ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID = 2")
        let changed = try #require(rows.first.flatMap { Data.fromDatabaseValue($0[2]) }, "\(rows)")
        #expect(rows.count == 1 && rows.first?[0] == 1.databaseValue && rows.first?[1] == 3.databaseValue, "\(rows)")
        #expect(changed.count == 2, "the elements count: 14 slots")
        #expect(changed == Self.expected(["author.person"]), "\([UInt8](changed))")
        // Whole, on another cocktail: each element written sets its own bit.
        h.run(#"g = Cocktail:get("Cocktail/2"); g.origin = {city = "Paris"}; g.cocktailName = "Gimlet No. 2"; save()"#)
        let second = try CoreDataHistoryStores.rows(path, "SELECT ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID = 3")
        #expect(second.first.flatMap { Data.fromDatabaseValue($0[0]) } == Self.expected(["origin.city", "cocktailName"]), "\(second)")
        #expect(try CoreDataHistoryStores.rows(path, "PRAGMA integrity_check") == [["ok".databaseValue]])
    }
}

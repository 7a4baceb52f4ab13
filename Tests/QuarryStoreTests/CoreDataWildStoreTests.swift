import Foundation
import GRDB
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// Issue 28's first findings on real stores: what Core Data itself writes is read, not
/// refused, and its own bookkeeping entities are not the app's.
@Suite struct CoreDataWildStoreTests {
    /// A model built in code archives a to-many with no maximum as NSMaxCount -1
    /// (`books2/`): the store's model cache is read, where the archive was called broken
    /// and the names were inferred (lowercased, with no relationships).
    @Test func aMaxCountOfMinusOneIsNoMaximum() throws {
        let path = try CoreDataFixtures.copyOfStore("books2/SampleModel2_V2.sqlite")
        let context = try OpenFileRequest.open(path: path)
        defer { context.close() }
        #expect(context.openingNotes.isEmpty, "\(context.openingNotes)")
        let author = try #require(context.entities.first { $0.name == "Author" })
        let books = try #require(author.relationship(named: "books"), "\(author.relationships.map(\.name))")
        #expect(books.isToMany)
        let stored = try context.connection.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ZBOOK WHERE ZAUTHOR IS NOT NULL") ?? -1 }
        #expect(stored > 0)
    }

    /// An inferred model leaves out Core Data's history entities (CHANGE, TRANSACTION,
    /// TRANSACTIONSTRING) without a note, where each had "no table Z…: left out".
    @Test func anInferredModelLeavesOutTheHistoryEntitiesSilently() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: CoreDataFixtures.persistentHistorySQL(tombstones: 1))
            try db.execute(sql: "DELETE FROM Z_MODELCACHE")
        }
        try queue.close()
        let context = try OpenFileRequest.open(path: path)
        defer { context.close() }
        #expect(context.openingNotes.count == 1 && context.openingNotes[0].contains("were inferred from its tables"), "\(context.openingNotes)")
        #expect(Set(context.entities.map(\.name)).isDisjoint(with: ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"]))
        #expect(context.entities.contains { $0.name == "Car" })
    }
}

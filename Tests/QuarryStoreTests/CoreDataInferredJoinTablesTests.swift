import Foundation
import GRDB
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// Issue 49, item 4: a store with no model keeps its many-to-many pairs in join tables
/// `Z_<n><NAME>`; the inferred model makes each a pair of to-many relationships named
/// after the key columns, as the real model has them (lowercased). Checked against the
/// model each store's own cache gives, on a copy whose cache is dropped.
@Suite struct CoreDataInferredJoinTablesTests {
    /// A many-to-many side as compared: owner, name, destination, inverse and order,
    /// names lowercased (the inferred model cannot know their case).
    struct Side: Hashable, CustomStringConvertible {
        var owner: String, name: String, destination: String, inverse: String, ordered: Bool
        var description: String { "\(owner).\(name) -> \(destination).\(inverse)\(ordered ? " (ordered)" : "")" }
    }

    /// Every to-many whose inverse is a to-many: the pairs a join table keeps.
    static func manyToManySides(_ model: CoreDataModel) -> Set<Side> {
        var sides: Set<Side> = []
        for entity in model.entities {
            for r in entity.relationships where r.isToMany {
                guard let inverse = r.inverse,
                    model.allRelationships(of: r.destination).contains(where: { $0.name == inverse && $0.isToMany })
                else { continue }
                sides.insert(
                    Side(
                        owner: entity.name, name: r.name.lowercased(), destination: r.destination, inverse: inverse.lowercased(), ordered: r.isOrdered
                    ))
            }
        }
        return sides
    }

    /// The store's model from its cache, then the model inferred from a copy without it.
    static func cachedAndInferred(_ store: String) throws -> (cached: CoreDataModel, inferred: CoreDataModel, notes: [String], path: String) {
        let path = try CoreDataFixtures.copyOfStore(store)
        let withCache = try OpenFileRequest.open(path: path)
        let cached = try #require(CoreDataStore.behind(withCache)?.model)
        #expect(CoreDataStore.behind(withCache)?.modelSource == "the store's model cache")
        withCache.close()
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "DROP TABLE Z_MODELCACHE") }
        try queue.close()
        let context = try OpenFileRequest.open(path: path)
        defer { context.close() }
        #expect(CoreDataStore.behind(context)?.modelSource == "inferred")
        return (cached, try #require(CoreDataStore.behind(context)?.model), context.openingNotes, path)
    }

    @Test func screenTimesJoinTableIsBlueprintUsersAndCoreUserBlueprints() throws {
        let (cached, inferred, notes, _) = try Self.cachedAndInferred("screentime/RMAdminStore-Local.sqlite")
        let expected = Self.manyToManySides(cached)
        #expect(expected.map(\.description).sorted() == ["Blueprint.users -> CoreUser.blueprints", "CoreUser.blueprints -> Blueprint.users"])
        #expect(Self.manyToManySides(inferred) == expected)
        #expect(
            notes.contains {
                $0.contains("many-to-many relationships inferred from the store's join tables")
                    && $0.contains("Z_2USERS (CoreUser.blueprints, Blueprint.users)")
            },
            "\(notes)")
    }

    @Test func authorsJoinTableIsAuthorBooksAndBookAuthors() throws {
        let (cached, inferred, _, _) = try Self.cachedAndInferred("authors/TestModel.sqlite")
        let expected = Self.manyToManySides(cached)
        #expect(expected.map(\.description).sorted() == ["Author.books -> Book.authors", "Book.authors -> Author.books"])
        #expect(Self.manyToManySides(inferred) == expected)
    }

    /// Photos.app's 17 join tables: plain, ordered (`Z_FOK_`), reflexive (`REFLEXIVE`), and
    /// a column with a numeric suffix (`Z_3REPRESENTATIVEASSETS1`).
    @Test func photosJoinTablesAreTheModelsManyToManyPairs() throws {
        let (cached, inferred, _, path) = try Self.cachedAndInferred("photos/Photos.sqlite")
        let expected = Self.manyToManySides(cached)
        let got = Self.manyToManySides(inferred)
        #expect(expected.count > 30)
        #expect(expected.contains { $0.ordered } && expected.contains { $0.owner == $0.destination && $0.name == $0.inverse })
        #expect(
            got == expected,
            "missing: \(expected.subtracting(got).map(\.description).sorted()); extra: \(got.subtracting(expected).map(\.description).sorted())")
        // And they are read: an album's assets through the inferred names, in the join table's order.
        let context = try OpenFileRequest.open(path: path)
        defer { context.close() }
        let album = try #require(context.entities.first { $0.name == "Album" })
        #expect(album.relationship(named: "assets")?.isToMany == true)
        #expect(CoreDataStore.behind(context)?.ordering(of: "Album", "assets") != nil)
    }

    /// A to-one whose destination has sub-entities keeps the target's entity number in
    /// `Z<n>_<NAME>` beside its key: with no model, the pair is a to-one to entity n, as
    /// the model has it, and the number column no attribute (was `7_organization`).
    @Test(arguments: ["screentime/RMAdminStore-Local.sqlite", "photos/Photos.sqlite", "books2/SampleModel2_V2.sqlite"])
    func entityNumberColumnsMakeToOnesToTheirDestination(store: String) throws {
        let path = try CoreDataFixtures.copyOfStore(store)
        let numbered = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(
                db, sql: "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' AND p.name GLOB 'Z[0-9]*_*'"
            )
            .map { row -> (table: String, column: String) in (row[0], row[1]) }
        }
        #expect(!numbered.isEmpty)
        let (cached, inferred, _, _) = try Self.cachedAndInferred(store)
        for (table, column) in numbered {
            let name = String(column.drop { $0 != "_" }.dropFirst())
            // The model's to-one of that column: declared by an entity of the table's hierarchy.
            let root = try #require(cached.entities.first { "Z" + $0.name.uppercased() == table && $0.parent == nil })
            let declared = try #require(
                cached.descendants(of: root.name).flatMap(\.relationships).first { !$0.isToMany && $0.name.uppercased() == name },
                "\(table).\(column)")
            let got = inferred.entity(named: root.name)?.relationships.first { $0.name == name.lowercased() }
            #expect(got?.destination == declared.destination && got?.isToMany == false, "\(table).\(column): \(String(describing: got))")
            #expect(inferred.entity(named: root.name)?.attributes.contains { $0.name == String(column.dropFirst()).lowercased() } == false)
        }
        // Every relationship name is unique on its entity (three to-ones of CoreTransportPayload to CoreOrganization).
        for entity in inferred.entities {
            let names = entity.relationships.map(\.name) + entity.attributes.map(\.name)
            #expect(Set(names).count == names.count, "\(entity.name): \(names)")
        }
    }

    /// A to-many with no inverse keeps its owner's key in the destination's table, in
    /// `Z<n><NAME>` (n the owner's number): with no model, Asset's
    /// `libraryScopeAssetContributors` is such a to-many, not an attribute of AssetContributor.
    @Test func aHiddenToManyColumnIsAToManyWithNoInverse() throws {
        let (cached, inferred, _, _) = try Self.cachedAndInferred("photos/Photos.sqlite")
        let model = try #require(cached.allRelationships(of: "Asset").first { $0.name == "libraryScopeAssetContributors" })
        #expect(model.isToMany && model.inverse == nil && model.destination == "AssetContributor")
        let got = try #require(inferred.entity(named: "Asset")?.relationships.first { $0.name == "libraryscopeassetcontributors" })
        #expect(got.isToMany && got.inverse == nil && got.destination == "AssetContributor")
        #expect(inferred.entity(named: "AssetContributor")?.attributes.contains { $0.name.hasPrefix("3") } == false)
    }
}

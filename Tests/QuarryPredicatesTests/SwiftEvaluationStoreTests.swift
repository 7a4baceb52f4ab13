import Foundation
import QuarryModel
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarrySwiftEvaluation
import QuarryTestSupport
import Testing

/// Issue #27 part 5 over every real Core Data store in `../shared/data/coredata` (copies):
/// realistic predicates per store (each attribute type it has, to-one paths, to-many
/// ANY and @count, BEGINSWITH, CONTAINS, IN, BETWEEN, dates, nil), exported as
/// `#Predicate`, compiled with swiftc over plain classes holding the store's objects,
/// evaluated, and compared with Quarry's fetch. Each must be exported (a refusal here is a
/// failure naming it, so the list proves what it says) and select the same objects.
@Suite struct SwiftEvaluationStoreTests {
    struct Store: CustomStringConvertible, Sendable {
        let path: String
        let entity: String
        let formats: [String]
        var sample = 200
        var description: String { "\(path) \(entity)" }
    }

    static let stores: [Store] = [
        Store(
            path: "cars/SampleModel_V1.sqlite", entity: "Car",
            formats: [
                "maker == 'FIAT'", "maker != 'FIAT'", "maker BEGINSWITH 'M'", "model CONTAINS 'an'",
                "maker IN {'BMW', 'Kia', 'Renault'}", "numberPlate == '170'", "numberPlate BEGINSWITH '1'",
                "markedForDeletionAsOf == nil", "markedForDeletionAsOf != nil",
                "owner == nil", "owner != nil", "owner.firstName == 'Victoria'", "owner.lastName BEGINSWITH 'G'",
                "owner.updatedAt > %@", "owner.id == %@", "owner.cars.@count > 5", "ANY owner.cars.maker == 'Kia'",
                "maker == 'FIAT' AND NOT (owner.lastName CONTAINS 'e')", "maker CONTAINS[cd] 'fíat'"
            ]),
        Store(
            path: "cars/SampleModel_V1.sqlite", entity: "Person",
            formats: [
                "cars.@count == 0", "cars.@count BETWEEN {1, 6}", "ANY cars.maker == 'BMW'", "ALL cars.maker == 'FIAT'",
                "NONE cars.model BEGINSWITH 'P'", "SUBQUERY(cars, $c, $c.maker == 'FIAT').@count > 2",
                "firstName BEGINSWITH 'V' OR lastName IN {'Gleaves', 'Moreton'}", "updatedAt > %@", "updatedAt <= %@",
                "id == %@", "id != %@", "firstName == nil"
            ]),
        Store(
            path: "cars/SampleModel_V1.sqlite", entity: "SportCar",
            formats: [
                "maker BEGINSWITH 'L'", "owner != nil", "owner.cars.@count >= 2"
            ]),
        Store(
            path: "surfjournal/SurfJournalModel.sqlite", entity: "JournalEntry",
            formats: [
                "rating == 5", "rating >= 3", "rating IN {1, 2}", "rating BETWEEN {2, 4}", "NOT (rating < 4)",
                "location == 'Malibu'", "location BEGINSWITH 'B'", "location CONTAINS 'Beach'", "location IN {'Rincon', 'Waikiki'}",
                "height == '0.4'", "wind BEGINSWITH '1'", "date > %@", "date BETWEEN {%@, %@}", "date == nil", "period != nil AND rating < 3"
            ]),
        Store(
            path: "posts/CoreDataMigration_Example_3.sqlite", entity: "Post",
            formats: [
                "date > %@", "date < %@ AND postID BEGINSWITH '3'", "postID BEGINSWITH '3'", "postID CONTAINS 'A'",
                "color == nil", "color != nil", "color.hex BEGINSWITH '0'", "color.hex == 'FA31AC'", "color.colorID CONTAINS 'E'"
            ]),
        Store(
            path: "recipes/Recipes.sqlite", entity: "Recipe",
            formats: [
                "name CONTAINS 'Cake'", "name BEGINSWITH 'T'", "name IN {'Macarons', 'Ginger snaps'}", "preptime == '1 hour'",
                "type.name == 'Dessert'", "type != nil", "ingredients.@count > 5",
                "ANY ingredients.name CONTAINS 'flour'", "SUBQUERY(ingredients, $i, $i.displayorder == 0).@count >= 1",
                "image != nil", "overview CONTAINS[cd] 'francais'", "thumbnailimage != nil"
            ]),
        Store(
            path: "recipes/Recipes.sqlite", entity: "Ingredient",
            formats: [
                "displayorder == 0", "displayorder > 3", "amount CONTAINS 'cup'", "recipe.name BEGINSWITH 'C'",
                "recipe.preptime CONTAINS 'min'", "recipe.ingredients.@count < 8"
            ]),
        Store(
            path: "authors/TestModel.sqlite", entity: "Author",
            formats: [
                "firstName == 'Ann'", "lastName BEGINSWITH 'B'", "books.@count > 0", "ANY books.title CONTAINS 'a'"
            ]),
        Store(
            path: "books2/SampleModel2_V2.sqlite", entity: "Book",
            formats: [
                "pagesCount > 20", "pagesCount IN {1, 19}", "price > 5", "price BETWEEN {3, 4}", "title CONTAINS 'novel'",
                "publishedAt > %@", "uniqueID == %@", "author.alias == 'Alessandro'", "author.age >= 40",
                "pages.@count > 20", "ANY pages.isBookmarked == YES", "price > 3 AND author != nil"
            ]),
        Store(
            path: "books2/SampleModel2_V2.sqlite", entity: "Page",
            formats: [
                "isBookmarked == YES", "number < 10", "number BETWEEN {10, 20}", "book.title BEGINSWITH 'title 1'",
                "book.pagesCount > 50", "book.author.age == 40", "book.publishedAt > %@"
            ]),
        Store(
            path: "photos/Photos.sqlite", entity: "Asset",
            formats: [
                "favorite == YES", "hidden == NO", "kind == 0", "kind IN {0, 1}", "height > 2000", "width BETWEEN {1000, 5000}",
                "dateCreated > %@", "filename BEGINSWITH 'I'", "filename CONTAINS 'JPG'", "uuid BEGINSWITH 'D'",
                "latitude > 40", "moment != nil", "moment.title CONTAINS 'a'", "detectedFaces.@count > 0",
                "ANY albums.title BEGINSWITH 'S'", "ANY additionalAttributes.keywords.title == 'Kids'",
                "additionalAttributes.originalFilename CONTAINS 'jpg'"
            ]),
        Store(
            path: "photos/Photos.sqlite", entity: "GenericAlbum",
            formats: [
                "kind == 2", "title BEGINSWITH 'A'", "cachedCount > 0", "parentFolder == nil", "parentFolder.title CONTAINS 'o'",
                "trashedState == 0"
            ]),
        Store(
            path: "photos/Photos.sqlite", entity: "Album",
            formats: [
                "assets.@count >= 2", "ANY assets.favorite == YES", "title CONTAINS 'a' AND parentFolder != nil",
                "customSortAscending == NO"
            ])
    ]

    /// Arguments by placeholder count: dates spread over the stores' years, a UUID of a row.
    static func arguments(_ format: String, store: Store) -> [Value] {
        let count = format.components(separatedBy: "%@").count - 1
        if format.contains("id == %@") || format.contains("id != %@") || format.contains("uniqueID == %@") {
            return [.text(store.path.hasPrefix("books2") ? "AE289A08-EC9E-49D5-A96B-CBDFD53D451F" : "1CD6E50D-94D1-4E02-B82A-BB220F6AFCA3")]
        }
        if format.contains("BETWEEN {%@") {
            return [.date(1_000_000_000 + referenceDateOffset - 700_000_000), .date(300_000_000 + referenceDateOffset)]
        }
        let dates: [Double] =
            store.path.hasPrefix("surfjournal")
            ? [200_000_000, 300_000_000]
            : store.path.hasPrefix("posts") ? [526_913_733, 526_913_900] : [639_503_569.6387, 737_057_651.665, 700_000_000]
        return (0..<count).map { .date(dates[$0 % dates.count] + referenceDateOffset) }
    }

    @Test(arguments: stores)
    func storePredicatesSelectInSwiftWhatQuarryFetches(_ store: Store) throws {
        let context = try StoreOpener.open(try CoreDataFixtures.copyOfStore(store.path))
        let cases = try store.formats.map { format in
            SwiftEvaluation.Case(format, try PredicateParser.parse(format, arguments: PredicateArguments(Self.arguments(format, store: store))))
        }
        let report = try SwiftEvaluation.run(cases, entity: store.entity, in: context, sample: store.sample)
        print("SwiftEvaluationStoreTests \(store): \(report)")
        #expect(report.refusals.isEmpty, "refused:\n\(report.refusals.joined(separator: "\n"))")
        #expect(report.mismatches.isEmpty, "\(report.mismatches.joined(separator: "\n"))")
        #expect(report.agreed == store.formats.count)
        // Not all vacuous: a store with rows has cases selecting some but not all of them.
        if store.path.hasPrefix("authors") == false {
            #expect(report.discriminating * 2 >= report.agreed, "\(report)")
        }
    }
}

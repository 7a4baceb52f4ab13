import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarrySwiftInput
import QuarrySwiftReading
import QuarryTestSupport
import Testing

/// Issue #79, item 6 and `p:swift()` read back: what Apple's grammar reads on a Core Data
/// store (`entity.name`, `CAST(now(), 'NSDate')`), the `NSPredicate(format:, args)` line
/// `p:swift()` prints, and `r:swift()` of a predicate with a date part.
@Suite struct GrammarCornersTests {
    /// `entity.name` over a parent keeps the objects of the sub-entities named, as Core Data
    /// reads the object's `NSEntityDescription`: in SQL (the fetch and its count) and in
    /// memory alike, on a Core Data store with a hierarchy (Book > GraphicNovel).
    @Test func entityNameSelectsBySubEntityInSQLAndMemory() throws {
        let context = try StoreOpener.open(try CoreDataFixtures.copyOfStore("books2/SampleModel2_V2.sqlite"))
        defer { context.close() }
        let book = try context.entity(named: "Book")
        let all = try FetchRequest(entityName: "Book").execute(in: context).objects()
        let novels = try FetchRequest(entityName: "GraphicNovel").count(in: context)
        var own = FetchRequest(entityName: "Book")
        own.includesSubentities = false
        let books = try own.count(in: context)
        #expect(novels > 0 && books > 0 && novels + books == all.count, "\(novels) + \(books) of \(all.count)")
        for (format, expected) in [
            ("entity.name == 'GraphicNovel'", novels), ("entity.name == 'Book'", books), ("entity.name != 'Book'", novels),
            ("entity.name IN {'Book', 'GraphicNovel'}", all.count), ("entity.name == 'Writer'", 0)
        ] {
            let predicate = try PredicateParser.parse(format)
            let bound = try BoundPredicate(predicate, entity: book, context: context)
            #expect(try FetchRequest(entityName: "Book", predicate: predicate).count(in: context) == expected, "\(format)")
            #expect(try FetchRequest(entityName: "Book", predicate: predicate).execute(in: context).objects().count == expected, "\(format)")
            #expect(all.filter { bound.matches($0) }.count == expected, "\(format) in memory")
            #expect(bound.nsPredicateCode.contains("entity.name"), "\(bound.nsPredicateCode)")
        }
        // Over an entity without sub-entities the answer is known for every object.
        let novel = try context.entity(named: "GraphicNovel")
        #expect(try BoundPredicate(PredicateParser.parse("entity.name == 'GraphicNovel'"), entity: novel, context: context).root.isTrue)
        for (format, said) in [
            ("entity.name == 'Nope'", "no entity is named 'Nope'"), ("entity.name BEGINSWITH 'G'", "entity.name is read compared with")
        ] {
            #expect(throws: QuarryPredicates.PredicateError.self, "\(format)") {
                do { _ = try BoundPredicate(PredicateParser.parse(format), entity: book, context: context) } catch let error
                    as QuarryPredicates.PredicateError
                {
                    #expect(error.message.contains(said), "\(error.message)")
                    throw error
                }
            }
        }
    }

    @Test func castOfNowIsADate() throws {
        let context = try StoreOpener.open(nil)
        let entity = try context.define(EntityDescription(name: "Item", attributes: [AttributeDescription(name: "d", type: .date, isOptional: true)]))
        for seconds in [-1e9, Date().timeIntervalSince1970 + 1e6] { _ = try context.insert(into: "Item", values: ["d": .date(seconds)]) }
        try context.save()
        let predicate = try PredicateParser.parse("d < CAST(now(), 'NSDate')")
        _ = try BoundPredicate(predicate, entity: entity, context: context)
        #expect(try FetchRequest(entityName: "Item", predicate: predicate).count(in: context) == 1)
    }

    /// What `p:swift()` prints reads back as it is, its `NSPredicate(format:, args)` line
    /// included: a UUID passed as `NSUUID`; an object only the app has is refused by name.
    @Test func theNSPredicateLineWithArgumentsReadsBack() throws {
        let context = try StoreOpener.open(nil)
        let entity = try context.define(
            EntityDescription(
                name: "Item",
                attributes: [
                    AttributeDescription(name: "code", type: .uuid, isOptional: true), AttributeDescription(name: "n", type: .int64, isOptional: true)
                ]
            ))
        let uuid = "0C2D4F6A-1B3C-4D5E-8F70-112233445566"
        let bound = try BoundPredicate(
            PredicateParser.parse("code == %@ AND n > 2", arguments: PredicateArguments([.text(uuid)])), entity: entity, context: context)
        let code = bound.swiftCode()
        let line = try #require(code.split(separator: "\n").first.map(String.init))
        #expect(line.contains("as NSUUID"), "\(line)")
        // The line alone reads as its format with its argument; before the macro, the macro is read.
        let alone = try BoundPredicate(SwiftPredicateReader.read(line, captures: [:]).predicate, entity: entity, context: context)
        #expect(alone.source.description == bound.source.description && alone.nsPredicateCode == bound.nsPredicateCode, "\(alone.source)")
        #expect(try SwiftPredicateReader.read(code, captures: [:]).typeName == "Item")
        do {
            _ = try SwiftPredicateReader.read(#"let predicate = NSPredicate(format: "owner == %@", person)"#, captures: [:])
            Issue.record("an object the app passes was read")
        } catch let error as QuarryPredicates.PredicateError {
            #expect(error.message.contains("'person' in NSPredicate(format:, ...) is a value of the app's"), "\(error.message)")
        }
        // `let now = Date.now` and `Date()` are the time the text is read.
        let before = Date().timeIntervalSince1970
        for text in [
            "let now = Date.now\nlet query = #Predicate<Item> { $0.n == 1 && $0.when < now }", "let now = Date()\n#Predicate<Item> { $0.when < now }"
        ] {
            let description = try SwiftPredicateReader.read(text, captures: [:]).predicate.description
            let iso = try #require(description.split(separator: "\"").dropFirst().first.map(String.init), "\(description)")
            let seconds = try #require(Value.parseISO8601(iso), "\(description)")
            #expect(seconds >= before - 1 && seconds <= Date().timeIntervalSince1970 + 1, "\(description)")
        }
        // Given as a capture, it reads.
        let captured = try SwiftPredicateReader.read(
            #"let predicate = NSPredicate(format: "n == %@", limit)"#, captures: ["limit": .value(.integer(3))])
        #expect(captured.predicate.description == "n == 3")
    }

    /// `r:swift()` of a request whose predicate reads a date's part prints no NSPredicate
    /// line the app would raise on (`when.year` is no key of NSDate): a note says so.
    @Test func aRequestWithADatePartPrintsNoNSPredicate() throws {
        let context = try StoreOpener.open(nil)
        _ = try context.define(EntityDescription(name: "Item", attributes: [AttributeDescription(name: "when", type: .date, isOptional: true)]))
        let request = FetchRequest(entityName: "Item", predicate: try PredicateParser.parse("when.year == 2024"))
        for style in [SwiftRequestStyle.nsFetchRequest, .fetchRequest] {
            let code = try SwiftRequestExport(request, in: context).code(style: style)
            #expect(!code.contains("NSPredicate(format:"), "\(style): \(code)")
            #expect(code.contains("not expressed: predicate: NSPredicate and #Predicate have no date parts"), "\(style): \(code)")
        }
        let plain = FetchRequest(entityName: "Item", predicate: try PredicateParser.parse("when > %@", arguments: PredicateArguments([.date(0)])))
        #expect(try SwiftRequestExport(plain, in: context).code(style: .nsFetchRequest).contains("request.predicate = NSPredicate(format:"))
    }
}

extension BoundPredicate.Node {
    fileprivate var isTrue: Bool {
        if case .constant(true) = self { return true }
        return false
    }
}

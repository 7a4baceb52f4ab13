import Foundation
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarryStore
import Testing

/// Fetches with predicates, sorts and counts, relationships read from both ends, and
/// `updateall`/`deleteall`, each answered by the engine's SQL and checked against the
/// same question asked of the books in Swift.
extension EngineSuite {
    typealias Book = (title: String, year: Int64, note: String?, author: String, tags: [String])

    /// Predicates and what each asks of a book, bound arguments included.
    static let questions: [(predicate: String, arguments: [Value], matches: (Book) -> Bool)] = [
        ("year >= %@", [.integer(2005)], { $0.year >= 2005 }), ("year BETWEEN {1990, 2010}", [], { (1990...2010).contains($0.year) }),
        ("title BEGINSWITH 'a'", [], { $0.title.hasPrefix("a") }), ("title BEGINSWITH[c] 'A'", [], { $0.title.lowercased().hasPrefix("a") }),
        ("title ==[cd] 'eclair'", [], { $0.title == "éclair" }), ("title CONTAINS %@", [.text("pp")], { $0.title.contains("pp") }),
        ("title LIKE '*e*'", [], { $0.title.contains("e") }), ("note == nil", [], { $0.note == nil }), ("note == ''", [], { $0.note == "" }),
        ("author.name == %@", [.text("Ann")], { $0.author == "Ann" }), ("ANY tags.name == 'fruit'", [], { $0.tags.contains("fruit") }),
        ("tags.@count >= 2", [], { $0.tags.count >= 2 }), ("NOT (year < 2000 OR note != nil)", [], { !($0.year < 2000 || $0.note != nil) }),
        ("title IN {'Apple', 'cherry'}", [], { ["Apple", "cherry"].contains($0.title) })
    ]

    @Test(arguments: EngineUnderTest.allCases) func predicatesCountAndFetchWhatSwiftFinds(_ engine: EngineUnderTest) async throws {
        try await EngineStore.with(engine, "predicates") { store in
            try Self.saveLibrary(in: try store.session())
            let reader = try store.session()
            for question in Self.questions {
                let expected = Self.books.filter(question.matches).map(\.title).sorted()
                let request = try Self.request("Book", question.predicate, question.arguments, sort: ["title"])
                #expect(try request.count(in: reader) == expected.count, "\(engine): count of \(question.predicate)")
                #expect(try Self.texts("title", request, in: reader) == expected, "\(engine): \(question.predicate)")
            }
        }
    }

    /// Sorts on several keys, either way, and a window of them.
    @Test(arguments: EngineUnderTest.allCases) func sortsOrderAsSwiftOrdersBytes(_ engine: EngineUnderTest) async throws {
        try await EngineStore.with(engine, "sorts") { store in
            try Self.saveLibrary(in: try store.session())
            let reader = try store.session()
            // Binary order of the titles' UTF-8, as both engines are asked to compare text.
            let byTitle = Self.books.map(\.title).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            #expect(try Self.texts("title", Self.request("Book", sort: ["title"]), in: reader) == byTitle, "\(engine)")
            #expect(try Self.texts("title", Self.request("Book", sort: ["-title"]), in: reader) == byTitle.reversed(), "\(engine)")
            let byYearThenTitle = Self.books.sorted { a, b in
                a.year != b.year ? a.year > b.year : Array(a.title.utf8).lexicographicallyPrecedes(Array(b.title.utf8))
            }
            .map(\.title)
            #expect(try Self.texts("title", Self.request("Book", sort: ["-year", "title"]), in: reader) == byYearThenTitle, "\(engine)")
            var window = try Self.request("Book", sort: ["-year", "title"])
            window.limit = 3
            window.offset = 2
            #expect(try Self.texts("title", window, in: reader) == Array(byYearThenTitle[2..<5]), "\(engine)")
            // Through a to-one relationship.
            let byAuthor = Self.books.sorted { ($0.author, $0.year) < ($1.author, $1.year) }.map(\.title)
            #expect(try Self.texts("title", Self.request("Book", sort: ["author.name", "year"]), in: reader) == byAuthor, "\(engine)")
        }
    }

    /// A to-one and a many-to-many read from both ends by another session, and changed.
    @Test(arguments: EngineUnderTest.allCases) func relationshipsAndTheirInversesAgree(_ engine: EngineUnderTest) async throws {
        try await EngineStore.with(engine, "relationships") { store in
            try Self.saveLibrary(in: try store.session())
            let reader = try store.session()
            for author in try Self.request("Author").execute(in: reader).objects() {
                guard case .text(let name) = try author.value(forKey: "name") else { continue }
                let titles = try reader.relatedObjects("books", of: author).map { try $0.value(forKey: "title") }
                let expected = Self.books.filter { $0.author == name }.map { Value.text($0.title) }
                #expect(Set(titles) == Set(expected) && titles.count == expected.count, "\(engine): \(name).books")
            }
            for tag in try Self.request("Tag").execute(in: reader).objects() {
                guard case .text(let name) = try tag.value(forKey: "name") else { continue }
                let titles = try reader.relatedObjects("books", of: tag).map { try $0.value(forKey: "title") }
                #expect(Set(titles) == Set(Self.books.filter { $0.tags.contains(name) }.map { Value.text($0.title) }), "\(engine): \(name)")
            }
            // Moved to another author, and a tag taken off: both ends agree after the save,
            // in this session and in a new one.
            let pie = try #require(try Self.request("Book", "title == 'apple pie'").execute(in: reader).objects().first)
            let bob = try #require(try Self.request("Author", "name == 'Bob'").execute(in: reader).objects().first)
            let food = try #require(try reader.relatedObjects("tags", of: pie).first)
            try reader.setRelatedObject(bob, "author", of: pie)
            try reader.removeRelated(food, from: "tags", of: pie)
            #expect(try reader.relatedObjects("books", of: bob).contains { $0 === pie }, "\(engine)")
            let summary = try reader.save()
            #expect(summary.inserted == 0 && summary.deleted == 0 && summary.updated >= 1, "\(engine): \(summary)")
            let check = try store.session()
            #expect(try Self.request("Book", "author.name == 'Bob'").count(in: check) == 3, "\(engine)")
            #expect(try Self.request("Author", "ANY books.title == 'apple pie'", sort: []).count(in: check) == 1, "\(engine)")
            #expect(try Self.texts("name", Self.request("Author", "ANY books.title == 'apple pie'"), in: check) == ["Bob"], "\(engine)")
            #expect(try Self.request("Tag", "name == 'food' AND ANY books.title == 'apple pie'").count(in: check) == 0, "\(engine)")
            #expect(try Self.request("Author", "books.@count == 3").count(in: check) == 1, "\(engine)")
        }
    }

    /// `updateall` and `deleteall` run as one statement each: they count what they
    /// changed, another session sees it, and the session that ran them shows it.
    @Test(arguments: EngineUnderTest.allCases) func updateAllAndDeleteAllChangeTheRowsTheyMatch(_ engine: EngineUnderTest) async throws {
        try await EngineStore.with(engine, "batch") { store in
            let writer = try store.session()
            try Self.saveLibrary(in: writer)
            let held = try #require(try Self.request("Book", "title == 'banana'").execute(in: writer).objects().first)
            let predicate = try PredicateParser.parse("year < %@", arguments: PredicateArguments([.integer(2006)]))
            let older = Self.books.filter { $0.year < 2006 }
            #expect(try BatchUpdateRequest("Book", where: predicate, set: ["note": .text("old")]).execute(in: writer) == older.count, "\(engine)")
            #expect(try held.value(forKey: "note") == .text("old"), "\(engine)")
            let check = try store.session()
            #expect(try Self.request("Book", "note == 'old'").count(in: check) == older.count, "\(engine)")
            let deleted = try BatchDeleteRequest("Book", where: try PredicateParser.parse("note == 'old'", arguments: PredicateArguments([])))
                .execute(in: writer)
            #expect(deleted == older.count, "\(engine)")
            #expect(held.isDeleted, "\(engine)")
            #expect(try Self.request("Book").count(in: check) == Self.books.count - older.count, "\(engine)")
            // The inverse no longer holds them.
            let ann = try #require(try Self.request("Author", "name == 'Ann'").execute(in: check).objects().first)
            #expect(try check.relatedObjects("books", of: ann).count == Self.books.filter { $0.author == "Ann" && $0.year >= 2006 }.count)
        }
    }
}

import Foundation
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarryStore
import Testing

/// What every engine must do alike, written once against the context's API and run on
/// each engine (`EngineUnderTest`), as FluentBenchmark is run by each of Fluent's
/// drivers: values of every type saved and read back by another session, fetches with
/// predicates, sorts and counts, relationships and their inverses, `updateall` and
/// `deleteall`, conflicts between sessions under each merge policy, observers hearing
/// another session's commit, export then import, and errors as one line. Where the
/// engines differ today a test says so where it checks it, and expects each engine's own
/// answer, so a change to either shows.
@Suite struct EngineSuite {
    /// An attribute of each type, all optional: `nil` goes back and forth as a value.
    static let sample = EntityDescription(
        name: "Sample",
        attributes: [
            AttributeDescription(name: "label", type: .string),
            AttributeDescription(name: "i16", type: .int16, isOptional: true),
            AttributeDescription(name: "i32", type: .int32, isOptional: true),
            AttributeDescription(name: "i64", type: .int64, isOptional: true),
            AttributeDescription(name: "d", type: .double, isOptional: true),
            AttributeDescription(name: "dec", type: .decimal, isOptional: true),
            AttributeDescription(name: "s", type: .string, isOptional: true),
            AttributeDescription(name: "b", type: .bool, isOptional: true),
            AttributeDescription(name: "t", type: .date, isOptional: true),
            AttributeDescription(name: "u", type: .uuid, isOptional: true),
            AttributeDescription(name: "bin", type: .binary, isOptional: true)
        ])

    /// Samples, by label: each type's extremes and an ordinary value, and one of nils.
    static let samples: [[String: Value]] = [
        [
            "label": .text("low"), "i16": .integer(Int64(Int16.min)), "i32": .integer(Int64(Int32.min)), "i64": .integer(Int64.min),
            "d": .real(-1.5e300), "dec": .decimal("-12345.6789"), "s": .text(""), "b": .bool(false), "t": .date(-62_135_596_800),
            "u": .text("00000000-0000-0000-0000-000000000000"), "bin": .blob([])
        ],
        [
            "label": .text("high"), "i16": .integer(Int64(Int16.max)), "i32": .integer(Int64(Int32.max)), "i64": .integer(Int64.max),
            "d": .real(0.1), "dec": .decimal("98765.4321"), "s": .text("Ünïcødé ✓ 'single' \"double\" \\ %@ _%"), "b": .bool(true),
            "t": .date(1_700_000_000.25), "u": .text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), "bin": .blob([0, 1, 0x7F, 0x80, 0xFF, 0])
        ],
        [
            "label": .text("nils"), "i16": .null, "i32": .null, "i64": .null, "d": .null, "dec": .null, "s": .null, "b": .null, "t": .null,
            "u": .null, "bin": .null
        ]
    ]

    /// `Author.books` to `Book.author`, and `Book.tags` to `Tag.books` (many to many).
    static let library = [
        EntityDescription(
            name: "Author", attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [RelationshipDescription(name: "books", destination: "Book", inverse: "author", isToMany: true)]),
        EntityDescription(
            name: "Book",
            attributes: [
                AttributeDescription(name: "title", type: .string), AttributeDescription(name: "year", type: .int64),
                AttributeDescription(name: "note", type: .string, isOptional: true)
            ],
            relationships: [
                RelationshipDescription(name: "author", destination: "Author", inverse: "books", isToMany: false),
                RelationshipDescription(name: "tags", destination: "Tag", inverse: "books", isToMany: true)
            ]),
        EntityDescription(
            name: "Tag", attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [RelationshipDescription(name: "books", destination: "Book", inverse: "tags", isToMany: true)])
    ]

    /// The books: title, year, note, author's name, tags. Titles mix case and accents, so
    /// that a sort or a folding comparison that differs between engines shows.
    static let books: [(title: String, year: Int64, note: String?, author: String, tags: [String])] = [
        ("banana", 1999, nil, "Ann", ["fruit"]), ("Apple", 2005, "red", "Ann", ["fruit", "tech"]),
        ("éclair", 2010, nil, "Bob", ["food"]), ("Eclipse", 2010, "dark", "Bob", []), ("cherry", 1980, "", "Cy", ["fruit", "food"]),
        ("apple pie", 2021, "warm", "Ann", ["food"])
    ]

    /// Defines the library and saves the books, their authors and tags in `context`.
    static func saveLibrary(in context: ObjectContext) throws {
        for entity in library { try context.define(entity) }
        var authors: [String: ManagedObject] = [:]
        var tags: [String: ManagedObject] = [:]
        for book in books {
            let object = try context.insert(
                into: "Book", values: ["title": .text(book.title), "year": .integer(book.year), "note": book.note.map(Value.text) ?? .null])
            if authors[book.author] == nil { authors[book.author] = try context.insert(into: "Author", values: ["name": .text(book.author)]) }
            try context.setRelatedObject(authors[book.author], "author", of: object)
            for tag in book.tags {
                if tags[tag] == nil { tags[tag] = try context.insert(into: "Tag", values: ["name": .text(tag)]) }
                try context.addRelated(try #require(tags[tag]), to: "tags", of: object)
            }
        }
        try context.save()
    }

    /// A request for `entity`, its predicate parsed as the shell parses one.
    static func request(_ entity: String, _ predicate: String? = nil, _ arguments: [Value] = [], sort: [String] = []) throws -> FetchRequest {
        FetchRequest(
            entityName: entity, predicate: try predicate.map { try PredicateParser.parse($0, arguments: PredicateArguments(arguments)) },
            sortDescriptors: sort.map(QuarryFetch.SortDescriptor.init(parsing:)))
    }

    /// The text values of `key` of what `request` fetches, in its order.
    static func texts(_ key: String, _ request: FetchRequest, in context: ObjectContext) throws -> [String] {
        try request.execute(in: context).objects().map { object in
            guard case .text(let text) = try object.value(forKey: key) else { return "<\(try object.value(forKey: key))>" }
            return text
        }
    }
}

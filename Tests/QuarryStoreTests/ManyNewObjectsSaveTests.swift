import Foundation
import QuarryModel
import QuarryStores
import Testing

@testable import QuarryStore

/// What a save of many new objects looks up once rather than for each (issue 62): an
/// entity's description, storage and root once for a run of its objects
/// (`SavedEntities`), each new value checked as `setValue` checks it but without the
/// checks made once for the object (`ManagedObject.setNewValue`). Lookups last one step of
/// one save: a redefinition between two saves is written as defined.
@Suite struct ManyNewObjectsSaveTests {
    static let author = EntityDescription(name: "Author", attributes: [AttributeDescription(name: "name", type: .string)])
    static let book = EntityDescription(
        name: "Book",
        attributes: [
            AttributeDescription(name: "title", type: .string), AttributeDescription(name: "pages", type: .int64, isOptional: true)
        ])

    /// Objects of two entities made in turn (no run of one entity longer than one), and
    /// each linked to the other's latest: every row holds its own values and its own
    /// key, every object reads them, and the listener hears every insert.
    @Test func objectsOfTwoEntitiesInTurnEachTakeTheirOwnRow() throws {
        let context = try makeContext(Self.author, Self.book)
        var heard: [String] = []
        let listener = context.addChangeListener { changes in heard += changes.inserted.map(\.objectID) }
        defer { listener.cancel() }
        var made: [(author: ManagedObject, book: ManagedObject)] = []
        for i in 0..<500 {
            let author = try context.insert(into: "Author", values: ["name": .text("a\(i)")])
            let book = try context.insert(into: "Book", values: ["title": .text("b\(i)"), "pages": .integer(Int64(i))])
            made.append((author, book))
        }
        let summary = try context.save()
        #expect(summary.inserted == 1_000)
        #expect(heard.count == 1_000 && Set(heard).count == 1_000)
        #expect(made.allSatisfy { $0.author.primaryKey != nil && $0.book.primaryKey != nil })
        var titles: [Int64: Value] = [:]
        for row in try context.connection.rows("SELECT _pk, title, pages FROM Book") {
            if case .integer(let key) = row[0] { titles[key] = row[1] }
        }
        var names: [Int64: Value] = [:]
        for row in try context.connection.rows("SELECT _pk, name FROM Author") {
            if case .integer(let key) = row[0] { names[key] = row[1] }
        }
        let wrong = made.enumerated().filter { i, pair in
            titles[pair.book.primaryKey ?? -1] != .text("b\(i)") || names[pair.author.primaryKey ?? -1] != .text("a\(i)")
                || (try? pair.book.value(forKey: "pages")) != .integer(Int64(i))
        }
        #expect(wrong.isEmpty, "\(wrong.count) objects are not their rows")
        // Saved, each is the one object of its row.
        let first = try #require(made.first)
        #expect(context.registeredObject(entity: "Book", primaryKey: first.book.primaryKey ?? -1) === first.book)
    }

    /// A redefinition between two saves (an attribute added, one dropped): the second
    /// save writes the entity as it is now defined, and refuses a value for the key it
    /// no longer has as an object alone would be refused.
    @Test func aRedefinitionBetweenTwoSavesIsWrittenAsDefined() throws {
        let context = try makeContext(Self.book)
        for i in 0..<300 { _ = try context.insert(into: "Book", values: ["title": .text("first\(i)"), "pages": .integer(1)]) }
        try context.save()
        _ = try context.define(
            EntityDescription(
                name: "Book",
                attributes: [
                    AttributeDescription(name: "title", type: .string), AttributeDescription(name: "isbn", type: .string, isOptional: true)
                ]))
        let again = try (0..<300).map { i in
            try context.insert(into: "Book", values: ["title": .text("second\(i)"), "isbn": .text("isbn\(i)")])
        }
        try context.save()
        let rows = try context.connection.rows("SELECT count(*), count(isbn) FROM Book WHERE title LIKE 'second%'")
        #expect(rows == [[.integer(300), .integer(300)]])
        #expect(try again[7].value(forKey: "isbn") == .text("isbn7"))
        #expect(try context.connection.rows("SELECT count(*) FROM Book") == [[.integer(600)]])
        // A key the entity no longer has: refused now, naming it, as `setValue` refuses it.
        let refused = #expect(throws: StoreError.self) { try context.insert(into: "Book", values: ["pages": .integer(2)]) }
        let saved = try context.insert(into: "Book", values: ["title": .text("x")])
        let direct = #expect(throws: StoreError.self) { try saved.setValue(.integer(2), forKey: "pages") }
        #expect(refused.map { "\($0)" } == direct.map { "\($0)" } && refused != nil)
    }

    /// A new object given a value of the wrong type, or nil for a required attribute, is
    /// refused as `setValue` refuses it, and is not inserted.
    @Test func aNewObjectsBadValueIsRefusedAsSetValueRefusesIt() throws {
        let context = try makeContext(Self.book)
        let other = try context.insert(into: "Book", values: ["title": .text("ok")])
        for (key, value) in [("pages", Value.text("many")), ("title", Value.null)] {
            var values: [String: Value] = ["title": .text("t")]
            values[key] = value
            let atInsert = #expect(throws: StoreError.self) { try context.insert(into: "Book", values: values) }
            let atSet = #expect(throws: StoreError.self) { try other.setValue(value, forKey: key) }
            #expect(atInsert != nil && atInsert.map { "\($0)" } == atSet.map { "\($0)" }, "\(key)")
        }
        #expect(context.pendingChanges.inserted.count == 1)
    }
}

// One input of the Swift-input fuzz target, shared by the libFuzzer target (Fuzz/) and the
// corpus replay test (Tests/QuarrySwiftInputTests, through a symbolic link).
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarrySwiftInput
import QuarrySwiftReading
import QuarryModel

/// Reads the input as Swift: a sort key (`SortDescriptor(\.qty)`, `[\.a, \.b]`) or a
/// `#Predicate` with its `let`s, as `p:swift()` writes them. A refusal must be a
/// `PredicateError` of one line. A predicate that reads must format to text the format
/// grammar parses back to the same text; bound to `Item`, it is exported to Swift again,
/// and a `#Predicate` in that export must read back and select the same objects (with
/// `matches`, in memory). Returns a description of what went wrong, or nil.
enum SwiftFuzzDriver {
    final class Fixture {
        let context: ObjectContext
        let item: EntityDescription
        let items: [ManagedObject]

        /// The model and objects of `SwiftPredicateExportTests`, whose export the corpus holds.
        init() throws {
            let context = try StoreOpener.open(nil)
            self.context = context
            try context.define(EntityDescription(name: "Person", attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "age", type: .int64, isOptional: true),
            ], relationships: [
                RelationshipDescription(name: "items", destination: "Item", inverse: "owner", isToMany: true),
            ]))
            try context.define(EntityDescription(name: "Tag", attributes: [
                AttributeDescription(name: "weight", type: .int64),
            ], relationships: [
                RelationshipDescription(name: "item", destination: "Item", inverse: "tags", isToMany: false),
            ]))
            try context.define(EntityDescription(name: "Item", attributes: [
                AttributeDescription(name: "title", type: .string),
                AttributeDescription(name: "qty", type: .int64),
                AttributeDescription(name: "price", type: .double),
                AttributeDescription(name: "made", type: .date, isOptional: true),
                AttributeDescription(name: "uid", type: .uuid, isOptional: true),
                AttributeDescription(name: "flag", type: .bool),
                AttributeDescription(name: "nick", type: .string, isOptional: true),
            ], relationships: [
                RelationshipDescription(name: "owner", destination: "Person", inverse: "items", isToMany: false),
                RelationshipDescription(name: "tags", destination: "Tag", inverse: "item", isToMany: true),
            ]))
            item = try context.entity(named: "Item")
            let people = try [("Ann", Value.integer(30)), ("Bob", .null), ("Cy", .integer(45))].map { name, age in
                try context.insert(into: "Person", values: ["name": .text(name), "age": age])
            }
            let rows: [([String: Value], Int?, [Int64])] = [
                (["title": .text("alpha"), "qty": .integer(1), "price": .real(1.5), "made": .date(1_700_000_000),
                  "uid": .text("0C4B6B0E-3E36-4D4B-9E5A-8D2C4C1F0A01"), "flag": .bool(true), "nick": .text("al")], 0, [1, 3]),
                (["title": .text("beta"), "qty": .integer(5), "price": .real(2.5), "flag": .bool(false)], 1, []),
                (["title": .text("gamma\"#"), "qty": .integer(7), "price": .real(9), "made": .date(1_600_000_000.5),
                  "uid": .text("5D2A1C9B-0000-4000-8000-00000000AB12"), "flag": .bool(false), "nick": .text("gam")], nil, [4]),
                (["title": .text("delta"), "qty": .integer(3), "price": .real(0.5), "made": .date(1_650_000_000), "flag": .bool(true), "nick": .text("d")], 2, [2, 2, 5]),
                (["title": .text("ab"), "qty": .integer(2), "price": .real(3), "made": .date(1_700_000_000), "flag": .bool(false), "nick": .text("a\nb")], 0, [1]),
            ]
            var items: [ManagedObject] = []
            for (values, owner, weights) in rows {
                let o = try context.insert(into: "Item", values: values)
                if let owner { try context.setRelatedObject(people[owner], "owner", of: o) }
                for w in weights {
                    let tag = try context.insert(into: "Tag", values: ["weight": .integer(w)])
                    try context.setRelatedObject(o, "item", of: tag)
                }
                items.append(o)
            }
            try context.save()
            self.items = items
        }
    }

    static let fixture: Fixture = {
        do { return try Fixture() } catch { fatalError("the Swift fuzz fixture failed: \(error)") }
    }()

    /// Values for names a #Predicate captures without a `let` before it.
    static let captures: [String: PredicateArgument] = [
        "least": .value(.integer(2)), "name": .value(.text("Ann")), "values": .list([.integer(1), .integer(5)]),
        "yes": .value(.bool(true)), "when": .value(.date(1_650_000_000)), "ratio": .value(.real(2.5)),
    ]

    static func run(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        if SwiftSortReader.isSwift(text) {
            do { _ = try SwiftSortReader.read(text) } catch { return refusalProblem(error, text) }
        }
        guard SwiftPredicateReader.isSwift(text) else { return nil }
        let read: SwiftPredicateReader.Read
        do { read = try SwiftPredicateReader.read(text, captures: captures) } catch { return refusalProblem(error, text) }

        // What it reads is a predicate the format grammar writes and reads back.
        let formatted = read.predicate.description
        do {
            let reparsed = try PredicateParser.parse(formatted)
            if reparsed.description != formatted {
                return "\(text.debugDescription) reads as '\(formatted)', which parses back as '\(reparsed.description)'"
            }
        } catch {
            return "\(text.debugDescription) reads as '\(formatted)', which does not parse: \(error)"
        }

        let fixture = self.fixture
        guard read.typeName == nil || read.typeName == "Item",
              let bound = try? BoundPredicate(read.predicate, entity: fixture.item, context: fixture.context) else { return nil }
        let selected = fixture.items.filter { bound.matches($0) }.map(\.primaryKey)
        // Quarry's own export of it, when it has a #Predicate, reads back to the same rows.
        let code = bound.swiftCode(typeName: "Item")
        let swift = code.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0.hasPrefix("let predicate = NSPredicate") }.joined(separator: "\n")
        guard swift.contains("#Predicate<Item>") else { return nil }
        let again: SwiftPredicateReader.Read
        do {
            again = try SwiftPredicateReader.read(swift, captures: [:])
        } catch {
            return "\(text.debugDescription): Quarry's export \(swift.debugDescription) does not read back: \(error)"
        }
        do {
            let rebound = try BoundPredicate(again.predicate, entity: fixture.item, context: fixture.context)
            let reselected = fixture.items.filter { rebound.matches($0) }.map(\.primaryKey)
            if reselected != selected {
                return "\(text.debugDescription) selects \(selected), its export \(swift.debugDescription) selects \(reselected)"
            }
        } catch {
            return "\(text.debugDescription): Quarry's export \(swift.debugDescription) reads but does not bind: \(error)"
        }
        return nil
    }

    /// nil for a refusal as it should be: a `PredicateError` of one line with a column.
    private static func refusalProblem(_ error: Error, _ text: String) -> String? {
        guard let error = error as? PredicateError else { return "\(text.debugDescription): refused with \(type(of: error)): \(error)" }
        if error.message.contains("\n") { return "\(text.debugDescription): a refusal of more than one line: \(error.message)" }
        return nil
    }
}

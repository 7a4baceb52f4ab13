import Foundation
import QuarryFetch
import QuarryModel
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// `diff` of two stores made apart, their objects matched by keys the user names: a
/// to-one whose target entity is matched by `by` compares its targets by that key, not by
/// the row keys each store numbered on its own.
@Suite struct DiffByKeyTests {
    /// A Quarry file of people (inserted in `order` of their codes) and items owned by them
    /// (title → owner's code, or nil), saved and closed.
    static func store(_ name: String, people order: [String], items: [(String, String?)]) throws -> String {
        let path = try CoreDataFixtures.temporaryFolder().appendingPathComponent(name).path
        let context = try StoreOpener.open(path)
        _ = try context.define(
            EntityDescription(
                name: "Person", attributes: [AttributeDescription(name: "code", type: .string)],
                relationships: [RelationshipDescription(name: "items", destination: "Item", inverse: "owner", isToMany: true)]))
        _ = try context.define(
            EntityDescription(
                name: "Item", attributes: [AttributeDescription(name: "title", type: .string)],
                relationships: [RelationshipDescription(name: "owner", destination: "Person", inverse: "items", isToMany: false)]))
        var people: [String: ManagedObject] = [:]
        for code in order { people[code] = try context.insert(into: "Person", values: ["code": .text(code)]) }
        for (title, owner) in items {
            let item = try context.insert(into: "Item", values: ["title": .text(title)])
            if let owner { try context.setRelatedObject(people[owner], "owner", of: item) }
        }
        _ = try context.save()
        context.close()
        return path
    }

    @Test func aToOneToAnEntityMatchedByAKeyComparesItsTargetsByThatKey() throws {
        let old = try Self.store("one.quarry", people: ["P1", "P2", "P3"], items: [("i1", "P1"), ("i2", "P1"), ("i3", nil)])
        // Numbered the other way round: P1 is row 3 here, row 1 there.
        let new = try Self.store("two.quarry", people: ["P3", "P2", "P1"], items: [("i1", "P1"), ("i2", "P2"), ("i3", "P3")])
        let a = try StoreOpener.open(old, readOnly: true)
        let b = try StoreOpener.open(new, readOnly: true)
        let diff = try StoreDiff.compare(a, b, options: DiffOptions(by: ["Item": ["title"], "Person": ["code"]]))
        #expect(diff.notes.isEmpty, "\(diff.notes)")
        #expect(
            diff.changes == [
                ObjectChange(.changed, entity: "Item", key: [.text("i2")], property: "owner", old: .text("Person/P1"), new: .text("Person/P2")),
                ObjectChange(.changed, entity: "Item", key: [.text("i3")], property: "owner", old: .null, new: .text("Person/P3"))
            ], "\(StoreDiffTests.lines(diff))")
        // By row keys the same stores differ in every owner: the key is what makes them agree.
        let byRow = try StoreDiff.compare(a, b, options: DiffOptions(by: ["Item": ["title"]]))
        #expect(byRow.changes.filter { $0.property == "owner" }.count == 3, "\(StoreDiffTests.lines(byRow))")
    }
}

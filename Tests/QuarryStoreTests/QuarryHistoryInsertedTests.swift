import QuarryModel
import Testing

@testable import QuarryStore

/// Quarry's own history lists a save's inserted objects by their IDs (`entity/key`), made
/// from each object's entity and new key as the row is written: in the order the objects
/// were made, entities interleaved, a name JSON must escape read back as it is.
@Suite struct QuarryHistoryInsertedTests {
    @Test func aSavesInsertedObjectsAreListedByTheirIDs() throws {
        let odd = EntityDescription(name: "Naïve \"X\"\\", attributes: [AttributeDescription(name: "w", type: .int64)])
        let context = try makeContext(itemEntity, odd)
        var expected: [String] = []
        for i in 0..<40 {
            let object = try context.insert(
                into: i % 3 == 0 ? odd.name : "Item", values: i % 3 == 0 ? ["w": .integer(Int64(i))] : ["title": .text("t\(i)")])
            expected.append(object.entity.name)
        }
        try context.save()
        let transactions = try context.history()
        #expect(transactions.count == 1)
        var keys: [String: Int64] = [:]
        let made = expected.map { name -> String in
            keys[name, default: 0] += 1
            return "\(name)/\(keys[name] ?? 0)"
        }
        #expect(transactions.first?.inserted == made)
    }

    /// A save's updated objects and a batch change's rows are listed the same way, from
    /// each object's entity and key, a name JSON must escape read back as it is.
    @Test func updatedObjectsAreListedByTheirIDs() throws {
        let odd = EntityDescription(name: "Naïve \"X\"\\", attributes: [AttributeDescription(name: "w", type: .int64)])
        let context = try makeContext(itemEntity, odd)
        var objects: [ManagedObject] = []
        for i in 0..<6 {
            objects.append(
                try context.insert(into: i % 2 == 0 ? odd.name : "Item", values: i % 2 == 0 ? ["w": .integer(Int64(i))] : ["title": .text("t\(i)")]))
        }
        try context.save()
        for (i, object) in objects.enumerated() {
            try object.setValue(i % 2 == 0 ? .integer(-1) : .text("changed"), forKey: i % 2 == 0 ? "w" : "title")
        }
        try context.save()
        let transactions = try context.history()
        #expect(transactions.count == 2)
        let updated = Set(transactions.last?.updated ?? [])
        #expect(updated == Set(objects.map { "\($0.entity.name)/\($0.primaryKey ?? 0)" }))
        #expect(transactions.last?.updated.count == 6)
    }
}

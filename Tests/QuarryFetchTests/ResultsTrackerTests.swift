import Foundation
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Observed results kept current after random changes: applying each change to a copy
/// of the old contents, in the contract's order, must give exactly what a new fetch
/// gives; requests whose predicate and sort read only the entity's own attributes must
/// be updated in memory, without a query. `QUARRY_OBSERVER_STEPS` sets the steps per
/// request (scripts/stress runs many more).
@Suite struct ResultsTrackerTests {
    struct Shape: CustomTestStringConvertible, Sendable {
        let predicate: String?
        let sort: [String]
        var caseInsensitive = false
        var section: String? = nil
        var limit: Int? = nil
        var offset = 0
        let inMemory: Bool
        var testDescription: String {
            "\(predicate ?? "all") sort \(sort) section \(section ?? "-") window \(limit.map(String.init) ?? "-")/\(offset)"
        }
    }

    static let shapes: [Shape] = [
        Shape(predicate: "n > 2", sort: ["n", "-name"], inMemory: true),
        Shape(predicate: "tag != 'b' OR x == nil", sort: ["-x", "name"], inMemory: true),
        Shape(predicate: "name BEGINSWITH[cd] 't1'", sort: ["name"], caseInsensitive: true, inMemory: true),
        Shape(predicate: nil, sort: ["-n"], limit: 7, offset: 2, inMemory: false),
        Shape(predicate: nil, sort: ["tag", "n"], section: "tag", inMemory: true),
        Shape(predicate: "x >= 1 OR n < 3", sort: ["-n", "name"], section: "n", inMemory: true),
        Shape(predicate: "tag IN {'a', 'c'} OR tag == nil", sort: ["x"], section: "tag", inMemory: true),
        Shape(predicate: nil, sort: ["tag", "-n"], section: "tag", limit: 9, offset: 3, inMemory: false)
    ]

    static var steps: Int { ProcessInfo.processInfo.environment["QUARRY_OBSERVER_STEPS"].flatMap(Int.init) ?? 400 }

    @Test(arguments: shapes)
    func changesReplayToTheNewContents(_ shape: Shape) throws {
        var random = SplitMix64(seed: 7 + UInt64(shape.sort.count * 31 + (shape.section?.count ?? 0)))
        let tags: [String?] = [nil, "a", "b", "c"]
        var rows: [(String, Int64, Double?, String?)] = []
        for i in 0..<25 {
            let x: Double? = i % 5 == 0 ? nil : Double(i % 4)
            rows.append(("t\(i)", Int64(i % 7), x, tags[i % 4]))
        }
        let context = try store(rows)
        var request = try request(shape.predicate, sort: shape.sort, limit: shape.limit, offset: shape.offset)
        if shape.caseInsensitive { request.sortDescriptors[0].comparison = .caseInsensitive }
        request.sectionKey = shape.section
        let tracker = try ResultsTracker(try request.execute(in: context))
        var copy = tracker.snapshot
        var heard = 0
        var inMemory = 0
        let token = context.addChangeListener { changes in
            let change = try! tracker.apply(changes)
            heard += 1
            if tracker.lastChangeWasInMemory { inMemory += 1 }
            copy = replay(change, on: copy)
        }
        defer { token.cancel() }
        for step in 1...Self.steps {
            let before = heard
            var batch = false
            let objects = try FetchRequest(entityName: "Item").execute(in: context).objects()
            for _ in 0..<random.int(1...4) {
                let choice = random.int(0...99)
                if choice < 30 || objects.isEmpty {
                    _ = try context.insert(into: "Item", values: randomValues(&random))
                } else if choice < 45 {
                    let o = objects[random.int(0...objects.count - 1)]
                    if !o.isDeleted { try context.delete(o) }
                } else if choice < 92 {
                    let o = objects[random.int(0...objects.count - 1)]
                    guard !o.isDeleted else { continue }
                    let values = randomValues(&random)
                    for key in ["name", "n", "x", "tag"] where random.int(0...2) == 0 { try o.setValue(values[key]!, forKey: key) }
                } else if choice < 96, !context.hasPendingChanges(of: "Item") {
                    batch = true
                    _ = try BatchUpdateRequest(
                        "Item", where: try PredicateParser.parse("n == \(random.int(0...6))", arguments: PredicateArguments([])),
                        set: ["x": random.int(0...1) == 0 ? Value.null : Value.real(Double(random.int(0...3)))]
                    ).execute(in: context)
                } else if !context.hasPendingChanges(of: "Item") {
                    batch = true
                    _ = try BatchDeleteRequest(
                        "Item", where: try PredicateParser.parse("name == 't\(random.int(0...40))'", arguments: PredicateArguments([]))
                    ).execute(in: context)
                }
            }
            if context.hasPendingChanges(of: "Item") { _ = try context.save() }
            let fresh = try request.execute(in: context).snapshot()
            #expect(copy == fresh, "step \(step): the changes did not lead to the new contents")
            #expect(tracker.snapshot == fresh, "step \(step): the tracker's contents differ from a new fetch")
            if heard > before, !batch { #expect(tracker.lastChangeWasInMemory == shape.inMemory, "step \(step)") }
            if copy != fresh { return }
        }
        #expect(heard > Self.steps / 2)
        if shape.inMemory { #expect(inMemory > Self.steps / 2) }
    }

    @Test func aKeyPathThroughARelationshipIsReadAgain() throws {
        let context = try StoreOpener.open(nil)
        _ = try context.define(EntityDescription(name: "Person", attributes: [AttributeDescription(name: "name", type: .string)]))
        var item = itemEntity
        item.relationships = [RelationshipDescription(name: "owner", destination: "Person", isToMany: false)]
        _ = try context.define(item)
        let ann = try context.insert(into: "Person", values: ["name": .text("ann")])
        let o = try context.insert(into: "Item", values: ["name": .text("a"), "n": .integer(1)])
        try context.setRelatedObject(ann, "owner", of: o)
        _ = try context.save()
        let tracker = try ResultsTracker(try request("owner.name == 'bob'").execute(in: context))
        var change: ResultsChange?
        let token = context.addChangeListener { change = try! tracker.apply($0) }
        defer { token.cancel() }
        try ann.setValue(.text("bob"), forKey: "name")
        _ = try context.save()
        #expect(tracker.lastChangeWasInMemory == false)
        #expect(change?.inserted.map(\.key) == [o.primaryKey!])
    }
}

/// The contract's order: remove deleted and moved-from rows (old places, highest first),
/// deleted sections, insert new sections empty, then place inserted and moved-to rows
/// (new places, lowest first).
func replay(_ change: ResultsChange, on old: ResultsSnapshot) -> ResultsSnapshot {
    var sections = old.sections
    var seen = Set<Int64>()
    for key in change.deleted.map(\.key) + change.inserted.map(\.key) + change.moved.map(\.key) + change.updated.map(\.key) {
        #expect(seen.insert(key).inserted, "\(key) appears twice in one change")
    }
    let removals = (change.deleted.map(\.at) + change.moved.map(\.from)).sorted { ($0.section, $0.row) > ($1.section, $1.row) }
    for p in removals { sections[p.section].keys.remove(at: p.row) }
    for s in change.deletedSections.sorted(by: { $0.index > $1.index }) {
        #expect(sections[s.index].keys.isEmpty, "a deleted section still has rows")
        sections.remove(at: s.index)
    }
    for s in change.insertedSections.sorted(by: { $0.index < $1.index }) { sections.insert(.init(id: s.id, keys: []), at: s.index) }
    let places = (change.inserted.map { ($0.at, $0.key) } + change.moved.map { ($0.to, $0.key) }).sorted {
        ($0.0.section, $0.0.row) < ($1.0.section, $1.0.row)
    }
    for (p, key) in places { sections[p.section].keys.insert(key, at: p.row) }
    return ResultsSnapshot(sections: sections)
}

private func randomValues(_ random: inout SplitMix64) -> [String: Value] {
    let names = ["t1", "T1", "t10", "tä", "Ta", "t2", "t3", "t11", "s", "T20"]
    return [
        "name": .text(names[random.int(0...names.count - 1)] + (random.int(0...3) == 0 ? "x" : "")),
        "n": .integer(Int64(random.int(0...6))),
        "x": random.int(0...4) == 0 ? .null : .real(Double(random.int(0...6)) / 2),
        "tag": [Value.null, .text("a"), .text("b"), .text("c")][random.int(0...3)]
    ]
}

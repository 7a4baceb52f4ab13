import Foundation
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Results with unsaved changes merge them into the saved rows' keys; whatever they show
/// must be what saving and fetching again shows: the same objects in the same order
/// (ties included), the same count and sections, for every window. Random changes, asked
/// between changes (the merge brought up to date change by change) and by fresh results
/// (merged at once), then compared with the saved store.
@Suite struct PendingMergeTests {
    struct Case {
        let predicate: String?
        let sort: [QuarryFetch.SortDescriptor]
        var limit: Int?
        var offset = 0
        var section: String?

        func request() throws -> FetchRequest {
            var r = FetchRequest(
                entityName: "Item", predicate: try predicate.map { try PredicateParser.parse($0) },
                sortDescriptors: sort, limit: limit, offset: offset, batchSize: 7)
            r.sectionKey = section
            return r
        }
    }

    static let cases: [Case] = [
        Case(predicate: nil, sort: []),
        Case(predicate: "n >= 2", sort: [QuarryFetch.SortDescriptor(key: "n")]),
        Case(predicate: nil, sort: [QuarryFetch.SortDescriptor(key: "n", ascending: false)]),
        Case(
            predicate: nil,
            sort: [QuarryFetch.SortDescriptor(key: "tag", comparison: .caseInsensitive), QuarryFetch.SortDescriptor(key: "x", ascending: false)]),
        Case(predicate: "tag == 'a' OR n < 1", sort: [QuarryFetch.SortDescriptor(key: "name")], limit: 5, offset: 3),
        Case(predicate: nil, sort: [QuarryFetch.SortDescriptor(key: "n")], section: "tag"),
        Case(predicate: "x > 1", sort: [QuarryFetch.SortDescriptor(key: "name", ascending: false)], limit: 9, section: "n"),
        Case(predicate: "name BEGINSWITH[c] 'a'", sort: [], limit: 7, offset: 2),
        Case(predicate: nil, sort: [], offset: 4, section: "tag"),
        Case(predicate: "tag == nil", sort: [QuarryFetch.SortDescriptor(key: "x")])
    ]

    /// What results show: objects by identity (held, so a row is one object throughout),
    /// count, and sections.
    struct Answer: Equatable, CustomStringConvertible {
        let objects: [ManagedObject]
        let count: Int
        let sections: [String]

        static func == (a: Answer, b: Answer) -> Bool {
            a.count == b.count && a.sections == b.sections && a.objects.count == b.objects.count && zip(a.objects, b.objects).allSatisfy { $0 === $1 }
        }

        var description: String { "\(count) \(sections) \(objects.map(\.objectID))" }
    }

    static func answer(_ results: FetchResults) throws -> Answer {
        let objects = try results.objects()
        let sections = try results.sections().map { "\($0.name)@\($0.start)+\($0.count)" }
        return Answer(objects: objects, count: try results.count(), sections: sections)
    }

    static let names = ["ab", "Ab", "AB", "b", "B", "ba", "c", "abc"]
    static let tags: [Value] = [.null, .text("a"), .text("A"), .text("b")]

    static func randomValues(_ rng: inout SplitMix64) -> [String: Value] {
        [
            "name": .text(rng.pick(names)), "n": .integer(Int64(rng.int(0...4))), "x": rng.chance(0.2) ? .null : .real(Double(rng.int(0...3)) / 2),
            "tag": rng.pick(tags)
        ]
    }

    static func seededStore(_ rng: inout SplitMix64, rows: Int) throws -> ObjectContext {
        let context = try StoreOpener.open(nil)
        try context.define(itemEntity)
        for _ in 0..<rows { _ = try context.insert(into: "Item", values: randomValues(&rng)) }
        try context.save()
        return context
    }

    /// One random change: an attribute set (perhaps back to its saved value), a delete,
    /// or an insert.
    static func change(_ context: ObjectContext, _ live: inout [ManagedObject], _ rng: inout SplitMix64) throws {
        let roll = rng.int(0...9)
        if roll == 0 || live.isEmpty {
            live.append(try context.insert(into: "Item", values: randomValues(&rng)))
        } else if roll == 1 {
            let object = live.remove(at: rng.int(0...(live.count - 1)))
            try context.delete(object)
        } else {
            let object = rng.pick(live)
            let key = rng.pick(["name", "n", "x", "tag"])
            try object.setValue(randomValues(&rng)[key]!, forKey: key)
        }
    }

    @Test(arguments: 0..<16) func randomChangesAgreeWithSaveThenFetch(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 17)
        let context = try Self.seededStore(&rng, rows: rng.int(0...40))
        var everything = FetchRequest(entityName: "Item")
        everything.includesPendingChanges = false
        var live = try everything.execute(in: context).objects()
        let results = try Self.cases.map { try $0.request().execute(in: context) }
        for result in results { _ = try Self.answer(result) }
        var answers: [Answer] = []
        for step in 0..<rng.int(1...30) {
            try Self.change(context, &live, &rng)
            // Asked now and then, so the merge is brought up to date over several changes too.
            if step % 3 == 0 || rng.chance(0.3) {
                for (i, result) in results.enumerated() {
                    let fresh = try Self.cases[i].request().execute(in: context)
                    #expect(try Self.answer(result) == Self.answer(fresh), "seed \(seed) step \(step) case \(i)")
                }
            }
        }
        answers = try results.map(Self.answer)
        let fresh = try Self.cases.map { try Self.answer($0.request().execute(in: context)) }
        #expect(answers == fresh, "seed \(seed): brought up to date vs merged at once")
        for (i, c) in Self.cases.enumerated() {
            #expect(try c.request().objectIDs(in: context) == answers[i].objects.map(\.objectID), "seed \(seed) case \(i): IDs")
        }
        try context.save()
        for (i, c) in Self.cases.enumerated() {
            let saved = try Self.answer(c.request().execute(in: context))
            #expect(answers[i] == saved, "seed \(seed) case \(i): with the changes pending vs saved")
            #expect(try Self.answer(results[i]) == saved, "seed \(seed) case \(i): the live results after save")
        }
        _ = live
    }

    /// A loop over results that changes, deletes and inserts as it walks them: at every
    /// step the results are what merging afresh gives, and at the end what saving gives.
    @Test(arguments: [
        [QuarryFetch.SortDescriptor](), [QuarryFetch.SortDescriptor(key: "n")],
        [QuarryFetch.SortDescriptor(key: "name", ascending: false, comparison: .caseInsensitive)]
    ])
    func aLoopChangingWhatItWalksAgrees(sort: [QuarryFetch.SortDescriptor]) throws {
        var rng = SplitMix64(seed: 41)
        let context = try Self.seededStore(&rng, rows: 150)
        let request = try Case(predicate: "n != 3", sort: sort).request()
        let results = try request.execute(in: context)
        var index = 0
        var kept: [ManagedObject] = []
        while let object = try results.object(at: index), index < 400 {
            kept.append(object)
            switch index % 11 {
            case 4: try context.delete(object)
            case 7: kept.append(try context.insert(into: "Item", values: Self.randomValues(&rng)))
            default: try object.setValue(.integer(Int64(rng.int(0...4))), forKey: "n")
            }
            if index % 25 == 0 {
                let a = try Self.answer(results)
                let b = try Self.answer(request.execute(in: context))
                #expect(a == b, "step \(index)")
            }
            index += 1
        }
        #expect(index > 80)
        let pending = try Self.answer(results)
        try context.save()
        #expect(pending == (try Self.answer(request.execute(in: context))))
        _ = kept
    }

    /// A change that does not move an object in the sort keeps it in its saved row's
    /// place, and a walk reads the results' objects without loading the matching ones all.
    @Test func aChangeOutsideTheSortKeepsTheRowsPlace() throws {
        let context = try numbered(50)
        let results = try request("n >= 10", sort: ["-x"]).execute(in: context)
        let held = try results.objects()
        let before = held.map(ObjectIdentifier.init)
        let object = try #require(try results.object(at: 7))
        try object.setValue(.text("renamed"), forKey: "name")
        #expect(try results.objects().map(ObjectIdentifier.init) == before)
        try object.setValue(.real(-1), forKey: "x")
        let moved = try results.objects()
        #expect(moved.last === object)
        #expect(moved.count == 40)
        try object.setValue(.integer(0), forKey: "n")
        #expect(try results.count() == 39)
    }

    /// Unsaved objects tie as the keys they will get: after equal saved rows ascending,
    /// before them descending, in the order inserted.
    @Test func unsavedObjectsTieAsTheirKeysWill() throws {
        let context = try numbered(6)
        let first = try context.insert(into: "Item", values: ["name": .text("new1"), "n": .integer(2)])
        let second = try context.insert(into: "Item", values: ["name": .text("new2"), "n": .integer(2)])
        let up = try request(sort: ["n"]).execute(in: context).objects()
        let down = try request(sort: ["-n"]).execute(in: context).objects()
        #expect(up[2...4].map { try? $0.value(forKey: "name") } == [.text("item2"), .text("new1"), .text("new2")])
        #expect(down[3...5].map { try? $0.value(forKey: "name") } == [.text("new2"), .text("new1"), .text("item2")])
        try context.save()
        #expect(zip(try request(sort: ["n"]).execute(in: context).objects(), up).allSatisfy { $0 === $1 })
        #expect(zip(try request(sort: ["-n"]).execute(in: context).objects(), down).allSatisfy { $0 === $1 })
        _ = (first, second)
    }

    /// Sorts and predicates through a to-one relationship (`owner.name`): a changed owner
    /// of one item moves that item; a renamed person moves every item it owns.
    @Test func toOneKeyPathsAgreeWithSaveThenFetch() throws {
        let context = try RelationshipJoinTests.flightStore()
        func items(_ predicate: String?, _ sort: [String]) throws -> FetchRequest {
            FetchRequest(
                entityName: "Item", predicate: try predicate.map { try PredicateParser.parse($0) },
                sortDescriptors: sort.map(QuarryFetch.SortDescriptor.init(parsing:)), batchSize: 2)
        }
        let requests = try [items(nil, ["owner.name", "-title"]), items("owner.name != 'bob'", ["-owner.name"]), items(nil, ["title"])]
        let results = try requests.map { try $0.execute(in: context) }
        for result in results { _ = try Self.answer(result) }
        var all = FetchRequest(entityName: "Item", sortDescriptors: [QuarryFetch.SortDescriptor(key: "title")])
        all.includesPendingChanges = false
        let list = try all.execute(in: context).objects()
        var people = FetchRequest(entityName: "Person", sortDescriptors: [QuarryFetch.SortDescriptor(key: "name")])
        people.includesPendingChanges = false
        let persons = try people.execute(in: context).objects()
        // Only items change: each is placed by its new owner's name.
        try context.setRelatedObject(persons[2], "owner", of: list[0])
        try context.setRelatedObject(nil, "owner", of: list[3])
        let added = try context.insert(into: "Item", values: ["title": .text("b0")])
        try context.setRelatedObject(persons[1], "owner", of: added)
        var answers = try results.map(Self.answer)
        for (i, request) in requests.enumerated() { #expect(answers[i] == (try Self.answer(request.execute(in: context)))) }
        // A person renamed: every row may move.
        try persons[0].setValue(.text("zed"), forKey: "name")
        answers = try results.map(Self.answer)
        for (i, request) in requests.enumerated() { #expect(answers[i] == (try Self.answer(request.execute(in: context)))) }
        try context.save()
        for (i, request) in requests.enumerated() { #expect(answers[i] == (try Self.answer(request.execute(in: context))), "request \(i)") }
        _ = (list, persons, added)
    }
}

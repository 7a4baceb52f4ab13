import GRDB
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// Relationships of fetched objects load a batch at a time: on first use for the whole
/// batch, or ahead with `prefetch`; never one query per object.
@Suite struct RelationshipLoadingTests {
    /// 60 people, each owning 0-3 items, with tags (many-to-many); saved.
    private func store() throws -> ObjectContext {
        let context = try StoreOpener.open(nil)
        _ = try context.define(
            EntityDescription(
                name: "Tag", attributes: [AttributeDescription(name: "label", type: .string)],
                relationships: [RelationshipDescription(name: "items", destination: "Item", inverse: "tags", isToMany: true)]))
        _ = try context.define(
            EntityDescription(
                name: "Person", attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [RelationshipDescription(name: "items", destination: "Item", inverse: "owner", isToMany: true)]))
        _ = try context.define(
            EntityDescription(
                name: "Item", attributes: [AttributeDescription(name: "title", type: .string)],
                relationships: [
                    RelationshipDescription(name: "owner", destination: "Person", inverse: "items", isToMany: false),
                    RelationshipDescription(name: "tags", destination: "Tag", inverse: "items", isToMany: true)
                ]))
        let tags = try (0..<4).map { try context.insert(into: "Tag", values: ["label": .text("tag\($0)")]) }
        for p in 0..<60 {
            let person = try context.insert(into: "Person", values: ["name": .text("p\(p)")])
            for i in 0..<(p % 4) {
                let item = try context.insert(into: "Item", values: ["title": .text("p\(p)-\(i)")])
                try context.setRelatedObject(person, "owner", of: item)
                try context.addRelated(tags[(p + i) % 4], to: "tags", of: item)
            }
        }
        _ = try context.save()
        return context
    }

    /// Counts the SELECT statements `body` runs.
    private func selects(_ context: ObjectContext, _ body: () throws -> Void) throws -> Int {
        var count = 0
        try context.connection.database.writeWithoutTransaction { db in
            db.trace { event in if case .statement(let s) = event, s.sql.hasPrefix("SELECT") { count += 1 } }
        }
        defer { try? context.connection.database.writeWithoutTransaction { db in db.trace(options: [], nil) } }
        try body()
        return count
    }

    /// Every person's item titles and every item's owner and tags, read one by one.
    private func walk(_ context: ObjectContext, _ request: FetchRequest) throws -> [String] {
        var lines: [String] = []
        let results = try request.execute(in: context)
        for person in try results.objects() {
            let items = try context.relatedObjects("items", of: person)
            let titles = try items.map { item -> String in
                let owner = try context.relatedObject("owner", of: item)
                let tags = try context.relatedObjects("tags", of: item).map { try $0.value(forKey: "label").displayString }
                return "\(try item.value(forKey: "title").displayString)@\(owner.map { "\($0.objectID)" } ?? "-")[\(tags.joined(separator: ","))]"
            }
            lines.append("\(try person.value(forKey: "name").displayString): \(titles.joined(separator: " "))")
        }
        return lines
    }

    @Test func toManyLoadsOnFirstUseForTheWholeBatch() throws {
        let context = try store()
        var request = FetchRequest(entityName: "Person", sortDescriptors: [SortDescriptor(key: "name")], batchSize: 20)
        var lines: [String] = []
        let batched = try selects(context) { lines = try walk(context, request) }
        // Three batches of people: per batch, one for the people, one for their items and
        // one for those items' tags (owners are registered already): about 9, not 60 + 90.
        #expect(batched <= 12, "\(batched) SELECTs")
        request.batchSize = 1
        let fresh = try store()
        var single: [String] = []
        let unbatched = try selects(fresh) { single = try walk(fresh, request) }
        #expect(unbatched > 60, "one person per batch should need a query per person, ran \(unbatched)")
        #expect(lines == single)
        #expect(lines.contains("p3: p3-0@Person/4[tag3] p3-1@Person/4[tag0] p3-2@Person/4[tag1]"), "\(lines.prefix(5))")
    }

    @Test func prefetchLoadsAheadInOneQueryEach() throws {
        let context = try store()
        var request = FetchRequest(entityName: "Item", sortDescriptors: [SortDescriptor(key: "title")], batchSize: 500)
        request.prefetch = ["owner", "tags"]
        var names: [String] = []
        let count = try selects(context) {
            let results = try request.execute(in: context)
            for item in try results.objects() {
                let owner = try context.relatedObject("owner", of: item)
                names.append("\(try owner?.value(forKey: "name").displayString ?? "-"):\(try context.relatedObjects("tags", of: item).count)")
            }
        }
        // Keys, the batch, owners, tags.
        #expect(count <= 4, "\(count) SELECTs")
        #expect(names.count == 90 && names.allSatisfy { $0.hasSuffix(":1") })
        let expected = try context.connection.read { db in
            try String.fetchAll(db, sql: "SELECT p.name || ':1' FROM Item i JOIN Person p ON p._pk = i.owner ORDER BY i.title, i._pk")
        }
        #expect(names == expected)
        request.prefetch = ["ownr"]
        #expect(throws: (any Error).self) { _ = try request.execute(in: context) }
    }

    @Test func unsavedChangesShowOverLoadedMembers() throws {
        let context = try store()
        let results = try FetchRequest(entityName: "Person", sortDescriptors: [SortDescriptor(key: "name")]).execute(in: context)
        let people = try results.objects()
        let p1 = people.first { (try? $0.value(forKey: "name")) == .text("p1") }!
        let p2 = people.first { (try? $0.value(forKey: "name")) == .text("p2") }!
        let moving = try context.relatedObjects("items", of: p2)[0]
        #expect(try context.relatedObjects("items", of: p1).count == 1)
        try context.setRelatedObject(p1, "owner", of: moving)
        #expect(try context.relatedObjects("items", of: p1).count == 2)
        #expect(try context.relatedObjects("items", of: p2).count == 1)
        _ = try context.save()
        #expect(try context.relatedObjects("items", of: p1).count == 2)
        context.rollback()
        try context.connection.database.write { db in try db.execute(sql: "UPDATE Item SET owner = NULL") }
        _ = try context.refreshFromStore()
        #expect(try context.relatedObjects("items", of: p1).isEmpty)
    }

    /// Links that lead nowhere (a key no row has, a value no row matches) are found so by
    /// the batch's one read ahead: following each of them again asks for that row alone,
    /// never reading the whole batch's targets again (which made a loop over a batch with
    /// many dangling links quadratic: 20,000 flights took 1.1 s, 55 µs each).
    @Test func linksLeadingNowhereAreNotReadAheadAgainForEachObject() throws {
        let context = try StoreOpener.open(nil)
        _ = try context.define(EntityDescription(name: "Port", attributes: [AttributeDescription(name: "code", type: .string)]))
        _ = try context.define(
            EntityDescription(
                name: "Flight", attributes: [AttributeDescription(name: "dest", type: .string)],
                relationships: [RelationshipDescription(name: "owner", destination: "Person", inverse: "flights", isToMany: false)]))
        _ = try context.define(
            EntityDescription(
                name: "Person", attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [RelationshipDescription(name: "flights", destination: "Flight", inverse: "owner", isToMany: true)]))
        for code in ["JFK", "LAX"] { _ = try context.insert(into: "Port", values: ["code": .text(code)]) }
        let person = try context.insert(into: "Person", values: ["name": .text("ann")])
        for i in 0..<300 {
            // One flight in ten leads somewhere; the rest name no port and no person.
            let flight = try context.insert(into: "Flight", values: ["dest": .text(i % 10 == 0 ? "JFK" : "X\(i)")])
            if i % 10 == 0 { try context.setRelatedObject(person, "owner", of: flight) }
        }
        _ = try context.save()
        try context.connection.database.write { db in try db.execute(sql: "UPDATE Flight SET owner = 1000 + _pk WHERE owner IS NULL") }
        try context.relate("Flight", "dest", "Port", "code", name: "destination")
        _ = try context.refreshFromStore()
        let request = FetchRequest(entityName: "Flight", sortDescriptors: [SortDescriptor(key: "dest")], batchSize: 300)
        var found = (ports: 0, owners: 0, flights: 0)
        let count = try selects(context) {
            for flight in try request.execute(in: context).objects() {
                found.flights += 1
                if try context.relatedObject("destination", of: flight) != nil { found.ports += 1 }
                if try context.relatedObject("owner", of: flight) != nil { found.owners += 1 }
            }
        }
        #expect(found == (30, 30, 300), "\(found)")
        // Keys, the batch, one read ahead per link, then each of the 270 owners' missing
        // persons alone (an object's own row is asked for when its link is followed): not
        // one read of the whole batch per dangling link (270 + 270 of them).
        #expect(count <= 4 + 270, "\(count) SELECTs")
    }
}

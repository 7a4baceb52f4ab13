import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// Key paths through to-one relationships run as LEFT JOINs (predicates, sorts, sections,
/// dictionary groups): over a small store with nil links, dangling keys and a duplicated
/// matched value, SQLite's answer must equal the in-memory evaluator's and the one the
/// old form (a scalar subquery per row, still used where no join can go) gives.
@Suite struct RelationshipJoinTests {
    /// Ports, planes, flights related by value (`relate`), and people owning items by key.
    private func store() throws -> ObjectContext { try Self.flightStore() }

    static func flightStore() throws -> ObjectContext {
        let context = try StoreOpener.open(nil)
        _ = try context.define(
            EntityDescription(
                name: "Port",
                attributes: [
                    AttributeDescription(name: "code", type: .string, isOptional: true),
                    AttributeDescription(name: "tzone", type: .string, isOptional: true),
                    AttributeDescription(name: "name", type: .string, isOptional: true)
                ]))
        _ = try context.define(
            EntityDescription(
                name: "Plane",
                attributes: [
                    AttributeDescription(name: "tail", type: .string, isOptional: true),
                    AttributeDescription(name: "maker", type: .string, isOptional: true)
                ]))
        _ = try context.define(
            EntityDescription(
                name: "Flight",
                attributes: [
                    AttributeDescription(name: "dest", type: .string, isOptional: true),
                    AttributeDescription(name: "tail", type: .string, isOptional: true),
                    AttributeDescription(name: "n", type: .int64, isOptional: true)
                ]))
        _ = try context.define(
            EntityDescription(
                name: "Person", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)],
                relationships: [RelationshipDescription(name: "items", destination: "Item", inverse: "owner", isToMany: true)]))
        _ = try context.define(
            EntityDescription(
                name: "Item", attributes: [AttributeDescription(name: "title", type: .string, isOptional: true)],
                relationships: [RelationshipDescription(name: "owner", destination: "Person", inverse: "items", isToMany: false)]))
        let ports: [(Value, Value, Value)] = [
            (.text("JFK"), .text("America/New_York"), .text("Kennedy")), (.text("LAX"), .text("America/Los_Angeles"), .text("Los Angeles")),
            (.text("ORD"), .null, .text("O'Hare")), (.text("EZE"), .text("Europe/Paris"), .text("Èze")), (.null, .text("Nowhere"), .null)
        ]
        for (code, tzone, name) in ports { _ = try context.insert(into: "Port", values: ["code": code, "tzone": tzone, "name": name]) }
        let planes: [(Value, Value)] = [(.text("N1"), .text("BOEING")), (.text("N2"), .text("AIRBUS")), (.text("N3"), .null)]
        for (tail, maker) in planes { _ = try context.insert(into: "Plane", values: ["tail": tail, "maker": maker]) }
        let dests: [Value] = [.text("JFK"), .text("LAX"), .text("ORD"), .text("XXX"), .null, .text("EZE")]
        let tails: [Value] = [.text("N1"), .text("N2"), .text("N3"), .text("N9"), .null]
        var n: Int64 = 0
        for dest in dests {
            for tail in tails {
                _ = try context.insert(into: "Flight", values: ["dest": dest, "tail": tail, "n": n % 7 == 3 ? .null : .integer(n)])
                n += 1
            }
        }
        let people = try ["ann", "bob", "cy"].map { try context.insert(into: "Person", values: ["name": .text($0)]) }
        for (i, title) in ["a1", "a2", "b1", "none", "c1"].enumerated() {
            let item = try context.insert(into: "Item", values: ["title": .text(title)])
            if title != "none" { try context.setRelatedObject(people[i < 2 ? 0 : i == 2 ? 1 : 2], "owner", of: item) }
        }
        _ = try context.save()
        try context.relate("Flight", "dest", "Port", "code", name: "destination")
        try context.relate("Flight", "tail", "Plane", "tail", name: "plane")
        // A second "JFK" and a second "N1", written after relate() (which refuses a column
        // that repeats a value when asked): the first by key stays the one linked.
        _ = try context.insert(into: "Port", values: ["code": .text("JFK"), "tzone": .text("Europe/Duplicate"), "name": .text("Other")])
        _ = try context.insert(into: "Plane", values: ["tail": .text("N1"), "maker": .text("DUPLICATE")])
        _ = try context.save()
        return context
    }

    private func all(_ context: ObjectContext, _ entity: String) throws -> [ManagedObject] {
        try FetchRequest(entityName: entity).execute(in: context).objects()
    }

    private func keys(_ context: ObjectContext, _ sql: String, _ arguments: [Value] = []) throws -> [Int64] {
        try context.connection.read { db in try Int64.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue))) }
    }

    static let flightPredicates: [(String, [Value])] = [
        ("destination.tzone == %@", [.text("America/New_York")]),
        ("destination.tzone == nil", []),
        ("destination.tzone != %@", [.text("America/New_York")]),
        ("NOT (destination.tzone == %@)", [.text("America/New_York")]),
        ("NOT (destination.tzone == %@ OR plane.maker == %@)", [.text("America/New_York"), .text("BOEING")]),
        ("destination == nil", []),
        ("destination != nil", []),
        ("plane.maker == %@", [.text("BOEING")]),
        ("plane.maker == %@ AND destination.tzone == %@", [.text("BOEING"), .text("America/New_York")]),
        ("plane.maker == %@ OR destination.tzone == nil", [.text("BOEING")]),
        ("plane.maker IN {'BOEING', 'AIRBUS'}", []),
        ("NOT (plane.maker IN {'BOEING'})", []),
        ("destination.tzone BEGINSWITH %@", [.text("America")]),
        ("destination.tzone CONTAINS[c] %@", [.text("NEW")]),
        ("destination.name ==[cd] %@", [.text("eze")]),
        ("destination.tzone == plane.maker", []),
        ("destination.tzone < %@", [.text("B")]),
        ("n > 3 AND destination.tzone != nil", []),
        ("ANY destination.flight_set.n > %@", [.integer(25)]),
        ("destination.flight_set.@count > %@", [.integer(4)]),
        ("plane.flight_set.@max.n >= %@", [.integer(20)]),
        ("ALL destination.flight_set.n > %@", [.integer(0)]),
        ("NONE plane.flight_set.dest == %@", [.text("LAX")])
    ]

    static let otherPredicates: [(String, String, [Value])] = [
        ("Item", "owner.name == %@", [.text("ann")]),
        ("Item", "owner == nil", []),
        ("Item", "owner.name != %@", [.text("ann")]),
        ("Person", "ANY items.title BEGINSWITH %@", [.text("a")]),
        ("Person", "items.@count > 1", []),
        ("Port", "ANY flight_set.plane.maker == %@", [.text("BOEING")]),
        ("Port", "flight_set.@count == 0", [])
    ]

    @Test func predicatesAgreeWithMemoryAndWithTheSubqueryForm() throws {
        let context = try store()
        var cases = Self.flightPredicates.map { ("Flight", $0.0, $0.1) }
        cases += Self.otherPredicates
        var nonTrivial = 0
        for (entityName, format, arguments) in cases {
            let entity = try context.entity(named: entityName)
            let predicate = try PredicateParser.parse(format, arguments: PredicateArguments(arguments))
            let bound = try BoundPredicate(predicate, entity: entity, context: context)
            let byJoin = try FetchRequest(entityName: entityName, predicate: predicate).objectIDs(in: context)
            let old = bound.sql(dialect: SQLiteDialect())
            let bySubquery = try keys(context, "SELECT _pk FROM \(entityName) WHERE \(old.sql) ORDER BY _pk", old.arguments)
                .map { "\(entityName)/\($0)" }
            let inMemory = try all(context, entityName).filter { bound.matches($0) }.map(\.objectID)
            #expect(byJoin == inMemory, "\(entityName) \(format): SQL \(byJoin) memory \(inMemory)")
            #expect(byJoin == bySubquery, "\(entityName) \(format): join \(byJoin) subquery \(bySubquery)")
            #expect(try FetchRequest(entityName: entityName, predicate: predicate).count(in: context) == inMemory.count, "\(format)")
            let total = try all(context, entityName).count
            if !inMemory.isEmpty && inMemory.count < total { nonTrivial += 1 }
        }
        // The cases must discriminate, or agreement proves little.
        #expect(nonTrivial >= cases.count - 2)
    }

    /// Answers worked out by hand from the data above: the first "JFK" (New York) is the
    /// one linked, not the later duplicate; dangling and nil keys reach nil.
    @Test func nilAndDuplicateLinksKeepTheirMeaning() throws {
        let context = try store()
        func count(_ format: String, _ arguments: [Value] = []) throws -> Int {
            try FetchRequest(entityName: "Flight", predicate: try PredicateParser.parse(format, arguments: PredicateArguments(arguments))).count(
                in: context)
        }
        #expect(try count("destination.tzone == %@", [.text("America/New_York")]) == 5)
        #expect(try count("destination.tzone == %@", [.text("Europe/Duplicate")]) == 0)
        // ORD's tzone is nil; XXX dangles; nil dest: 3 of 6 destinations, 5 flights each.
        #expect(try count("destination.tzone == nil") == 15)
        #expect(try count("destination.tzone != %@", [.text("America/New_York")]) == 25)
        #expect(try count("destination == nil") == 10)
        #expect(try count("plane.maker == %@", [.text("BOEING")]) == 6)
        #expect(try count("plane.maker == nil") == 18)
    }

    /// Byte order of text (SQLite's BINARY collation), nil first.
    private func precedes(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return false
        case (.null, _): return true
        case (_, .null): return false
        case (.text(let x), .text(let y)): return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
        default: return false
        }
    }

    private func value(_ context: ObjectContext, _ path: [String], of object: ManagedObject) throws -> Value {
        var current: ManagedObject? = object
        for name in path.dropLast() { current = try current.flatMap { try context.relatedObject(name, of: $0) } }
        return try current.map { try $0.value(forKey: path.last!) } ?? .null
    }

    @Test func sortsBySortKeyPathsAsInMemory() throws {
        let context = try store()
        let request = FetchRequest(
            entityName: "Flight", sortDescriptors: [SortDescriptor(key: "destination.tzone"), SortDescriptor(key: "plane.maker", ascending: false)])
        let results = try request.execute(in: context)
        let sorted = try results.objects().map(\.objectID)
        let expected = try all(context, "Flight").map { o in
            (o, try value(context, ["destination", "tzone"], of: o), try value(context, ["plane", "maker"], of: o))
        }.sorted { a, b in
            if a.1 != b.1 { return precedes(a.1, b.1) }
            if a.2 != b.2 { return precedes(b.2, a.2) }
            // The key breaks ties in the direction of the last sort key.
            return a.0.primaryKey! > b.0.primaryKey!
        }.map(\.0.objectID)
        #expect(sorted == expected)
        let explained = try results.explain()
        #expect(explained.contains("LEFT JOIN \"Port\""), "\(explained)")
        #expect(explained.contains("LEFT JOIN \"Plane\""), "\(explained)")
        #expect(!explained.contains("LIMIT 1)"), "\(explained)")
    }

    @Test func sectionsByAKeyPathAsInMemory() throws {
        let context = try store()
        var request = FetchRequest(entityName: "Flight")
        request.sectionKey = "destination.tzone"
        let sections = try request.execute(in: context).sections()
        var counts: [Value: Int] = [:]
        for o in try all(context, "Flight") { counts[try value(context, ["destination", "tzone"], of: o), default: 0] += 1 }
        let expected = counts.keys.sorted(by: precedes).map { ($0.isNull ? "" : $0.displayString, counts[$0]!) }
        #expect(sections.map(\.name) == expected.map(\.0))
        #expect(sections.map(\.count) == expected.map(\.1))
        #expect(sections.count == 4) // nil, Los Angeles, New York, Paris
    }

    @Test func dictionaryGroupsAndHavingByAKeyPath() throws {
        let context = try store()
        let request = DictionaryRequest(
            base: FetchRequest(entityName: "Flight", sortDescriptors: [SortDescriptor(key: "plane.maker")]),
            properties: ["plane.maker", "count(*)", "max(destination.tzone)"], group: ["plane.maker"],
            having: try PredicateParser.parse("count > 5", arguments: PredicateArguments([])))
        let rows = try request.execute(in: context)
        var counts: [Value: Int] = [:]
        for o in try all(context, "Flight") { counts[try value(context, ["plane", "maker"], of: o), default: 0] += 1 }
        let expected = counts.filter { $0.value > 5 }.keys.sorted(by: precedes)
        #expect(rows.map { $0.first { $0.key == "plane.maker" }!.value } == expected)
        #expect(rows.map { $0.first { $0.key == "count" }!.value } == expected.map { .integer(Int64(counts[$0]!)) })
        #expect(rows.first.map { $0.first { $0.key == "max(destination.tzone)" }!.value } == .text("Europe/Paris"))
    }

    /// The SQL a count runs, seen through GRDB's trace: one LEFT JOIN per path, no scalar
    /// subquery; relate() indexed the matched columns and SQLite uses them.
    @Test func countRunsAJoinServedByTheIndexes() throws {
        let context = try store()
        let indexes = try context.connection.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        }
        #expect(indexes.contains { $0.contains("ON \"Port\" (\"code\")") }, "\(indexes)")
        #expect(indexes.contains { $0.contains("ON \"Plane\" (\"tail\")") }, "\(indexes)")
        var statements: [String] = []
        try context.connection.database.writeWithoutTransaction { db in
            db.trace { event in if case .statement(let s) = event { statements.append(s.sql) } }
        }
        defer { try? context.connection.database.writeWithoutTransaction { db in db.trace(options: [], nil) } }
        let predicate = try PredicateParser.parse(
            "destination.tzone == %@ AND destination.name != nil AND plane.maker == %@",
            arguments: PredicateArguments([.text("America/New_York"), .text("BOEING")]))
        #expect(try FetchRequest(entityName: "Flight", predicate: predicate).count(in: context) == 1)
        let counted = statements.filter { $0.contains("count(*)") && $0.contains("FROM \"Flight\"") }
        #expect(counted.count == 1)
        let sql = counted.first ?? ""
        // Two paths through `destination`, one join.
        #expect(sql.components(separatedBy: "LEFT JOIN \"Port\"").count == 2, "\(sql)")
        #expect(sql.contains("LEFT JOIN \"Plane\""), "\(sql)")
        #expect(!sql.contains("LIMIT 1)"), "\(sql)")
        let plan = try FetchRequest(entityName: "Flight", predicate: predicate).execute(in: context).explain()
        #expect(plan.contains("quarry_rel_Port_code") || plan.contains("quarry_rel_Flight_dest"), "\(plan)")
    }

    /// A matched column that holds each value once (NULLs aside) needs no guard against
    /// several matches; one that repeats a value keeps it. The answers stay the same.
    @Test func theGuardAgainstRepeatedValuesGoesWhenTheyDo() throws {
        let context = try store()
        let predicate = try PredicateParser.parse("destination.tzone == nil OR plane.maker == %@", arguments: PredicateArguments([.text("AIRBUS")]))
        func sql() throws -> String { try FetchRequest(entityName: "Flight", predicate: predicate).execute(in: context).explain() }
        func answers() throws -> ([String], [String]) {
            let bound = try BoundPredicate(predicate, entity: try context.entity(named: "Flight"), context: context)
            return (
                try FetchRequest(entityName: "Flight", predicate: predicate).objectIDs(in: context),
                try all(context, "Flight").filter { bound.matches($0) }.map(\.objectID)
            )
        }
        let before = try sql()
        #expect(before.components(separatedBy: "NOT EXISTS").count == 3, "\(before)")
        let (joined, inMemory) = try answers()
        #expect(joined == inMemory)
        // The later "JFK" and "N1" go: each code once, the nil code aside.
        for (entity, key) in [("Port", "code"), ("Plane", "tail")] {
            let repeated = try all(context, entity).filter { try $0.value(forKey: key) == .text(key == "code" ? "JFK" : "N1") }
            #expect(repeated.count == 2)
            try context.delete(repeated[1])
        }
        _ = try context.save()
        let after = try sql()
        #expect(!after.contains("NOT EXISTS"), "\(after)")
        let (joinedAfter, inMemoryAfter) = try answers()
        #expect(joinedAfter == inMemoryAfter)
        #expect(joinedAfter == joined) // the deleted rows were never the ones linked
    }

    /// A file Quarry did not create: relate() adds no index and writes nothing; the join
    /// still answers (SQLite makes a transient index when it wants one).
    @Test func aForeignFileKeepsItsBytes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-joins-\(UUID().uuidString).sqlite").path
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".quarry")
        }
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE port (id INTEGER PRIMARY KEY, code TEXT, tzone TEXT);
                        CREATE TABLE flight (id INTEGER PRIMARY KEY, dest TEXT);
                        INSERT INTO port (code, tzone) VALUES ('JFK', 'America/New_York'), ('LAX', 'America/Los_Angeles');
                        INSERT INTO flight (dest) VALUES ('JFK'), ('LAX'), ('JFK'), (NULL), ('XXX');
                        """)
            }
            try queue.close()
        }
        let made = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let context = try StoreOpener.open(path)
            try context.relate("flight", "dest", "port", "code", name: "destination")
            context.close()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == made)
        // Another program repeats a code after relate() was kept: its replay at the next
        // open reads the file as it is, and the first by key stays the one linked.
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: "INSERT INTO port (code, tzone) VALUES ('JFK', 'later')") }
            try queue.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let context = try StoreOpener.open(path)
            func count(_ format: String, _ arguments: [Value] = []) throws -> Int {
                try FetchRequest(entityName: "flight", predicate: try PredicateParser.parse(format, arguments: PredicateArguments(arguments))).count(
                    in: context)
            }
            #expect(try count("destination.tzone == %@", [.text("America/New_York")]) == 2)
            #expect(try count("destination.tzone == nil") == 2)
            #expect(try count("destination.tzone == %@", [.text("later")]) == 0)
            let indexes = try context.connection.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'index'") }
            #expect(indexes == 0)
            context.close()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}

import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

// GRDB and Foundation have types of these names too.
typealias FetchRequest = QuarryFetch.FetchRequest
typealias PredicateError = QuarryPredicates.PredicateError

let itemEntity = EntityDescription(
    name: "Item",
    attributes: [
        AttributeDescription(name: "name", type: .string),
        AttributeDescription(name: "n", type: .int64),
        AttributeDescription(name: "x", type: .double, isOptional: true),
        AttributeDescription(name: "tag", type: .string, isOptional: true)
    ])

/// A store with `Item` rows built from `rows` (name, n, x, tag), saved.
func store(_ rows: [(String, Int64, Double?, String?)]) throws -> ObjectContext {
    let context = try StoreOpener.open(nil)
    try context.define(itemEntity)
    for (name, n, x, tag) in rows {
        _ = try context.insert(
            into: "Item",
            values: [
                "name": .text(name), "n": .integer(n), "x": x.map(Value.real) ?? .null, "tag": tag.map(Value.text) ?? .null
            ])
    }
    try context.save()
    return context
}

func request(
    _ predicate: String? = nil, _ args: [Value] = [], sort: [String] = [], limit: Int? = nil, offset: Int = 0,
    batch: Int = 200
) throws -> FetchRequest {
    FetchRequest(
        entityName: "Item",
        predicate: try predicate.map { try PredicateParser.parse($0, arguments: PredicateArguments(args)) },
        sortDescriptors: sort.map(SortDescriptor.init(parsing:)), limit: limit, offset: offset, batchSize: batch)
}

func names(_ results: FetchResults) throws -> [String] {
    try results.objects().map { object -> String in
        guard case .text(let s) = try object.value(forKey: "name") else { return "?" }
        return s
    }
}

func ns(_ results: FetchResults) throws -> [Int64] {
    try results.objects().map { object -> Int64 in
        guard case .integer(let i) = try object.value(forKey: "n") else { return .min }
        return i
    }
}

/// n = 0..<count, name "item<n>", tag cycling through a, b, c.
func numbered(_ count: Int) throws -> ObjectContext {
    try store((0..<count).map { ("item\($0)", Int64($0), Double($0) / 2, ["a", "b", "c"][$0 % 3]) })
}

@Suite struct CountLimitOffsetTests {
    @Test func countMatchesThePredicate() throws {
        let context = try numbered(30)
        #expect(try request().count(in: context) == 30)
        #expect(try request("n < 10").count(in: context) == 10)
        #expect(try request("tag == 'a' AND n >= 15").count(in: context) == 5)
        #expect(try request("n > %@", [.integer(100)]).count(in: context) == 0)
        #expect(try request("x == nil").count(in: context) == 0)
        #expect(try request("FALSEPREDICATE").count(in: context) == 0)
        let results = try request("n < 10").execute(in: context)
        #expect(try results.count() == 10)
        #expect(try results.objects().count == 10)
    }

    @Test func limitAndOffsetWindowTheSortedRows() throws {
        let context = try numbered(20)
        let window = try request(sort: ["n"], limit: 5, offset: 3).execute(in: context)
        #expect(try window.count() == 5)
        #expect(try ns(window) == [3, 4, 5, 6, 7])
        let tail = try request(sort: ["-n"], limit: 5, offset: 18).execute(in: context)
        #expect(try tail.count() == 2)
        #expect(try ns(tail) == [1, 0])
        let past = try request(limit: 5, offset: 25).execute(in: context)
        #expect(try past.count() == 0)
        #expect(try past.object(at: 0) == nil)
        let offsetOnly = try request("n >= 10", sort: ["n"], offset: 7).execute(in: context)
        #expect(try offsetOnly.count() == 3)
        #expect(try ns(offsetOnly) == [17, 18, 19])
        // A limit of 0 is no limit, as in Core Data.
        #expect(try request(limit: 0).count(in: context) == 20)
        #expect(try request(limit: 100).count(in: context) == 20)
    }

    @Test func limitSmallerThanTheBatchAndAcrossBatches() throws {
        let context = try numbered(50)
        let results = try request(sort: ["n"], limit: 23, offset: 4, batch: 10).execute(in: context)
        #expect(try ns(results) == Array(4..<27))
        #expect(try results.count() == 23)
        #expect(try results.object(at: 22) != nil)
        #expect(try results.object(at: 23) == nil)
    }

    @Test func negativeLimitOrOffsetIsAnError() throws {
        let context = try numbered(3)
        #expect(throws: FetchError.invalid("fetch: offset must be 0 or more, got -1")) { try request(offset: -1).execute(in: context) }
        #expect(throws: FetchError.invalid("fetch: limit must be 0 or more, got -2")) { try request(limit: -2).execute(in: context) }
    }

    @Test func unknownEntityAndBadPredicate() throws {
        let context = try numbered(3)
        #expect(throws: StoreError.unknownEntity(name: "Itme", suggestion: "Item")) {
            try FetchRequest(entityName: "Itme").execute(in: context)
        }
        do {
            _ = try request("nmae == 'x'").execute(in: context)
            Issue.record("an unknown key was accepted")
        } catch let error as PredicateError {
            #expect(error.description == "predicate: unknown key path 'nmae' on entity Item (did you mean 'name'?) at column 1")
        }
    }
}

@Suite struct SortTests {
    @Test func multipleKeysAndDirections() throws {
        let context = try store([
            ("a", 2, 1, "y"), ("b", 1, 2, "x"), ("c", 2, 3, "x"), ("d", 1, 4, "y"), ("e", 3, 5, "x"), ("f", 2, 6, nil)
        ])
        #expect(try names(request(sort: ["tag", "-n"]).execute(in: context)) == ["f", "e", "c", "b", "a", "d"])
        #expect(try names(request(sort: ["-tag", "n"]).execute(in: context)) == ["d", "a", "b", "c", "e", "f"])
        #expect(try names(request(sort: ["n", "-x"]).execute(in: context)) == ["d", "b", "f", "c", "a", "e"])
        #expect(try names(request(sort: ["+n", "name"]).execute(in: context)) == ["b", "d", "a", "c", "f", "e"])
        #expect(try names(request("n == 2", sort: ["-name"]).execute(in: context)) == ["f", "c", "a"])
    }

    /// Ties are broken by the primary key, so ascending keeps insertion order, descending
    /// is its exact reverse, and pages of any size add up to the whole.
    @Test func tiesAreBrokenStably() throws {
        let context = try store((0..<10).map { ("t\($0)", Int64($0 / 4), nil, nil) })
        let ascending = try names(request(sort: ["n"]).execute(in: context))
        #expect(ascending == (0..<10).map { "t\($0)" })
        let descending = try names(request(sort: ["-n"]).execute(in: context))
        #expect(descending == ascending.reversed())
        for sort in [["n"], ["-n"]] {
            let whole = try names(request(sort: sort).execute(in: context))
            var paged: [String] = []
            for offset in stride(from: 0, to: 10, by: 3) {
                paged += try names(request(sort: sort, limit: 3, offset: offset, batch: 2).execute(in: context))
            }
            #expect(paged == whole, "\(sort)")
        }
    }

    @Test func caseInsensitiveAndLocalized() throws {
        let context = try store([
            ("b", 1, nil, nil), ("A", 2, nil, nil), ("c", 3, nil, nil), ("B", 4, nil, nil),
            ("a", 5, nil, nil), ("é", 6, nil, nil), ("E", 7, nil, nil), ("d", 8, nil, nil)
        ])
        #expect(try names(request(sort: ["name"]).execute(in: context)) == ["A", "B", "E", "a", "b", "c", "d", "é"])
        let insensitive = FetchRequest(entityName: "Item", sortDescriptors: [SortDescriptor(key: "name", comparison: .caseInsensitive)])
        #expect(try names(insensitive.execute(in: context)) == ["A", "a", "b", "B", "c", "d", "E", "é"])
        let descending = FetchRequest(
            entityName: "Item", sortDescriptors: [SortDescriptor(key: "name", ascending: false, comparison: .caseInsensitive)])
        #expect(try names(descending.execute(in: context)) == ["A", "a", "b", "B", "c", "d", "E", "é"].reversed())
        let localized = FetchRequest(entityName: "Item", sortDescriptors: [SortDescriptor(key: "name", comparison: .localized)])
        #expect(try names(localized.execute(in: context)) == ["A", "a", "b", "B", "c", "d", "é", "E"])
    }

    @Test func sortDescriptorParsing() {
        #expect(SortDescriptor(parsing: "-n") == SortDescriptor(key: "n", ascending: false))
        #expect(SortDescriptor(parsing: "+n") == SortDescriptor(key: "n"))
        #expect(SortDescriptor(parsing: "n") == SortDescriptor(key: "n", ascending: true, comparison: .binary))
    }

    @Test func unknownSortKeyNamesTheKeyAndSuggests() throws {
        let context = try numbered(3)
        #expect(throws: FetchError.unknownSortKey(key: "nmae", entity: "Item", suggestion: "name")) {
            try request(sort: ["nmae"]).execute(in: context)
        }
        do {
            _ = try request(sort: ["-nmae"]).execute(in: context)
            Issue.record("an unknown sort key was accepted")
        } catch let error as FetchError {
            #expect(error.description == "sort: unknown key 'nmae' on entity Item (did you mean 'name'?)")
        }
        #expect(FetchError.unknownSortKey(key: "zzz", entity: "Item", suggestion: nil).description == "sort: unknown key 'zzz' on entity Item")
    }
}

@Suite struct PagingTests {
    @Test func pagingOverManyBatchesGivesEveryRowOnceInOrder() throws {
        let count = 1_000
        let context = try numbered(count)
        let results = try request(sort: ["-n"], batch: 37).execute(in: context)
        #expect(try results.count() == count)
        let all = try results.objects()
        #expect(all.count == count)
        #expect(Set(all.map { ObjectIdentifier($0) }).count == count)
        #expect(Set(all.compactMap(\.primaryKey)).count == count)
        #expect(try ns(results) == Array((0..<Int64(count)).reversed()))
        // Random access, out of order and across evicted batches, agrees with the walk.
        for index in [999, 0, 500, 37, 36, 38, 998, 1, 740, 369, 370] + (0..<40).map({ ($0 * 7919) % count }) {
            #expect(try results.object(at: index) === all[index], "index \(index)")
        }
        #expect(try results.object(at: count) == nil)
        #expect(try results.object(at: -1) == nil)
    }

    @Test func pagingWithAPredicateAndBatchSizeOne() throws {
        let context = try numbered(40)
        let results = try request("tag == 'b'", sort: ["n"], batch: 1).execute(in: context)
        #expect(try ns(results) == stride(from: 1, to: 40, by: 3).map(Int64.init))
        #expect(try results.count() == 13)
    }

    /// Asking for an index past the end must not change what count() says.
    @Test func lookingPastTheEndKeepsTheCountRight() throws {
        let context = try numbered(10)
        let results = try request(batch: 200).execute(in: context)
        #expect(try results.object(at: 500) == nil)
        #expect(try results.count() == 10)

        let limited = try request(sort: ["n"], limit: 5, batch: 2).execute(in: context)
        #expect(try limited.object(at: 9) == nil)
        #expect(try limited.count() == 5)
    }

    @Test func fetchedObjectsAreTheRegisteredOnes() throws {
        let context = try numbered(10)
        let a = try request(sort: ["n"]).execute(in: context).objects()
        let b = try request(sort: ["-n"]).execute(in: context).objects()
        for object in a { #expect(b.contains { $0 === object }) }
        let key = try #require(a[3].primaryKey)
        #expect(try context.object(entityName: "Item", primaryKey: key) === a[3])
        #expect(try context.object(entityName: "Item", primaryKey: 9999) == nil)
        #expect(throws: StoreError.self) { try context.object(entityName: "Nope", primaryKey: 1) }
    }
}

@Suite struct LiveResultsTests {
    @Test func resultsReRunAfterSave() throws {
        let context = try numbered(10)
        let results = try request("n >= 5", sort: ["n"]).execute(in: context)
        #expect(try results.count() == 5)
        #expect(try ns(results) == [5, 6, 7, 8, 9])
        let generation = context.generation

        _ = try context.insert(into: "Item", values: ["name": .text("new"), "n": .integer(6)])
        var saved = try request(sort: ["n"])
        saved.includesPendingChanges = false // the ten saved rows, without the insert above
        let all = try saved.execute(in: context).objects()
        try all[9].setValue(.integer(1), forKey: "n") // n 9 → 1: leaves the results
        try all[2].setValue(.integer(50), forKey: "n") // n 2 → 50: joins them
        try context.delete(all[7]) // n 7: goes
        try context.save()
        #expect(context.generation > generation)

        #expect(try results.count() == 5)
        #expect(try ns(results) == [5, 6, 6, 8, 50])
        #expect(try names(results) == ["item5", "item6", "new", "item8", "item2"])
    }

    @Test func rollbackAlsoRefreshes() throws {
        let context = try numbered(4)
        let results = try request(sort: ["n"]).execute(in: context)
        #expect(try results.count() == 4)
        _ = try context.insert(into: "Item", values: ["name": .text("pending"), "n": .integer(9)])
        context.rollback()
        #expect(try results.count() == 4)
        try context.connection.database.write { db in try db.execute(sql: "DELETE FROM Item WHERE n = 0") }
        context.rollback() // nothing pending, but a rollback still means "look again"
        #expect(try results.count() == 3)
    }

    @Test func reconfigureChangesTheAnswer() throws {
        let context = try numbered(12)
        let results = try request("n < 6", sort: ["n"]).execute(in: context)
        #expect(try results.count() == 6)
        _ = try results.object(at: 0)

        try results.reconfigure { $0.predicate = try? PredicateParser.parse("tag == 'c'") }
        #expect(try results.count() == 4)
        #expect(try ns(results) == [2, 5, 8, 11])

        try results.reconfigure { $0.sortDescriptors = [SortDescriptor(parsing: "-n")] }
        #expect(try ns(results) == [11, 8, 5, 2])

        try results.reconfigure {
            $0.limit = 2
            $0.offset = 1
        }
        #expect(try results.count() == 2)
        #expect(try ns(results) == [8, 5])

        try results.reconfigure {
            $0.predicate = nil
            $0.limit = nil
            $0.offset = 0
        }
        #expect(try results.count() == 12)
    }

    @Test func aBadReconfigurationKeepsTheOldRequest() throws {
        let context = try numbered(12)
        let results = try request("n < 6", sort: ["n"]).execute(in: context)
        #expect(throws: FetchError.unknownSortKey(key: "nope", entity: "Item", suggestion: nil)) {
            try results.reconfigure { $0.sortDescriptors = [SortDescriptor(parsing: "nope")] }
        }
        #expect(results.request.sortDescriptors == [SortDescriptor(key: "n")])
        #expect(try results.count() == 6)
        #expect(try ns(results) == [0, 1, 2, 3, 4, 5])
        #expect(throws: FetchError.self) { try results.reconfigure { $0.offset = -3 } }
        #expect(try results.count() == 6)
    }

    @Test func requestSQLIsParameterized() throws {
        let context = try numbered(3)
        let results = try request("name == %@", [.text("item1' OR '1'='1")], sort: ["-n"], limit: 2).execute(in: context)
        let fragment = results.sql()
        #expect(!fragment.sql.contains("item1"))
        #expect(fragment.arguments.first == .text("item1' OR '1'='1"))
        #expect(fragment.sql.contains("ORDER BY"))
        #expect(try results.count() == 0)
    }
}

import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Real data: quarry's count and sorted fetch against SQL written by hand over the same table.
@Suite struct FlightsTests {
    @Test func laxInJanuarySortedByDepartureDelay() throws {
        let flightsPath = try SharedData.path("nycflights13/flights.csv")
        // The first 5,000 lines of the file: the header and 4,999 flights.
        let text = try String(contentsOfFile: flightsPath, encoding: .utf8)
        let lines = text.split(separator: "\n", maxSplits: 5_000, omittingEmptySubsequences: true).prefix(5_000)
        let header = lines.first!.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "no column \(name)") }
        let (carrierAt, monthAt, delayAt, destAt) = (try column("carrier"), try column("month"), try column("dep_delay"), try column("dest"))

        let context = try StoreOpener.open(nil)
        try context.define(
            EntityDescription(
                name: "Flight",
                attributes: [
                    AttributeDescription(name: "carrier", type: .string),
                    AttributeDescription(name: "month", type: .int64),
                    AttributeDescription(name: "dep_delay", type: .int64, isOptional: true),
                    AttributeDescription(name: "dest", type: .string)
                ]))
        var expectedDelays: [Int64?] = [] // LAX in January, straight from the CSV
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let month = try #require(Int64(fields[monthAt]))
            let delay = Int64(fields[delayAt]) // "NA" is nil
            #expect(delay != nil || fields[delayAt] == "NA", "unexpected dep_delay \(fields[delayAt])")
            _ = try context.insert(
                into: "Flight",
                values: [
                    "carrier": .text(fields[carrierAt]), "month": .integer(month),
                    "dep_delay": delay.map(Value.integer) ?? .null, "dest": .text(fields[destAt])
                ])
            if fields[destAt] == "LAX" && month == 1 { expectedDelays.append(delay) }
        }
        #expect(try context.save() == SaveSummary(inserted: 4_999))
        #expect(expectedDelays.count > 100)
        #expect(expectedDelays.contains(nil), "the sample should include a cancelled flight")

        let request = FetchRequest(
            entityName: "Flight",
            predicate: try PredicateParser.parse("dest == 'LAX' AND month == 1"),
            sortDescriptors: [SortDescriptor(parsing: "-dep_delay")],
            batchSize: 50)
        let results = try request.execute(in: context)
        let objects = try results.objects()
        let quarryKeys = objects.map { $0.primaryKey! }
        let quarryDelays = try objects.map { object -> Int64? in
            if case .integer(let i) = try object.value(forKey: "dep_delay") { return i }
            return nil
        }

        let (handCount, handRows) = try context.connection.read { db -> (Int, [Row]) in
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM Flight WHERE dest = 'LAX' AND month = 1") ?? -1
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT _pk, dep_delay FROM Flight
                    WHERE dest = 'LAX' AND month = 1
                    ORDER BY dep_delay DESC, _pk ASC
                    """)
            return (count, rows)
        }
        #expect(try results.count() == handCount)
        #expect(try request.count(in: context) == handCount)
        #expect(handCount == expectedDelays.count)
        // The order of the delays is fully determined; rows with equal delays may come in
        // either key order, so those compare as sets.
        let handKeys = handRows.map { $0["_pk"] as Int64 }
        let handDelays = handRows.map { $0["dep_delay"] as Int64? }
        #expect(quarryDelays == handDelays)
        func groups(_ keys: [Int64], _ delays: [Int64?]) -> [[Int64]] {
            var result: [[Int64]] = []
            for (i, key) in keys.enumerated() {
                if i > 0, delays[i] == delays[i - 1] { result[result.count - 1].append(key) } else { result.append([key]) }
            }
            return result.map { $0.sorted() }
        }
        #expect(groups(quarryKeys, quarryDelays) == groups(handKeys, handDelays))
        #expect(Set(quarryKeys).count == quarryKeys.count)
        // Fetching again gives the same order.
        #expect(try request.execute(in: context).objects().map { $0.primaryKey! } == quarryKeys)
        // Descending puts nil last, as SQLite does; every delay is in order.
        #expect(quarryDelays.last! == nil)
        let known = quarryDelays.compactMap { $0 }
        #expect(known == known.sorted(by: >))
        #expect(known.sorted() == expectedDelays.compactMap { $0 }.sorted())

        // The same through the predicate's own SQL, and through matches() in memory.
        let bound = try #require(results.predicate)
        let fragment = bound.sql(dialect: SQLiteDialect())
        let viaFragment = try context.connection.read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM Flight WHERE \(fragment.sql)",
                arguments: StatementArguments(fragment.arguments.map(\.databaseValue)))
        }
        #expect(viaFragment == handCount)
        let all = try FetchRequest(entityName: "Flight").execute(in: context).objects()
        #expect(all.count == 4_999)
        #expect(all.filter { bound.matches($0) }.count == handCount)

        // A carrier breakdown, for a second query shape.
        let ua = try FetchRequest(
            entityName: "Flight",
            predicate: try PredicateParser.parse("carrier == %@ AND dep_delay > %d", arguments: PredicateArguments([.text("UA"), .integer(30)]))
        ).count(in: context)
        let handUA = try context.connection.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM Flight WHERE carrier = 'UA' AND dep_delay > 30")
        }
        #expect(ua == handUA)
    }
}

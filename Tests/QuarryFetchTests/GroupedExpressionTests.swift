import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryStore
import QuarryTestSupport
import Testing

// Grouped (dictionary) requests over expressions: aggregates of arithmetic, count(distinct),
// key paths through relate()d relationships, and `having` on an aggregate as written; each
// answer compared with a hand-written query on the same nycflights13 sample.

@Suite struct GroupedExpressionTests {
    private func rows(
        _ context: ObjectContext, properties: [String], group: [String], having: String? = nil,
        predicate: String? = nil, sort: [String] = []
    ) throws -> [[String: Value]] {
        let request = DictionaryRequest(
            base: try flightRequest(predicate, sort: sort), properties: properties, group: group,
            having: try having.map { try DictionaryRequest.parseHaving($0) })
        return try request.execute(in: context).map { pairs in
            Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        }
    }

    private func hand(_ context: ObjectContext, _ sql: String) throws -> [Row] {
        try context.connection.read { db in try Row.fetchAll(db, sql: sql) }
    }

    private func column(_ row: Row, _ name: String) -> Value { Value(row[name] as DatabaseValue) }

    @Test func sumOfAProductByCarrier() throws {
        let context = try flightsContext()
        let got = try rows(context, properties: ["carrier", "sum(distance * air_time) AS work", "count(*)"], group: ["carrier"], sort: ["carrier"])
        let expected = try hand(context, "SELECT carrier, sum(distance * air_time) AS w, count(*) AS n FROM Flight GROUP BY carrier ORDER BY carrier")
        #expect(expected.count >= 10)
        #expect(got.map { $0["carrier"] } == expected.map { column($0, "carrier") })
        #expect(got.map { $0["work"] } == expected.map { column($0, "w") })
        // The AS name is the row's one key (the contract's), not the expression as written
        // as well; an integer sum stays an integer.
        #expect(got.allSatisfy { $0["sum(distance * air_time)"] == nil && $0.count == 4 }, "\(got.first ?? [:])")
        if case .integer = got.first?["work"] ?? .null {
        } else {
            Issue.record("sum of integers should be an integer: \(String(describing: got.first?["work"]))")
        }
    }

    @Test func averageOfADifferenceAndOfAQuotient() throws {
        let context = try flightsContext()
        let got = try rows(
            context, properties: ["origin", "avg(arr_delay - dep_delay) AS gain", "avg(distance / air_time)"],
            group: ["origin"], sort: ["origin"])
        // `/` divides as reals, as in predicates; a zero or missing air_time gives nil, which avg skips.
        let expected = try hand(
            context,
            """
            SELECT origin, avg(arr_delay - dep_delay) AS g,
                   avg(CASE WHEN air_time = 0 THEN NULL ELSE CAST(distance AS REAL) / air_time END) AS speed
            FROM Flight GROUP BY origin ORDER BY origin
            """)
        #expect(expected.count == 3)
        #expect(got.map { $0["origin"] } == expected.map { column($0, "origin") })
        #expect(got.map { $0["gain"] } == expected.map { column($0, "g") })
        #expect(got.count == expected.count)
        for (row, h) in zip(got, expected) {
            guard case .real(let a)? = row["avg(distance / air_time)"], case .real(let b) = column(h, "speed") else {
                Issue.record("avg(distance / air_time) should be a real: \(String(describing: row["avg(distance / air_time)"]))")
                continue
            }
            #expect(abs(a - b) <= 1e-9 * abs(b))
        }
    }

    @Test func countDistinct() throws {
        let context = try flightsContext()
        let got = try rows(
            context, properties: ["carrier", "count(distinct tailnum)", "count(DISTINCT dest) AS places"],
            group: ["carrier"], predicate: "month == 3", sort: ["carrier"])
        let expected = try hand(
            context,
            """
            SELECT carrier, count(DISTINCT tailnum) AS planes, count(DISTINCT dest) AS places, count(tailnum) AS all_planes
            FROM Flight WHERE month = 3 GROUP BY carrier ORDER BY carrier
            """)
        #expect(expected.count >= 10)
        #expect(got.map { $0["count(distinct tailnum)"] } == expected.map { column($0, "planes") })
        #expect(got.map { $0["count_distinct_tailnum"] } == expected.map { column($0, "planes") })
        #expect(got.map { $0["places"] } == expected.map { column($0, "places") })
        // Distinct counts fewer than all: the DISTINCT was not dropped.
        #expect(zip(got, expected).contains { $0.0["count(distinct tailnum)"] != column($0.1, "all_planes") })
    }

    @Test func groupByAKeyPathThroughARelatedAirline() throws {
        let context = try flightsContext()
        if try context.entity(named: "Flight").relationship(named: "airline") == nil {
            _ = try context.relate("Flight", "carrier", "Airline", "carrier")
        }
        let got = try rows(
            context, properties: ["airline.name", "count(*)", "sum(distance * 2) AS twice"], group: ["airline.name"],
            sort: ["airline.name"])
        let expected = try hand(
            context,
            """
            SELECT a.name AS name, count(*) AS n, sum(f.distance * 2) AS t
            FROM Flight AS f LEFT JOIN Airline AS a ON a.carrier = f.carrier GROUP BY a.name ORDER BY a.name
            """)
        #expect(expected.count >= 10)
        #expect(got.map { $0["airline.name"] } == expected.map { column($0, "name") })
        #expect(got.map { $0["count"] } == expected.map { column($0, "n") })
        #expect(got.map { $0["twice"] } == expected.map { column($0, "t") })
    }

    @Test func havingOnAnAggregateAsWritten() throws {
        let context = try flightsContext()
        let expected = try hand(
            context,
            """
            SELECT carrier, count(*) AS n, sum(distance) AS s FROM Flight
            GROUP BY carrier HAVING sum(distance) > 5000000 ORDER BY carrier
            """)
        #expect(expected.count >= 3)
        // The property of the same text, however it is spaced.
        for having in ["sum(distance) > 5000000", "SUM( distance ) > 5000000", "sum_distance > 5000000"] {
            let got = try rows(context, properties: ["carrier", "count(*)", "sum(distance)"], group: ["carrier"], having: having, sort: ["carrier"])
            #expect(got.map { $0["carrier"] } == expected.map { column($0, "carrier") }, "\(having)")
            #expect(got.map { $0["sum(distance)"] } == expected.map { column($0, "s") }, "\(having)")
        }
        // count(*) as written, and the count alias, combined with another test.
        let busy = try hand(context, "SELECT carrier FROM Flight GROUP BY carrier HAVING count(*) > 2000 AND avg(dep_delay) > 10 ORDER BY carrier")
        #expect(busy.count >= 2)
        for having in ["count(*) > 2000 AND avg(dep_delay) > 10", "count > 2000 AND avg(dep_delay) > 10"] {
            // avg(dep_delay) is no property: it is computed for the test and not returned.
            let got = try rows(context, properties: ["carrier", "count(*)"], group: ["carrier"], having: having, sort: ["carrier"])
            #expect(got.map { $0["carrier"] } == busy.map { column($0, "carrier") }, "\(having)")
            #expect(got.allSatisfy { $0.keys.sorted() == ["carrier", "count", "count(*)"] }, "\(having)")
        }
        // An aggregate of an expression, matched to its property, and by its AS name.
        // The threshold is the middle origin's own sum, so one origin of three passes.
        let sums = try hand(context, "SELECT origin, sum(distance * air_time) AS w FROM Flight GROUP BY origin ORDER BY w")
        try #require(sums.count == 3)
        let middle = try #require(Int64.fromDatabaseValue(sums[1]["w"] as DatabaseValue))
        for having in ["sum(distance*air_time) > \(middle)", "work > \(middle)", "SUM(distance * air_time)>\(middle)"] {
            let got = try rows(
                context, properties: ["origin", "sum(distance * air_time) AS work"], group: ["origin"], having: having, sort: ["origin"])
            #expect(got.map { $0["origin"] } == [column(sums[2], "origin")], "\(having)")
        }
    }

    @Test func errorsSayHow() throws {
        let context = try flightsContext()
        func message(properties: [String] = ["carrier", "count(*)"], group: [String] = ["carrier"], having: String? = nil) -> String {
            do {
                _ = try rows(context, properties: properties, group: group, having: having)
                return "no error"
            } catch { return "\(error)" }
        }
        #expect(
            message(having: "cnt > 1").hasPrefix(
                "having: unknown key path 'cnt' in the result; name a property or an aggregate of properties, by its AS name or as written"))
        let unknown = message(having: "median(dep_delay) > 1")
        #expect(unknown.hasPrefix("having: unknown function 'median'; name a property or an aggregate of properties"), "\(unknown)")
        #expect(!unknown.contains("uppercase"))
        #expect(message(having: "sum(nope) > 1").hasPrefix("having: unknown key 'nope' on entity Flight"))
        #expect(message(group: ["count(*)"]).hasPrefix("group: 'count(*)' is an aggregate"))
        #expect(message(properties: ["carrier", "sum(carrier * 2)"]).hasPrefix("properties: 'carrier' is string; arithmetic takes numbers"))
        #expect(message(properties: ["carrier", "sum(distance * )"]).hasSuffix("at column 15"))
        #expect(message(properties: ["carrier", "avg(*)"]) == "properties: only count takes *, in 'avg(*)'")
        // An aggregate only the test computes would fold ungrouped rows into one.
        #expect(
            message(properties: ["carrier"], group: [], having: "count(*) > 1")
                == "having: 'count(*)' needs group = { ... }: without it each row stands alone")
        // One aggregate per property: combining or nesting them is refused, saying so.
        #expect(
            message(properties: ["carrier", "max(distance) - min(distance)"])
                == "properties: 'max(distance) - min(distance)' computes with max(distance) and min(distance); a property holds one aggregate, "
                + #"so give each as a property of its own (properties = { "max(distance)", "min(distance)" }) and combine them in Lua from each row"#
        )
        // An average written as a sum over a count names the aggregate that computes it.
        #expect(
            message(properties: ["carrier", "sum(distance)/count(distance)"])
                == "properties: 'sum(distance)/count(distance)' computes with sum(distance) and count(distance); a property holds one aggregate: 'avg(distance)' computes the same"
        )
        #expect(message(properties: ["carrier", "sum(distance) / count(*)"]).hasSuffix("combine them in Lua from each row"))
        // An aggregate scaled by a number names the one aggregate that computes it.
        #expect(
            message(properties: ["carrier", "avg(distance - 1) / 86400"])
                == "properties: 'avg(distance - 1) / 86400' computes with avg(distance - 1); a property holds one aggregate: 'avg((distance - 1) / 86400)' computes the same"
        )
        #expect(message(properties: ["carrier", "sum(distance) * 2"]).hasSuffix(": 'sum((distance) * 2)' computes the same"))
        #expect(!message(properties: ["carrier", "sum(distance) + 2"]).contains("computes the same"))
        #expect(message(properties: ["carrier", "sum(max(distance))"]) == "properties: aggregates do not nest ('max(distance)' inside another)")
        #expect(
            message(properties: ["carrier", "median(distance)"])
                == "properties: unknown function 'median'; aggregates are count, sum, avg, min and max at column 1")
        // SQL's `month(x)` names the key that reads a date's month, in a property and a group.
        #expect(
            message(properties: ["month(time_hour) AS m", "count(*)"], group: ["m"]).hasPrefix(
                "properties: a date's month is written time_hour.month, not month(time_hour)"))
        #expect(message(group: ["year(time_hour)"]).hasPrefix("group: a date's year is written time_hour.year, not year(time_hour)"))
        // A misspelt plain key keeps its suggestion.
        #expect(message(properties: ["carier", "count(*)"]).hasPrefix("properties: unknown key 'carier' on entity Flight"))
        // A to-one named as a property is a relationship, not an unknown key: one of its
        // keys is shown (a Core Data habit, propertiesToFetch with a relationship).
        if try context.entity(named: "Flight").relationship(named: "airline") == nil {
            _ = try context.relate("Flight", "carrier", "Airline", "carrier")
        }
        let related = message(properties: ["airline", "count(*)"], group: ["airline"])
        #expect(
            related == "properties: 'airline' is a relationship of entity Flight, not a key of values; name one of its keys, as airline.carrier",
            "\(related)")
    }
}

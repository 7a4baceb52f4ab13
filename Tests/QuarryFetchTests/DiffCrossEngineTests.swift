import Foundation
import QuarryFetch
import QuarryModel
import QuarryStore
import QuarryTestSupport
import Testing

/// `StoreDiff` across engines: the same flights in a SQLite file and in a PostgreSQL
/// database (the tests' server, which must start: the test fails, never skips, without
/// it), ten rows changed on the server. Both sides are read in key order in their own SQL
/// and merged in Swift, so the ten changes come back and nothing else.
@Suite struct DiffCrossEngineTests {
    static let flight = EntityDescription(
        name: "Flight",
        attributes: [
            AttributeDescription(name: "carrier", type: .string), AttributeDescription(name: "flight", type: .int64),
            AttributeDescription(name: "dep_delay", type: .double, isOptional: true), AttributeDescription(name: "dest", type: .string)
        ])

    static func fill(_ context: ObjectContext) throws {
        try context.define(flight)
        for i in 1...200 {
            _ = try context.insert(
                into: "Flight",
                values: [
                    "carrier": .text(["UA", "AA", "B6", "DL"][i % 4]), "flight": .integer(Int64(i)),
                    "dep_delay": i % 7 == 0 ? .null : .real(Double(i % 13) - 2.5), "dest": .text("D\(i % 17)")
                ])
        }
        try context.save()
    }

    @Test func theSameFlightsInSQLiteAndPostgreSQLDifferByTheTenRowsChanged() async throws {
        let file = try await EngineUnderTest.sqlite.freshStore("difffile")
        let server = try await EngineUnderTest.postgres.freshStore("diffserver")
        defer {
            file.close()
            server.close()
        }
        let a = try file.session()
        let b = try server.session()
        try Self.fill(a)
        try Self.fill(b)
        #expect(try StoreDiff.compare(a, b).isEmpty)
        var expected: [ObjectChange] = []
        for key in stride(from: 5, through: 200, by: 20) {
            let object = try #require(try b.object(entityName: "Flight", primaryKey: Int64(key)))
            let old = try object.value(forKey: "dest")
            try object.setValue(.text("CHANGED"), forKey: "dest")
            expected.append(ObjectChange(.changed, entity: "Flight", key: [.integer(Int64(key))], property: "dest", old: old, new: .text("CHANGED")))
        }
        try b.save()
        let diff = try StoreDiff.compare(a, b)
        #expect(diff.model.isEmpty, "\(diff.model.changes)")
        #expect(diff.changes == expected, "\(diff.changes)")
        #expect(try StoreDiff.compare(b, b).isEmpty)
    }

    /// The flights themselves, every column (numbers, nils, text, the `time_hour` dates),
    /// imported into a SQLite file and a PostgreSQL schema from the same CSV: the first
    /// 20,000 rows, which keeps the suite's time (the whole table is `scripts/bench`'s line
    /// 15, on two SQLite files). Ten rows changed on the server in columns of four types
    /// come back, and nothing else: no value reads differently across the engines.
    @Test func theFlightsImportedIntoBothEnginesDifferByTheTenRowsChanged() async throws {
        let file = try await EngineUnderTest.sqlite.freshStore("diffflightsfile")
        let server = try await EngineUnderTest.postgres.freshStore("diffflightsserver")
        defer {
            file.close()
            server.close()
        }
        let lines = try String(contentsOfFile: try SharedData.path("nycflights13/flights.csv"), encoding: .utf8).split(
            separator: "\n", maxSplits: 20_001)
        let csv = file.file("flights20k.csv")
        try (lines.prefix(20_001).joined(separator: "\n") + "\n").write(toFile: csv, atomically: true, encoding: .utf8)
        let a = try file.session()
        let b = try server.session()
        #expect(try ImportRequest(csv, into: "Flight").execute(in: a).rows == 20_000)
        #expect(try ImportRequest(csv, into: "Flight").execute(in: b).rows == 20_000)
        #expect(try StoreDiff.compare(a, b).isEmpty)
        var expected: [ObjectChange] = []
        let changes: [(String, Value)] = [
            ("dep_delay", .integer(999)), ("tailnum", .text("N0CHANGE")), ("time_hour", .date(400_000_000)), ("distance", .integer(1))
        ]
        for (n, key) in stride(from: 7, through: 20_000, by: 2_000).enumerated() {
            let object = try #require(try b.object(entityName: "Flight", primaryKey: Int64(key)))
            let (property, value) = changes[n % changes.count]
            let old = try object.value(forKey: property)
            try object.setValue(value, forKey: property)
            expected.append(ObjectChange(.changed, entity: "Flight", key: [.integer(Int64(key))], property: property, old: old, new: value))
        }
        try b.save()
        let diff = try StoreDiff.compare(a, b)
        #expect(diff.model.isEmpty, "\(diff.model.changes)")
        #expect(diff.changes.count == 10)
        #expect(diff.changes == expected, "\(diff.changes.prefix(12))")
    }
}

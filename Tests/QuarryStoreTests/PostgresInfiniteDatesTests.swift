import Foundation
import QuarryModel
import QuarryPostgreSQL
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryStore

/// PostgreSQL's infinite times (issue 81): a `timestamptz` `'-infinity'`, a float8
/// `-Infinity` or a count of -2^63 under a time layout (which the server reads as
/// `-infinity`), and their positive twins, read as dates of infinite seconds, so memory
/// orders them where the server's SQL does (before and after every date), as
/// `PredicateEvaluation.compare` orders dates: by their seconds, a text after them all.
@Suite struct PostgresInfiniteDatesTests {
    @Test func infiniteTimesOrderInMemoryAsTheServerOrdersThem() throws {
        let url = try PostgresServer.database("infinite")
        let setup = try PostgresConnection(url: url)
        try setup.execute("CREATE TABLE ev (id int PRIMARY KEY, n bigint, f float8, t timestamptz, d date)")
        try setup.execute(
            """
            INSERT INTO ev VALUES
              (1, -9223372036854775808, '-Infinity', '-infinity', '-infinity'),
              (2, 1000000000, 1000000000.5, '2001-09-09 01:46:40+00', '2001-09-09'),
              (3, 9223372036854775807, 'Infinity', 'infinity', 'infinity'),
              (4, -1000000000, -1000000000.5, '1938-04-24 22:13:20+00', '1938-04-24')
            """)
        let context = try StoreRegistry.open(url)
        // Not sampled: the unit checks refuse the counts at the ends, as they should.
        try context.declareFormat("ev", "n", "unix", sampled: false)
        try context.declareFormat("ev", "f", "unix-real", sampled: false)
        let entity = try context.entity(named: "ev")
        let storage = context.mapped(entity)
        let objects = try (1...4).map { try #require(try context.object(entityName: "ev", primaryKey: Int64($0))) }
        #expect(try objects[0].value(forKey: "t") == .date(-.infinity))
        #expect(try objects[2].value(forKey: "n") == .date(.infinity))

        // Memory's order: numbers and dates by value, text after them (SQLite's order).
        func before(_ a: Value, _ b: Value) -> Bool {
            switch (a, b) {
            case (.date(let x), .date(let y)): return x < y
            case (.date, _): return true
            default: return false
            }
        }
        let bounds: [Double] = [-210_866_803_200, 0, 1_000_000_000.25, 9_224_318_015_999]
        for column in ["t", "n", "f", "d"] {
            let selected = "(SELECT \(storage.keyColumn) AS id, \(storage.selected(column, of: entity)) FROM \(storage.table)) AS s"
            let sqlOrder = try context.connection.rows("SELECT id FROM \(selected) ORDER BY s.\(column), id").map { $0[0] }
            let values = try objects.map { try $0.value(forKey: column) }
            let memoryOrder = zip(1...4, values).sorted { before($0.1, $1.1) || (!before($1.1, $0.1) && $0.0 < $1.0) }
                .map { Value.integer(Int64($0.0)) }
            #expect(memoryOrder == sqlOrder, "\(column): memory orders \(values) as \(memoryOrder), SQL as \(sqlOrder)")
            for bound in bounds {
                for (op, holds) in [("<", { (x: Double) in x < bound }), (">", { (x: Double) in x > bound })] {
                    // The bound a timestamptz, as the predicates bind a date (a bare parameter
                    // beside a `date` column would be read as a day).
                    let sql = try context.connection.rows(
                        "SELECT count(*) FROM \(selected) WHERE s.\(column) \(op) CAST(? AS timestamptz)", arguments: [.date(bound)])
                    let memory = values.filter { if case .date(let x) = $0 { return holds(x) } else { return op == ">" } }.count
                    #expect(sql == [[.integer(Int64(memory))]], "\(column) \(op) \(bound): SQL \(sql), memory \(memory)")
                }
            }
        }
    }

    /// A statement a person wrote (`sql()`) shows them as the server writes them, as it
    /// did when they read as text (a date of infinite seconds has no calendar day).
    @Test func sqlShowsInfiniteTimesAsTheServerWritesThem() throws {
        let connection = try PostgresConnection(url: try PostgresServer.database("infinitesql"))
        let sql = "SELECT '-infinity'::timestamptz, 'infinity'::timestamp, '-infinity'::date, '2001-09-09'::date"
        var shown: [Value] = []
        try connection.withRows(sql, numbered: true) { rows in
            while try rows.step() { shown = (0..<Int32(rows.columnCount)).map { rows.value($0) } }
        }
        #expect(shown == [.text("-infinity"), .text("infinity"), .text("-infinity"), .text("2001-09-09")])
    }
}

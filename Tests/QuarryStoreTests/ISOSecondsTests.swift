import Foundation
import GRDB
import QuarryEngine
import QuarryModel
import Testing

@testable import QuarrySQLite
@testable import QuarryStore

/// `quarry_iso_seconds` (text_date.c), the C reading of ISO text a foreign file's date
/// column compares through: for the forms it takes, the same double as
/// `round((julianday(x) - 2440587.5) * 86400000.0) / 1000.0`; for every other value
/// NULL, and the column's whole reading (`SQLiteDialect.converted`) as it was with
/// julianday() alone.
@Suite struct ISOSecondsTests {
    static let throughJulianDay = "round((julianday(?1) - 2440587.5) * 86400000.0) / 1000.0"

    static func answers(_ values: [DatabaseValue], _ sql: String) throws -> [DatabaseValue] {
        let connection = try StoreConnection.openingSQLite(path: nil, readOnly: false, functions: [])
        defer { connection.close() }
        return try connection.read { db in
            let statement = try db.makeStatement(sql: sql)
            return try values.map { value in try DatabaseValue.fetchOne(statement, arguments: [value]) ?? .null }
        }
    }

    /// Random text of the forms the C reading takes, every part's range walked.
    static func commonForms(count: Int) -> [String] {
        var generator = SystemRandomNumberGenerator()
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return (0..<count).map { i in
            let year = Int.random(in: 0...9999, using: &generator)
            var text = String(repeating: "0", count: 4 - String(year).count) + "\(year)"
            text += "-" + two(Int.random(in: 1...12, using: &generator)) + "-" + two(Int.random(in: 1...31, using: &generator))
            guard i % 7 != 0 else { return text }
            text += (i % 2 == 0 ? "T" : " ") + two(Int.random(in: 0...24, using: &generator)) + ":" + two(Int.random(in: 0...59, using: &generator))
            if i % 5 != 0 {
                text += ":" + two(Int.random(in: 0...59, using: &generator))
                let places = Int.random(in: 0...22, using: &generator)
                if places > 0 { text += "." + String((0..<places).map { _ in "0123456789".randomElement(using: &generator) ?? "0" }) }
            }
            if i % 3 == 0 { text += i % 2 == 0 ? "Z" : "z" }
            return text
        }
    }

    static let edges = [
        "1970-01-01", "1969-12-31T23:59:59.5", "1969-12-31T23:59:59.4995", "2024-02-29 12:00", "2023-02-30", "2023-04-31T00:00:00Z",
        "0000-01-01", "0000-01-01T00:00:00.0005", "9999-12-31T23:59:59.9999999999", "9999-12-31T24:00", "2013-01-01T10:00:00Z",
        "2022-07-21 20:28:54.735", "2022-07-21 20:28:54.7355", "2022-07-21 20:28:54.99999999999999999999999", "2000-01-01T00:00:00.000000001"
    ]

    @Test func theCommonFormsReadAsJulianDayReadsThem() throws {
        let texts = Self.commonForms(count: 20_000) + Self.edges
        let values = texts.map(\.databaseValue)
        let fast = try Self.answers(values, "SELECT quarry_iso_seconds(?1)")
        let slow = try Self.answers(values, "SELECT \(Self.throughJulianDay)")
        for (i, text) in texts.enumerated() {
            guard case .double(let seconds) = fast[i].storage else {
                #expect(slow[i].isNull, "\(text): quarry_iso_seconds gave \(fast[i]), julianday() \(slow[i])")
                continue
            }
            guard case .double(let expected) = slow[i].storage else {
                #expect(fast[i].isNull, "\(text): \(fast[i]) in C, \(slow[i]) through julianday()")
                continue
            }
            #expect(seconds.bitPattern == expected.bitPattern, "\(text): \(seconds) in C, \(expected) through julianday()")
        }
        // The C reading took them: every one julianday() reads (all but the edges past 9999).
        #expect(fast.filter { !$0.isNull }.count >= texts.count - 2)
    }

    @Test func anythingElseIsLeftToJulianDay() throws {
        let texts = [
            "2013", "12:30", "12:30:00", "now", "2013-01-01T10:00:00+01:00", "2013-01-01 10:00:00-0500", " 2013-01-01", "2013-01-01 ",
            "2013-01-01T", "2013-01-01TT10:00", "2013-01-01T10", "2013-01-01T10:00:", "2013-01-01T10:00:00.", "2013/01/01", "2013-13-01",
            "2013-00-10", "2013-01-32", "2013-01-01T25:00", "2013-01-01T10:60", "2013-01-01T10:00:60", "-2013-01-01", "20130101",
            "2013-01-01Z", "2013-01-01T10:00ZZ", "2013-1-01", "", "2013-01-01T10:00:00." + String(repeating: "9", count: 400)
        ]
        let values = texts.map(\.databaseValue) + [42.databaseValue, 1.5.databaseValue, .null, Data("2013-01-01".utf8).databaseValue]
        let fast = try Self.answers(values, "SELECT quarry_iso_seconds(?1)")
        for (i, answer) in fast.enumerated() { #expect(answer.isNull, "\(values[i]): \(answer), NULL expected") }
    }

    /// The column's reading in SQL gives what it gave before the C reading, for both kinds.
    @Test func aDateColumnReadsAsBefore() throws {
        let dialect = SQLiteDialect()
        let texts =
            Self.commonForms(count: 2_000) + Self.edges + [
                "2013", "12:30", "2022-07-21 20:28:54.735+0800", "2022-07-21 20:28:54+08", "20180903", "20180903T141500Z", "x"
            ]
        let values = texts.map(\.databaseValue) + [1_356_998_400.databaseValue, 1.5.databaseValue, .null]
        let before =
            "(CASE WHEN typeof(?1) = 'text' THEN round((julianday(\(SQLiteDialect.colonOffset("?1"))) - 2440587.5) * 86400000.0) / 1000.0 "
            + "WHEN typeof(?1) = 'blob' THEN NULL ELSE ?1 END)"
        let now = try Self.answers(values, "SELECT \(dialect.converted("?1", .looseDate(nil)))")
        let then = try Self.answers(values, "SELECT \(before)")
        for (i, value) in values.enumerated() where now[i] != then[i] {
            Issue.record("\(value): \(now[i]) now, \(then[i]) before")
        }
        #expect(now.filter { $0.isNull }.count >= 3)
    }
}

import Foundation
import GRDB
import QuarryEngine
import QuarryModel
import Testing

@testable import QuarrySQLite
@testable import QuarryStore

/// `quarry_iso_seconds` (text_date.c), how SQL reads a foreign file's date column of ISO
/// text: for every text, what memory reads (`AttributeType.decode`), to the bit, and NULL
/// where memory finds no date, so a comparison in SQL and in memory agree on every cell;
/// for the forms SQLite's julianday() reads too, the double julianday() gives.
@Suite struct ISOSecondsTests {
    static func answers(_ values: [DatabaseValue], _ sql: String) throws -> [DatabaseValue] {
        let connection = try StoreConnection.openingSQLite(path: nil, readOnly: false, functions: [])
        defer { connection.close() }
        return try connection.read { db in
            let statement = try db.makeStatement(sql: sql)
            return try values.map { value in try DatabaseValue.fetchOne(statement, arguments: [value]) ?? .null }
        }
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// Random ISO text, every part's range walked past what either reader takes: hour 24,
    /// day 31 of every month, second 60, long fractions, `z`, offsets of three forms.
    static func texts(count: Int, strict: Bool, using generator: inout some RandomNumberGenerator) -> [String] {
        (0..<count).map { i in
            let year = strict ? Int.random(in: 1...9999, using: &generator) : Int.random(in: 0...9999, using: &generator)
            var text = String(repeating: "0", count: 4 - String(year).count) + "\(year)"
            let day = strict ? Int.random(in: 1...28, using: &generator) : Int.random(in: 1...31, using: &generator)
            text += "-" + two(Int.random(in: 1...12, using: &generator)) + "-" + two(day)
            guard i % 7 != 0 else { return text }
            let hour = strict ? Int.random(in: 0...23, using: &generator) : Int.random(in: 0...24, using: &generator)
            text += (i % 2 == 0 ? "T" : " ") + two(hour) + ":" + two(Int.random(in: 0...59, using: &generator))
            if i % 5 != 0 {
                text += ":" + two(strict ? Int.random(in: 0...59, using: &generator) : Int.random(in: 0...60, using: &generator))
                let places = Int.random(in: 0...24, using: &generator)
                if places > 0 { text += "." + String((0..<places).map { _ in "0123456789".randomElement(using: &generator) ?? "0" }) }
            }
            switch (strict, i % 6) {
            case (_, 0): text += "Z"
            case (false, 1): text += "z"
            case (false, 2): text += (i % 4 == 0 ? "+" : "-") + two(Int.random(in: 0...14, using: &generator)) + ":30"
            case (false, 3): text += "+0" + String(Int.random(in: 0...9, using: &generator)) + "00"
            case (false, 4): text += "-" + two(Int.random(in: 0...14, using: &generator))
            default: break
            }
            return text
        }
    }

    /// Each text changed at one random byte (replaced, dropped, or doubled).
    static func mutated(_ texts: [String], using generator: inout some RandomNumberGenerator) -> [String] {
        let bytes: [UInt8] = Array("0123456789-:.TZz+ tx\u{0}".utf8)
        return texts.map { text in
            var b = Array(text.utf8)
            let at = Int.random(in: 0..<b.count, using: &generator)
            switch Int.random(in: 0...2, using: &generator) {
            case 0: b[at] = bytes.randomElement(using: &generator) ?? 48
            case 1: b.remove(at: at)
            default: b.insert(b[at], at: at)
            }
            return String(decoding: b, as: UTF8.self)
        }
    }

    static let edges = [
        "1970-01-01", "1969-12-31T23:59:59.5", "1969-12-31T23:59:59.4995", "2024-02-29 12:00", "2023-02-29", "2023-04-31T00:00:00Z",
        "0000-01-01", "0000-01-01T00:00:00.0005", "9999-12-31T23:59:59.9999999999", "9999-12-31T23:59:59.9995", "9999-12-31T24:00",
        "2022-07-21 20:28:54.735+0800", "2022-07-21 20:28:54+08", "2022-07-21T20:28:54.735+08:00", "2021-01-01-12", "2021-01-01+0100",
        "2022-07-21 20:28:54.99999999999999999999999", "2013-01-01T10:00:00." + String(repeating: "9", count: 400), "20180903",
        "20180903T141500", "20180903T141500Z", "20180931", "2018090", "2013", "12:30", "now", " 2013-01-01", "2013-01-01 ",
        "2013-01-01T", "2013-01-01TT10:00", "2013-01-01T10", "2013-01-01T10:00:", "2013-01-01T10:00:00.", "2013/01/01", "-2013-01-01",
        "2013-01-01Z", "2013-1-01", "", "x"
    ]

    @Test func everyTextReadsAsMemoryReadsIt() throws {
        var generator = SystemRandomNumberGenerator()
        let common = Self.texts(count: 20_000, strict: false, using: &generator)
        let texts = common + Self.mutated(common, using: &generator) + Self.edges
        // Bound as bytes and cast to text, which keeps a NUL inside (bound as text, a
        // string would end at it, as no cell of a file does).
        let answers = try Self.answers(texts.map { Data($0.utf8).databaseValue }, "SELECT quarry_iso_seconds(CAST(?1 AS TEXT))")
        var dates = 0
        for (text, answer) in zip(texts, answers) {
            switch (AttributeType.date.decode(.text(text)), answer.storage) {
            case (.date(let memory), .double(let sql)):
                dates += 1
                #expect(sql.bitPattern == memory.bitPattern, "\(text): \(sql) in SQL, \(memory) in memory")
            case (.date(let memory), _): Issue.record("SQL gives \(answer) for \(text.debugDescription), memory \(memory)")
            case (_, .null): break
            case (let memory, _): Issue.record("SQL gives \(answer) for \(text.debugDescription), memory no date (\(memory))")
            }
        }
        // Most of the generated texts are dates, and many are not (the mutations).
        #expect(dates > 15_000 && dates < texts.count - 5_000)
    }

    @Test func theFormsJulianDayReadsTooGiveItsDouble() throws {
        var generator = SystemRandomNumberGenerator()
        let texts = Self.texts(count: 20_000, strict: true, using: &generator)
        let values = texts.map(\.databaseValue)
        let c = try Self.answers(values, "SELECT quarry_iso_seconds(?1)")
        let julian = try Self.answers(values, "SELECT round((julianday(?1) - 2440587.5) * 86400000.0) / 1000.0")
        for (i, text) in texts.enumerated() {
            guard case .double(let seconds) = c[i].storage, case .double(let expected) = julian[i].storage else {
                Issue.record("\(text): \(c[i]) in C, \(julian[i]) through julianday()")
                continue
            }
            #expect(seconds.bitPattern == expected.bitPattern, "\(text): \(seconds) in C, \(expected) through julianday()")
        }
    }

    @Test func otherValuesAreNoDate() throws {
        let values = [42.databaseValue, 1.5.databaseValue, .null, Data("2013-01-01".utf8).databaseValue]
        for answer in try Self.answers(values, "SELECT quarry_iso_seconds(?1)") { #expect(answer.isNull) }
        // The SQL `explain()` shows for such a comparison runs in `sql()`.
        #expect(SQLFunctions.allowed(storeOwn: []).contains("quarry_iso_seconds"))
    }
}

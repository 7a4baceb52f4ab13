import Foundation
import GRDB
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// A date attribute's parts (`start.year`, `.month`, `.day`, `.hour`, `.weekday`, `.date`)
/// and the seconds between two dates (issue 85, item 9): SQL (`strftime` of the whole
/// second) and memory (`DatePart`, for `p:matches`, observers and unsaved objects) give the
/// same value for every row, on dates at the edges (before 1970, leap days, a year's last
/// millisecond, a fraction of a second before midnight, the years 0001 and 9999), and both
/// give Foundation's Gregorian calendar's answer in UTC (weekday 1 is Sunday).
@Suite struct DatePartDifferentialTests {
    static let edges: [Double] = [
        0, -1, -0.0001, 86_399.9999, 86_400, -86_400.5,
        951_868_799.9996, 951_868_799.999, 951_868_800, // the end of 2000-02-29
        946_684_799.999, 946_684_800, // 1999 into 2000
        -310_478_400, -2_203_891_200, -2_203_891_200.0001, // 1960-02-29 noon, 1900-03-01
        1_356_998_400, 1_709_183_167.5, 4_107_542_399.75, -11_670_915_600, // 2013, 2024-02-29, 2100-02-28, 1600-02-29
        -62_135_596_800, -62_135_596_799.5, 253_402_300_799, 253_402_300_799.999 // the years 0001 and 9999
    ]

    static let parts = DatePart.allCases

    /// `seconds` kept within the years a date may have (0001 to 9999).
    static func within(_ seconds: Double) -> Double { min(max(seconds, Value.dateRange.lowerBound), Value.dateRange.upperBound) }

    /// A store with `Ev` (two dates) and `Person` (one, reached through `owner`).
    static func store() throws -> ObjectContext {
        let context = try StoreOpener.open(nil)
        try context.define(
            EntityDescription(
                name: "Person", attributes: [AttributeDescription(name: "born", type: .date, isOptional: true)]))
        try context.define(
            EntityDescription(
                name: "Ev",
                attributes: [
                    AttributeDescription(name: "start", type: .date, isOptional: true),
                    AttributeDescription(name: "end", type: .date, isOptional: true)
                ],
                relationships: [RelationshipDescription(name: "owner", destination: "Person", inverse: "evs", isToMany: false)]))
        return context
    }

    /// Foundation's answer for a part of `seconds`, in UTC (its Gregorian calendar is
    /// Julian before 1582, so only later dates are asked).
    static func calendar(_ part: DatePart, _ seconds: Double) -> Value {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date(timeIntervalSince1970: seconds.rounded(.down))
        switch part {
        case .year: return .integer(Int64(calendar.component(.year, from: date)))
        case .month: return .integer(Int64(calendar.component(.month, from: date)))
        case .day: return .integer(Int64(calendar.component(.day, from: date)))
        case .hour: return .integer(Int64(calendar.component(.hour, from: date)))
        case .weekday: return .integer(Int64(calendar.component(.weekday, from: date)))
        case .date: return .date(calendar.startOfDay(for: date).timeIntervalSince1970)
        }
    }

    @Test func sqlMemoryAndFoundationReadTheSameParts() throws {
        let context = try Self.store()
        var rng = SplitMix64(seed: 85_009)
        let times = Self.edges + (0..<300).map { _ in Double(rng.int(-12_000_000_000...9_000_000_000)) + Double(rng.int(0...7)) / 8 }
        let people = try times.prefix(40).map { try context.insert(into: "Person", values: ["born": .date($0)]) }
        var objects: [ManagedObject] = []
        for (k, t) in times.enumerated() {
            let end: Value = k % 9 == 0 ? .null : .date(Self.within(t + Double(rng.int(-100_000...100_000)) / 4))
            let o = try context.insert(into: "Ev", values: ["start": .date(t), "end": end])
            if k % 5 != 0 { try context.setRelatedObject(people[k % people.count], "owner", of: o) }
            objects.append(o)
        }
        objects.append(try context.insert(into: "Ev", values: [:]))
        try context.save()
        let ev = try context.entity(named: "Ev")
        let all = objects
        var checked = 0
        for key in ["start", "owner.born"] {
            for part in Self.parts {
                let bound = try BoundExpression(
                    PredicateParser.parseExpression("\(key).\(part.rawValue)"), entity: ev, context: context)
                var joins = ToOneJoins(root: quoteIdentifier("Ev"))
                let fragment = bound.sql(joins: &joins, dialect: SQLiteDialect())
                let bySQL = try context.connection.read { db in
                    try Row.fetchAll(
                        db, sql: "SELECT \"Ev\"._pk, \(fragment.sql) FROM \"Ev\"\(joins.sql)",
                        arguments: StatementArguments(fragment.arguments.map(\.databaseValue)))
                }
                let sqlValues = Dictionary(
                    uniqueKeysWithValues: bySQL.map { row -> (Int64, Value) in
                        let raw: DatabaseValue = row[1]
                        let value: Value
                        switch raw.storage {
                        case .int64(let i): value = part.type.decode(.integer(i))
                        case .double(let d): value = part.type.decode(.real(d))
                        default: value = .null
                        }
                        return (row[0], value)
                    })
                for object in all {
                    let date: Value
                    if key == "start" {
                        date = try object.value(forKey: "start")
                    } else {
                        date = try context.relatedObject("owner", of: object).map { try $0.value(forKey: "born") } ?? .null
                    }
                    let memory = part.value(of: date)
                    let sql = sqlValues[object.primaryKey ?? -1] ?? .null
                    #expect(sql == memory, "\(key).\(part) of \(date): SQL \(sql), memory \(memory)")
                    if case .date(let seconds) = date, seconds > -12_000_000_000 {
                        #expect(memory == Self.calendar(part, seconds), "\(key).\(part) of \(Value.iso8601(seconds))")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 2 * Self.parts.count * 200)
    }

    /// Predicates on parts and on differences select in SQL the objects `matches` selects,
    /// saved and not yet saved.
    @Test func predicatesOnPartsSelectAsMatchesDoes() throws {
        let context = try Self.store()
        let ev = try context.entity(named: "Ev")
        var rng = SplitMix64(seed: 85_091)
        let person = try context.insert(into: "Person", values: ["born": .date(951_868_799.9996)])
        var saved: [ManagedObject] = []
        for (k, t) in Self.edges.enumerated() {
            let o = try context.insert(into: "Ev", values: ["start": .date(t), "end": .date(Self.within(t - Double(k * 997) / 8))])
            if k % 2 == 0 { try context.setRelatedObject(person, "owner", of: o) }
            saved.append(o)
        }
        try context.save()
        var unsaved: [ManagedObject] = []
        for _ in 0..<40 {
            let t = Double(rng.int(-3_000_000_000...3_000_000_000)) + 0.9999
            unsaved.append(try context.insert(into: "Ev", values: ["start": .date(t), "end": .date(t - 7200.5)]))
        }
        let cases: [(String, [Value])] = [
            ("start.year == 2000", []), ("start.year < 1970", []), ("start.month == 2 AND start.day == 29", []),
            ("start.day == 31", []), ("start.hour == 23", []), ("start.hour >= 12", []), ("start.weekday == 1", []),
            ("start.weekday IN {1, 7}", []), ("start.date == %@", [.date(951_782_400)]), ("start.date < start", []),
            ("start.date == CAST('1999-12-31', 'NSDate')", []), ("start.year == 9999 OR start.year == 1", []),
            ("owner.born.day == 29", []), ("owner.born.date == %@", [.date(951_782_400)]), ("start.year * 100 + start.month > 200002", []),
            ("start - end > 1000", []), ("end - start < 0", []), ("start - %@ >= 0", [.date(0)]), ("%@ - start > 86400", [.date(0)]),
            ("end - start == 0", []), ("start.month BETWEEN {2, 3}", [])
        ]
        for (format, args) in cases {
            let bound = try BoundPredicate(
                try PredicateParser.parse(format, arguments: PredicateArguments(args)), entity: ev, context: context)
            var joins = ToOneJoins(root: quoteIdentifier("Ev"))
            let fragment = bound.sql(joins: &joins, dialect: SQLiteDialect())
            let bySQL = Set(
                try context.connection.read { db in
                    try Int64.fetchAll(
                        db, sql: "SELECT \"Ev\"._pk FROM \"Ev\"\(joins.sql) WHERE \(fragment.sql)",
                        arguments: StatementArguments(fragment.arguments.map(\.databaseValue)))
                })
            let inMemory = Set(saved.filter { bound.matches($0) }.compactMap(\.primaryKey))
            #expect(bySQL == inMemory, "\(format): SQL \(bySQL.sorted()), memory \(inMemory.sorted())")
            #expect(!bySQL.isEmpty && bySQL.count < saved.count, "\(format) selects \(bySQL.count) of \(saved.count)")
            // Unsaved objects are tested in memory; saved, SQL gives the same answer.
            let before = unsaved.map { bound.matches($0) }
            try context.save()
            let pks = Set(
                try context.connection.read { db in
                    try Int64.fetchAll(
                        db, sql: "SELECT \"Ev\"._pk FROM \"Ev\"\(joins.sql) WHERE \(fragment.sql)",
                        arguments: StatementArguments(fragment.arguments.map(\.databaseValue)))
                })
            #expect(unsaved.map { pks.contains($0.primaryKey ?? -1) } == before, "\(format) on objects saved since")
            for o in unsaved { try context.delete(o) }
            try context.save()
            unsaved = try (0..<40).map { _ in
                let t = Double(rng.int(-3_000_000_000...3_000_000_000)) + 0.9999
                return try context.insert(into: "Ev", values: ["start": .date(t), "end": .date(t - 7200.5)])
            }
        }
    }

    /// Names that are no part, and parts of what is no date, are refused in one line.
    @Test func refusals() throws {
        let context = try Self.store()
        let ev = try context.entity(named: "Ev")
        func message(_ format: String) -> String {
            do {
                _ = try BoundPredicate(try PredicateParser.parse(format, arguments: PredicateArguments([])), entity: ev, context: context)
                return "accepted"
            } catch let error as QuarryPredicates.PredicateError {
                return error.message + (error.suggestion.map { " (did you mean '\($0)'?)" } ?? "")
            } catch {
                return "\(error)"
            }
        }
        #expect(message("start.minute == 3").contains("'start' is a date, whose parts are year, month, day, hour, weekday, date"))
        #expect(message("start.yaer == 3").contains("did you mean 'year'?"))
        #expect(message("start + 1 > 3").contains("of dates arithmetic takes only a difference"))
        #expect(message("end - start > start").contains("is a number and cannot be compared"))
    }
}

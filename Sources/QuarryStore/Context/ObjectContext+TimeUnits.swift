import Foundation
import QuarryModel

/// Which unit another program's numbers of times are in, read from the numbers
/// themselves (issue 85, item 1): Unix seconds, milliseconds and the rest read the same
/// number as dates thousands of years apart, and a wrong guess (seconds for
/// milliseconds: the year 56048) made every comparison with a date false, silently.
extension ObjectContext {
    /// How many of a column's numbers are read to tell its unit: a bounded read.
    static let unitSample = 200
    /// A unit "reads the values near today" when it puts every sampled number within
    /// this many seconds (50 years) of now: what an application's times are.
    static let nearToday = 50.0 * 365.25 * 86_400
    /// A declared unit is refused, where another reads the values near today, when it
    /// reads one of them further from today than this (200 years: a count since 1601
    /// misread), or reads them all within `nearEpoch` (about three years) of 1970.
    static let farFromToday = 200.0 * 365.25 * 86_400
    static let nearEpoch = 1e8

    /// Up to `unitSample` values of `column` that are not nil, as stored.
    func sampledValues(_ entity: EntityDescription, _ column: String) -> [Value] {
        let name = quoteIdentifier(column)
        let sql = "SELECT \(name) FROM \(mapped(entity).table) WHERE \(name) IS NOT NULL LIMIT \(Self.unitSample)"
        return ((try? connection.rows(sql)) ?? []).compactMap(\.first)
    }

    /// The numbers among `sampledValues`.
    func sampledNumbers(_ entity: EntityDescription, _ column: String) -> [Value] {
        sampledValues(entity, column).compactMap { value -> Value? in
            switch value {
            case .integer(let i): return .integer(i)
            case .real(let d): return .real(d)
            case .decimal(let text): return Double(text).map(Value.real)
            default: return nil
            }
        }
    }

    /// `value` read as a time in `format`'s unit: seconds since 1970, nil for none.
    static func seconds(_ value: Value, as format: ColumnFormat) -> Double? {
        let scale = format.numericDateScale ?? .unixSeconds
        switch value {
        case .integer(let i): return scale.seconds(i)
        case .real(let d): return scale.seconds(d)
        default: return nil
        }
    }

    /// The time layout (of those a number column takes) that reads every one of `values`
    /// near today, the nearest first, with its reading of the first; nil when none does.
    static func layoutNearToday(_ values: [Value], type: AttributeType) -> (name: String, reading: String)? {
        guard let first = values.first, !digitDays(values) else { return nil }
        let now = Date().timeIntervalSince1970
        var best: (name: String, reading: String, distance: Double)?
        // `unix-real` reads as `unix` does: one name for the unit, the one its type shows.
        let names = ColumnFormat.numberTimeNames.filter { $0 != (type == .double ? "unix" : "unix-real") }
        for name in names {
            guard let format = ColumnFormat(name: name), format.fits(type) else { continue }
            let readings = values.map { seconds($0, as: format) }
            guard readings.allSatisfy({ $0.map { abs($0 - now) <= nearToday } ?? false }) else { continue }
            let distance = readings.compactMap { $0 }.map { abs($0 - now) }.reduce(0, +) / Double(readings.count)
            if best.map({ distance < $0.distance }) ?? true,
                let reading = seconds(first, as: format).map(Value.iso8601)
            {
                best = (name, reading, distance)
            }
        }
        return best.map { ($0.name, $0.reading) }
    }

    /// Why `entity`'s key `column` stays a number under a time layout, and what works
    /// instead: the number a date is in `format`'s unit, in Lua, or `sql()`. Nil for any
    /// other column. `format()` refuses with it, and a hint that would offer `format()`
    /// for the key (`id.year` on Anki's `revlog.id`, milliseconds) gives it instead.
    public func keyTimeAdvice(_ entity: EntityDescription, _ column: String, as format: ColumnFormat) -> String? {
        guard column.caseInsensitiveCompare(mapped(entity).keyColumn) == .orderedSame else { return nil }
        let number: String
        switch (format.numericDateScale ?? .unixSeconds).unit {
        case .count(let n, let epoch): number = "(date(\"2021-11-01\") - date(\(epoch)))" + (n == 1 ? "" : " * \(n)")
        case .julianDay: number = "(date(\"2021-11-01\") - date(0)) / 86400 + 2440587.5"
        }
        return "\(column) is \(entity.name)'s key, which its rows are known by: it stays a number; "
            + "compare it with numbers (in \(format.name), 2021-11-01 is \(number)), or read it as a time in sql()"
    }

    /// The time layout that reads `column`'s numbers near today (see `layoutNearToday`).
    /// Whether every sampled number reads as a day written YYYYMMDD (`20180115`), as
    /// files made from CSV keep dates: seconds since 2001 read them as days of 2001 (trial
    /// 31's crime reports all went to 2001-08-22), so no unit of time is offered for them.
    public func holdsDigitDays(_ entity: EntityDescription, _ column: String) -> Bool {
        Self.digitDays(sampledNumbers(entity, column))
    }

    static func digitDays(_ values: [Value]) -> Bool {
        guard !values.isEmpty else { return false }
        return values.allSatisfy { value in
            let n: Int64
            switch value {
            case .integer(let i): n = i
            case .real(let d) where d == d.rounded() && abs(d) < 1e9: n = Int64(d)
            default: return false
            }
            return (1800...2200).contains(n / 10_000) && (1...12).contains(n / 100 % 100) && (1...31).contains(n % 100)
        }
    }

    /// What works on such a column, ready to paste.
    public static func digitDaysAdvice(_ column: String) -> String {
        "its numbers read as days written YYYYMMDD (20180115), which no unit of time reads: compare them as numbers "
            + "(\(column) >= 20180101); floor(\(column) / 10000) is the year, floor(\(column) / 100) % 100 the month"
    }

    public func timeLayoutNearToday(_ entity: EntityDescription, _ column: String) -> (name: String, reading: String)? {
        Self.layoutNearToday(sampledNumbers(entity, column), type: numberType(entity, column))
    }

    /// `timeLayoutNearToday` for a column nobody compared with a date: only when every
    /// sampled number is a million or more, as any count of time near today is (a day is
    /// 86,400 seconds), so a column of small counts (3, 4, 5: seconds after 2001 in
    /// `cocoa`) is not offered as times.
    public func likelyTimeLayout(_ entity: EntityDescription, _ column: String) -> (name: String, reading: String)? {
        let values = sampledNumbers(entity, column)
        let large = values.allSatisfy { value in
            switch value {
            case .integer(let i): return i.magnitude >= 1_000_000
            case .real(let d): return abs(d) >= 1_000_000
            default: return false
            }
        }
        // The sample read once, for both questions.
        return large ? Self.layoutNearToday(values, type: numberType(entity, column)) : nil
    }

    /// The type `column`'s numbers are read as: a declared time's, else the attribute's.
    private func numberType(_ entity: EntityDescription, _ column: String) -> AttributeType {
        mapping.numberColumnsAsDates[entity.name]?[column]?.type ?? entity.attribute(named: column)?.type ?? .double
    }

    /// Refuses to read `column`'s numbers in `format`'s unit when that puts one of them
    /// outside the years 0001 to 9999, or far from today when another unit reads them all
    /// near it: one line naming that unit and what it reads, ready to paste. The number
    /// that means "never" (`never`) is no time, and is not read.
    func refuseUnlikelyUnit(_ format: ColumnFormat, of entity: EntityDescription, _ column: String, type: AttributeType, never: Int64?) throws {
        guard format.isNumberTime else { return }
        let values = sampledNumbers(entity, column).filter { value in
            switch value {
            case .integer(let i): return i != never
            case .real(let d): return never.map { d != Double($0) } ?? true
            default: return false
            }
        }
        guard !values.isEmpty else { return }
        if Self.digitDays(values) {
            throw StoreError.invalidSchema(
                entity: entity.name, reason: "as \(format.name), \(column)'s values are no times: " + Self.digitDaysAdvice(column))
        }
        let near = Self.layoutNearToday(values, type: type)
        let now = Date().timeIntervalSince1970
        let nearSame = near.flatMap { ColumnFormat(name: $0.name) }.map {
            ($0.numericDateScale ?? .unixSeconds).unit == (format.numericDateScale ?? .unixSeconds).unit
        }
        if nearSame == true { return }
        let fix = near.map { "; as \($0.name) it reads \($0.reading): format(\"\(entity.name)\", \"\(column)\", \"\($0.name)\")" } ?? ""
        for value in values {
            guard let seconds = Self.seconds(value, as: format) else { continue }
            if !Value.dateRange.contains(seconds) {
                throw StoreError.invalidSchema(
                    entity: entity.name,
                    reason:
                        "as \(format.name), \(column)'s \(value.displayString) is a date \(seconds < 0 ? "before the year 0001" : "past the year 9999")"
                        + fix)
            }
            if near != nil, abs(seconds - now) > Self.farFromToday {
                throw StoreError.invalidSchema(
                    entity: entity.name, reason: "as \(format.name), \(column)'s \(value.displayString) reads \(Value.iso8601(seconds))" + fix)
            }
        }
        // Every time a few days or months after 1970 where another unit reads them today:
        // the sign of a unit a thousand times too fine (milliseconds for seconds).
        let readings = values.compactMap { Self.seconds($0, as: format) }
        if near != nil, let first = values.first, let seconds = readings.first, readings.allSatisfy({ abs($0) < Self.nearEpoch }) {
            throw StoreError.invalidSchema(
                entity: entity.name, reason: "as \(format.name), \(column)'s \(first.displayString) reads \(Value.iso8601(seconds))" + fix)
        }
    }

    /// The ISO 8601 layout (by the name `format()` takes, `iso-space`) most of a text
    /// column's sampled values are in, when the column is another program's that Quarry
    /// reads as text until `format()` declares it, and how many
    /// sampled values are in none: a typo among a season's dates (`2025-05-2025`) leaves
    /// the column ISO times still, which `format()` declares, saying which cells read as
    /// no date. Nil when fewer than nine in ten of the sample share one layout.
    func isoTextReading(_ entity: EntityDescription, _ column: String) -> (layout: String, others: Int, sampled: Int)? {
        guard mapped(entity).keepsAnyType else { return nil }
        let sample = sampledValues(entity, column)
        guard !sample.isEmpty, sample.allSatisfy({ if case .text = $0 { return true } else { return false } }) else { return nil }
        if case .format(let format) = ColumnFormat.detect(.date, sample: sample), case .isoText = format {
            return (format.shortName, 0, sample.count)
        }
        var counts: [String: Int] = [:]
        for value in sample {
            guard case .format(let format) = ColumnFormat.detect(.date, sample: [value]), case .isoText = format else { continue }
            counts[format.shortName, default: 0] += 1
        }
        guard let (layout, count) = counts.max(by: { $0.value < $1.value }), count * 10 >= sample.count * 9 else { return nil }
        return (layout, sample.count - count, sample.count)
    }

    /// The way forward where a date was meant of such a column (compared with a date, a
    /// date written to it, `made.year`): the `format()` that makes it one, ready to paste.
    /// One wording for every refusal that names it. Nil when its text is no ISO time.
    public func isoTextHint(_ entity: EntityDescription, _ column: String) -> String? {
        isoTextReading(entity, column).map { reading in
            let others =
                reading.others == 0
                ? ""
                : " (\(reading.others) of the \(reading.sampled) values sampled \(reading.others == 1 ? "reads" : "read") as none; it names them)"
            return "its text reads as ISO 8601 times: format(\"\(entity.name)\", \"\(column)\", \"\(reading.layout)\") makes it a date" + others
        }
    }
}

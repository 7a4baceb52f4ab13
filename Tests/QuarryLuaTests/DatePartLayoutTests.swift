import Foundation
import GRDB
import QuarryModel
import QuarryShell
import QuarryStore
import Testing

/// A date's parts (issue 85, item 9) on every layout another program keeps times in
/// (numbers of each unit that `format()` declares, Julian days, ISO text): grouped and
/// read in SQL (a dictionary request), in memory (`p:matches`, Lua's `d.year`), they give
/// Foundation's Gregorian calendar's answer in UTC for each stored time, at the edges
/// (a leap day's and a year's last millisecond, before 1970).
@Suite struct DatePartLayoutTests {
    /// Times in Unix nanoseconds, each to the millisecond (what every layout keeps).
    static let times: [Int64] = [
        951_868_799_999_000_000, 946_684_799_999_000_000, 946_684_800_000_000_000, -1_000_000,
        -310_478_400_000_000_000, 1_356_998_400_000_000_000, 1_709_183_167_500_000_000, 951_868_799_999_000_000
    ]

    static let layouts: [NumberTimeLayoutTests.Layout] =
        NumberTimeLayoutTests.layouts + [
            NumberTimeLayoutTests.Layout(
                name: "iso-space", type: "TEXT",
                stored: { ns in
                    let text = Value.iso8601(Double(NumberTimeLayoutTests.floorDiv(ns, 1_000_000)) / 1000)
                    return "'" + text.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "") + "'"
                }, seconds: "", fine: true)
        ]

    /// Foundation's answer for `part` of the time `ns` (its whole second), in UTC.
    static func calendar(_ part: DatePart, _ ns: Int64) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date(timeIntervalSince1970: Double(NumberTimeLayoutTests.floorDiv(ns, 1_000_000_000)))
        switch part {
        case .year: return String(calendar.component(.year, from: date))
        case .month: return String(calendar.component(.month, from: date))
        case .day: return String(calendar.component(.day, from: date))
        case .hour: return String(calendar.component(.hour, from: date))
        case .weekday: return String(calendar.component(.weekday, from: date))
        case .date: return Value.iso8601(calendar.startOfDay(for: date).timeIntervalSince1970)
        }
    }

    @Test(arguments: layouts) func partsAreTheCalendarsInSQLAndInMemory(_ layout: NumberTimeLayoutTests.Layout) throws {
        let rows = Self.times.enumerated().map { "(\($0.offset + 1), \(layout.stored($0.element)))" }
        let path = try foreignFile(
            """
            CREATE TABLE ev (id INTEGER PRIMARY KEY, t \(layout.type));
            INSERT INTO ev VALUES \(rows.joined(separator: ", ")), (\(Self.times.count + 1), NULL);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("format('ev', 't', '\(layout.name)')")
        #expect(h.string("typeof(ev:get(1).t)") == "date")
        for part in DatePart.allCases {
            let expected = (Self.times.map { Self.calendar(part, $0) } + ["nil"]).joined(separator: ",")
            let key = "t.\(part.rawValue)"
            // In SQL: a dictionary request's column.
            let bySQL = h.string(
                "(function() local t = {} for _, r in ipairs(fetch{ 'ev', result = 'dictionaries', properties = { 'id', '\(key)' }, sort = { 'id' } }) do t[#t + 1] = tostring(r['\(key)']) end return table.concat(t, ',') end)()"
            )
            #expect(bySQL == expected, "\(layout.name) \(key) in SQL")
            // In memory: Lua's own field, and `matches` of a predicate naming the part.
            if part != .date {
                let lua = h.string(
                    "(function() local t = {} for _, o in ipairs(fetch{ 'ev', sort = { 'id' } }) do t[#t + 1] = o.t == nil and 'nil' or tostring(o.t.\(part.rawValue)) end return table.concat(t, ',') end)()"
                )
                #expect(lua == expected, "\(layout.name) \(key) in Lua")
            }
            for value in Set(Self.times.map { Self.calendar(part, $0) }) {
                let argument = part == .date ? "date('\(value)')" : value
                let count = Self.times.filter { Self.calendar(part, $0) == value }.count
                #expect(h.string("count('ev', '\(key) == %@', \(argument))") == String(count), "\(layout.name) \(key) == \(value) in SQL")
                let matched = h.string(
                    "(function() local p, k = predicate('\(key) == %@', \(argument)), 0 for _, o in ipairs(fetch('ev')) do if p:matches(o) then k = k + 1 end end return k end)()"
                )
                #expect(matched == String(count), "\(layout.name) \(key) == \(value) in memory")
            }
        }
        // Grouped per day, sorted and sectioned by month, as the parts read.
        h.run(
            """
            local g = fetch{ 'ev', result = 'dictionaries', properties = { 't.date AS day', 'count(*) AS n' }, group = { 't.date' }, sort = { '-n', 'day' } }
            assert(tostring(g[1].day) == '2000-02-29T00:00:00Z' and g[1].n == 2, tostring(g[1].day) .. ' ' .. tostring(g[1].n))
            local s = fetch{ 'ev', section = 't.month', sort = { 't.month', 'id' } }
            assert(#s == 4 and s[1].name == '' and s[2].name == '1' and s[#s].name == '12', #s .. ' sections, first ' .. s[1].name)
            local sorted = fetch{ 'ev', sort = { '-t.hour', 'id' } }
            assert(sorted[1].id == 1 and sorted[#sorted].id == 9, sorted[1].id .. ' ' .. sorted[#sorted].id)
            """)
    }

    /// A time past the years 0001 to 9999 in a Quarry file's date column (written there by
    /// another program; PostgreSQL's `-infinity` reads the same way) has no parts: Lua's
    /// `d.year` is nil, as the part in a predicate is, where converting the seconds to a
    /// calendar time used to trap.
    @Test func aDateOutOfRangeHasNoParts() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-far-date-\(UUID().uuidString).db").path
        let made = try Harness(context: try StoreOpener.open(path))
        made.run("entity 'Ev' { t = 'date' }; Ev:new{ t = date('2024-02-29T05:06:07Z') }; Ev:new{ t = now() }; Ev:new{ t = now() }; save()")
        made.context.close()
        let writer = try DatabaseQueue(path: path)
        try writer.write { db in try db.execute(sql: "UPDATE Ev SET t = 1e300 WHERE _pk = 2; UPDATE Ev SET t = -1e300 WHERE _pk = 3") }
        try writer.close()
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string("tostring(Ev:get(2).t.year) .. ' ' .. tostring(Ev:get(3).t.yday) .. ' ' .. tostring(Ev:get(1).t.year)") == "nil nil 2024")
        #expect(h.string("tostring(count('Ev', 't.year == nil'))") == "2")
        // In memory, as observers and unsaved objects are matched.
        #expect(
            h.string(
                "(function() local p, n = predicate('t.year == nil'), 0 for _, o in ipairs(fetch('Ev')) do if p:matches(o) then n = n + 1 end end return tostring(n) end)()"
            ) == "2")
    }
}

import QuarryLua
import Testing

/// `d.year`, `d.month`, ... read a date's parts in UTC, as `os.date("!*t")` gives them.
@Suite struct DateComponentTests {
    @Test func componentsAgreeWithOsDateInUTC() throws {
        let h = try Harness()
        h.run(
            #"""
            for _, t in ipairs({ 0, 1710692772, -1, -86400 * 365 * 300 + 12345, 951782400, 253402300799, -62135596800 }) do
              local d, want = date(t), os.date("!*t", t)
              for key, field in pairs({ year = "year", month = "month", day = "day", hour = "hour", minute = "min",
                                        second = "sec", weekday = "wday", yday = "yday" }) do
                assert(d[key] == want[field], t .. " " .. key .. ": " .. tostring(d[key]) .. " ~= " .. tostring(want[field]))
              end
            end
            """#)
        #expect(h.error("return date(0).nope").contains("fields: timestamp, year, month"))
    }
}

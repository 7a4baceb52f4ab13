import QuarryModel
import Testing

/// Issue 61, item 6: a date counted in whole seconds or milliseconds never rounds out of
/// the years 0001 to 9999.
@Suite struct WholeDateUnitsTests {
    @Test func roundingNeverLeavesTheYears0001To9999() {
        let last = 253_402_300_799.0
        // The last millisecond of 9999 rounds up in whole seconds: refused.
        #expect(WholeDateUnits.count(last + 0.999, unitsPerSecond: 1) == nil)
        #expect(WholeDateUnits.count(last + 0.5, unitsPerSecond: 1) == nil)
        // Below half a second it rounds down, within the year.
        #expect(WholeDateUnits.count(last + 0.499, unitsPerSecond: 1) == 253_402_300_799)
        // Milliseconds keep it.
        #expect(WholeDateUnits.count(last + 0.999, unitsPerSecond: 1000) == 253_402_300_799_999)
        // Ordinary dates round to the nearest, either side of 1970 and at year 0001.
        #expect(WholeDateUnits.count(1_700_000_000.6, unitsPerSecond: 1) == 1_700_000_001)
        #expect(WholeDateUnits.count(-1.5, unitsPerSecond: 1) == -2)
        #expect(WholeDateUnits.count(Value.dateRange.lowerBound + 0.4, unitsPerSecond: 1) == -62_135_596_800)
        #expect(WholeDateUnits.count(Value.dateRange.lowerBound, unitsPerSecond: 1000) == -62_135_596_800_000)
        // No count traps: NaN, infinities and counts past 2^63 are nil.
        for odd in [Double.nan, .infinity, -.infinity, 1e300] {
            #expect(WholeDateUnits.count(odd, unitsPerSecond: 1000) == nil)
        }
    }
}

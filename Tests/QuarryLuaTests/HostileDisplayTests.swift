import Foundation
import QuarryLua
import QuarryStore
import Testing

/// Issue 48 ("Hostile input, round four") as Lua sees it: histograms of infinite and
/// huge values (here), and text from the store printed for a terminal (`+Terminal`).
@Suite struct HostileDisplayTests {
    /// Infinite values fall in no bin and are counted in a line; the bins span the finite
    /// values, even from -1.7e308 to 1.7e308 (whose span overflows a double).
    @Test func histogramsCountInfinitiesApartAndSpanTheFiniteValues() throws {
        let h = try Harness()
        h.run(
            """
            entity "V" { v = "double?", k = "int64" }
            for i, v in ipairs{ 1, 2, 3, 1/0, -1/0 } do V:new{ v = v, k = 1 } end
            for i, v in ipairs{ -1.7e308, 1.7e308, 0 } do V:new{ v = v, k = 2 } end
            V:new{ k = 3 }
            save()
            """)
        let small = h.string(#"histogram(fetch("V", "k == 1"), "v", { bins = 2 })"#) ?? ""
        #expect(small.contains("v: 3 values in 2 bins") && small.contains("1 – 2 ") && small.contains("2 – 3 "), "\(small)")
        #expect(small.hasSuffix("\n2 values are inf or nan, left out") && !small.contains("nan –") && !small.contains("inf –"), "\(small)")
        let wide = h.string(#"histogram(fetch("V", "k == 2"), "v", { bins = 2 })"#) ?? ""
        #expect(wide.contains("v: 3 values in 2 bins") && !wide.contains("inf") && !wide.contains("nan"), "\(wide)")
        // -1.7e308 alone below 0, 0 and 1.7e308 in the upper bin.
        let counts = wide.split(separator: "\n").dropFirst().map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(counts == ["1", "2"], "\(wide)")
        let none = h.string(#"histogram(fetch("V", "k == 1 AND v > 1e308"), "v")"#) ?? ""
        #expect(none.hasSuffix("\n1 value is inf or nan, left out"), "\(none)")
    }
}

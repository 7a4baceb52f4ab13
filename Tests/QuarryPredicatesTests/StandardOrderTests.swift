import QuarryPredicates
import Testing

/// `localizedStandard`'s sort key (trial 30, moment 1): digit runs by value, case and
/// accents aside, as Foundation's `localizedStandardCompare:` orders names.
@Suite struct StandardOrderTests {
    @Test func namesSortAsFinderSortsThem() {
        let names = ["Item 10", "item 2", "Item 1", "éclair", "Eclair", "zebra", "file9", "file10", "file009b", "x 2", "A0", "a"]
        // Stable: equal keys (éclair, Eclair) keep their order, as rows keep their keys'.
        let sorted = names.enumerated().sorted { (StandardOrder.key($0.element), $0.offset) < (StandardOrder.key($1.element), $1.offset) }
        #expect(
            sorted.map(\.element) == ["a", "A0", "éclair", "Eclair", "file9", "file009b", "file10", "Item 1", "item 2", "Item 10", "x 2", "zebra"])
    }

    /// The codes PostgreSQL's SQL (`PostgreSQLDialect.standardOrderKey`) writes too.
    @Test func digitRunsAreCodedByTheirLength() {
        let cases: [(String, String)] = [
            ("item 1", "item 11"), ("item 10", "item 210"), ("a0", "a0"), ("a000", "a0"), ("007", "17"), ("9z", "19z"),
            ("x99999999", "x899999999"), ("x123456789", "x91123456789"), ("", ""), ("no digits", "no digits"),
            (String(repeating: "1", count: 17), "991" + String(repeating: "1", count: 17))
        ]
        for (text, key) in cases { #expect(StandardOrder.key(text) == key, "\(text)") }
        // Longer numbers sort after shorter ones, whatever their digits.
        let numbers = ["8", "9", "10", "99999999", "100000000", "9999999999999999", "10000000000000000"]
        #expect(numbers.map(StandardOrder.key) == numbers.map(StandardOrder.key).sorted())
    }
}

import Testing

@testable import QuarryFetch

/// Keys kept as a range (a table's rows in key order without gaps) give every batch the
/// keys the same list would.
@Suite struct OrderedKeysTests {
    @Test func aRangeSlicesAsItsListDoes() {
        for range in [Int64(1)...Int64(10), Int64(-3)...Int64(4), Int64(7)...Int64(7), Int64.max - 5...Int64.max] {
            let dense = OrderedKeys.dense(range)
            let listed = OrderedKeys.listed(Array(range))
            #expect(dense.count == listed.count)
            #expect(dense.all == listed.all)
            for start in -2...(listed.count + 2) {
                for count in [-1, 0, 1, 3, 100] {
                    #expect(dense.slice(from: start, count: count) == listed.slice(from: start, count: count), "\(range) \(start) \(count)")
                }
            }
        }
        #expect(OrderedKeys.empty.slice(from: 0, count: 5).isEmpty)
    }
}

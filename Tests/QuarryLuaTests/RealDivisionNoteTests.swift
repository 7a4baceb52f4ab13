import Testing

@testable import QuarryLua

/// The bucket idiom `x / N * N` is noted with the floor() that rounds down, only where the
/// suggestion computes what was meant (a key path first in its product).
@Suite struct RealDivisionNoteTests {
    @Test func onlyAKeyPathFirstInItsProductIsFloored() {
        #expect(QuarryRuntime.flooredBuckets("release_date.year / 10 * 10 AS decade") == "floor(release_date.year / 10) * 10 AS decade")
        #expect(QuarryRuntime.flooredBuckets("sum(year / 10 * 10)") == "sum(floor(year / 10) * 10)")
        for text in [
            "id / 2 * 3", "x * 2 / 10 * 10", "max(id) / 10 * 10", ") / 2 * 2", "/ 10 * 10", "(/2*2)", "id / 10 * 10.5", "👍 / 2 * 2", "2 / 2 * 2", ""
        ] {
            #expect(QuarryRuntime.flooredBuckets(text) == nil, "\(text)")
        }
        #expect(QuarryRuntime.flooredBuckets("id / 2 * 2 / 2 * 2") == "floor(id / 2) * 2 / 2 * 2")
    }
}

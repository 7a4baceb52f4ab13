import Foundation
import QuarryTestSupport
import Testing

@testable import QuarryPostgreSQL

/// A timestamp's text as the server writes it, read on its bytes for the common shape:
/// the same seconds as the field-by-field reading, which a year written with a leading
/// zero (`02021`) takes, and nil for what is not a timestamp.
@Suite struct PostgresTimestampTextTests {
    @Test func theCommonShapeReadsAsTheFieldByFieldReading() {
        var rng = SplitMix64(seed: 1970)
        let offsets = ["", "+00", "-05", "+05:30", "-03:30", "+01:02:03", "-00:25:21", "+14", "-12"]
        for _ in 0..<3_000 {
            let year = 1000 + Int(rng.next() % 9000)
            let (month, day) = (1 + Int(rng.next() % 12), 1 + Int(rng.next() % 28))
            let (hour, minute, second) = (Int(rng.next() % 24), Int(rng.next() % 60), Int(rng.next() % 60))
            let digits = Int(rng.next() % 7)
            let fraction = digits == 0 ? "" : "." + String((0..<digits).map { _ in Character(String(rng.next() % 10)) })
            let offset = offsets[Int(rng.next() % UInt64(offsets.count))]
            let rest = String(format: "-%02d-%02d %02d:%02d:%02d", month, day, hour, minute, second) + fraction + offset
            let common = PostgresValue.seconds(String(year) + rest)
            #expect(common != nil && common == PostgresValue.seconds("0" + String(year) + rest), "\(year)\(rest)")
        }
        #expect(PostgresValue.seconds("2021-01-01 00:00:00.25+00") == 1_609_459_200.25)
        #expect(PostgresValue.seconds("2021-01-01 00:00:00-05") == Double(1_609_459_200 + 5 * 3600))
        #expect(PostgresValue.seconds("1970-01-01 00:00:00") == Double(0))
        #expect(PostgresValue.seconds("2021-01-01 24:00:00+00") == Double(1_609_459_200 + 86_400))
    }

    @Test func otherShapesAreReadOrRefusedAsBefore() {
        #expect(PostgresValue.seconds("0044-03-15 12:00:00+00 BC") != nil)
        #expect(PostgresValue.seconds("12021-01-01 00:00:00+00") != nil)
        for bad in [
            "2021-13-01 00:00:00", "2021-01-32 00:00:00", "2021-01-01 25:00:00", "2021-01-01 00:60:00", "2021-01-01 00:00:61",
            "2021-01-01 00:00:00+", "2021-01-01 00:00:00+99:00", "2021-01-01T00:00:00", "2021-01-01",
            "2021-01-01 00:00:00+00 ", "2021-01-01 00:00:0x"
        ] {
            #expect(PostgresValue.seconds(bad) == nil, "\(bad)")
        }
    }
}

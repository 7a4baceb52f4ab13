import Foundation
import QuarryTestSupport
import Testing

@testable import QuarryModel

/// The ISO 8601 text tables, `print` and `sql()` on PostgreSQL write for a date, written
/// byte by byte: checked against the export writer's whole seconds (`ISO8601Bytes`),
/// against reading the text back, and against the C library's local offset.
@Suite struct ISO8601TextTests {
    private func wholeSecond(_ seconds: Double) -> String {
        var out: [UInt8] = []
        ISO8601Bytes.append(seconds, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func randomInstants(seed: UInt64, count: Int) -> [Double] {
        var rng = SplitMix64(seed: seed)
        let span = UInt64(Value.dateRange.upperBound - Value.dateRange.lowerBound)
        return (0..<count).map { _ in Value.dateRange.lowerBound + Double(rng.next() % span) }
    }

    /// Milliseconds are written after the whole second, without trailing zeros, and 0.9996 s
    /// carries into the next second.
    @Test func millisecondsFollowTheWholeSecond() {
        var rng = SplitMix64(seed: 8601)
        for whole in randomInstants(seed: 1, count: 2_000) + [0, -1, 1_356_998_400, Value.dateRange.lowerBound] {
            let millis = Int(rng.next() % 1000)
            let fraction = millis == 0 ? "" : "." + String(String(format: "%03d", millis).reversed().drop { $0 == "0" }.reversed())
            let expected = wholeSecond(whole).dropLast() + fraction + "Z"
            #expect(Value.iso8601(whole + Double(millis) / 1000) == expected, "\(whole) + \(millis) ms")
        }
        #expect(Value.iso8601(59.9996) == "1970-01-01T00:01:00Z")
        #expect(Value.iso8601(Value.lastInstant) == "9999-12-31T23:59:59.999Z")
        #expect(Value.iso8601(Value.dateRange.lowerBound) == "0001-01-01T00:00:00Z")
        #expect(Value.iso8601(.nan) == "invalid date")
        #expect(Value.iso8601(Value.lastInstant.nextUp) == "date out of range")
    }

    /// The exact form reads back as the same double, with as few digits as it takes.
    @Test func exactTextReadsBackAsTheSameInstant() {
        var rng = SplitMix64(seed: 84)
        var values: [Double] = [0.1, 0.25, 1e-9, -0.000001, 1_356_998_400.123456, Value.lastInstant]
        for whole in randomInstants(seed: 2, count: 2_000) {
            values.append(whole + Double(rng.next() % 1_000_000) / 1_000_000)
        }
        for seconds in values {
            let text = Value.exactISO8601(seconds)
            // Microseconds are what the text keeps; a value with more digits than that
            // reads back within a few units in the last place.
            let parsed = Value.parseISO8601(text) ?? .nan
            #expect(abs(parsed - seconds) <= max(1e-9, 4 * seconds.ulp), "\(seconds): \(text)")
            #expect(text.hasPrefix(String(wholeSecond(seconds.rounded(.down)).prefix(17))), "\(seconds): \(text)")
        }
        #expect(Value.exactISO8601(1.5) == "1970-01-01T00:00:01.5Z")
        #expect(Value.exactISO8601(1_356_998_400.123456) == "2013-01-01T00:00:00.123456Z")
    }

    /// The local form is the UTC text of the instant moved by the C library's offset for
    /// it, followed by that offset (with seconds, for local mean time).
    @Test func localTextCarriesTheMachinesOffset() {
        for seconds in randomInstants(seed: 3, count: 500) + [0, -2_717_668_236, 1_700_000_000.25] {
            var t = time_t(seconds.rounded(.down))
            var parts = tm()
            localtime_r(&t, &parts)
            let offset = Int(parts.tm_gmtoff)
            let magnitude = abs(offset)
            var zone = (offset < 0 ? "-" : "+") + String(format: "%02d:%02d", magnitude / 3600, magnitude / 60 % 60)
            if magnitude % 60 != 0 { zone += String(format: ":%02d", magnitude % 60) }
            let moved = Value.iso8601(seconds + Double(offset))
            guard !moved.hasPrefix("date") else { continue }
            #expect(Value.localISO8601(seconds) == moved.dropLast() + zone, "\(seconds)")
        }
    }
}

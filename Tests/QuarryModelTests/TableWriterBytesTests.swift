import Foundation
import QuarryTestSupport
import Testing

@testable import QuarryModel

/// The export writer's byte-level encodings (integers, whole-second dates, CSV quoting,
/// JSON keys and escapes), checked against the plain forms they stand for: the writer
/// builds them on the stack for speed, and these say it writes the same bytes.
@Suite struct TableWriterBytesTests {
    private func text(_ body: (inout [UInt8]) -> Void) -> String {
        var out: [UInt8] = []
        body(&out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func integersAreTheirDecimalText() {
        var rng = SplitMix64(seed: 84)
        // Every value of up to four digits (written without the general loop) and either side.
        var values: [Int64] = Array(-10_001...10_001) + [99_999, 100_000, .max, .min, .max - 1, .min + 1]
        for _ in 0..<2_000 {
            let bits = Int64(bitPattern: rng.next())
            values.append(bits >> Int64(rng.next() % 63))
        }
        for value in values {
            #expect(text { TableWriter.digits(value, into: &$0) } == String(value))
        }
    }

    @Test func wholeSecondDatesAreTheirISO8601Text() {
        var rng = SplitMix64(seed: 10)
        var seconds: [Double] = [0, -1, 86_399, 86_400, Value.dateRange.lowerBound, 253_402_300_799, 1_356_998_400]
        let span = UInt64(Value.dateRange.upperBound - Value.dateRange.lowerBound)
        for _ in 0..<2_000 {
            seconds.append(Value.dateRange.lowerBound + Double(rng.next() % span))
        }
        for s in seconds {
            // exactISO8601 writes milliseconds at least; a whole second's are ".000".
            let expected = Value.exactISO8601(s).replacingOccurrences(of: ".000Z", with: "Z")
            #expect(text { ISO8601Bytes.append(s, into: &$0) } == expected, "\(s)")
        }
    }

    /// A date the row before also had is copied from the one written then: runs of one
    /// date, dates that alternate and a date that is not a whole second between them
    /// each read as their own.
    @Test func repeatedDatesAreWrittenAsTheirOwn() {
        let seconds: [Double] = [3600, 3600, 7200, 3600, 3600.5, 3600, -1, -1, 0, -0.0, 0, 1_356_998_400, 1_356_998_400]
        let json = TableWriter.render(format: .json, columns: ["w"], rows: seconds.map { [.date($0)] })
        let expected = seconds.map { s in "{\"w\": \"" + text { ISO8601Bytes.append(s, into: &$0) } + "\"}" }
        #expect(json == "[" + expected.joined(separator: ",\n ") + "]")
        let csv = TableWriter.render(format: .csv, columns: ["w"], rows: seconds.map { [.date($0)] }, header: false)
        #expect(csv == seconds.map { s in text { ISO8601Bytes.append(s, into: &$0) } }.joined(separator: "\n"))
    }

    @Test func yearsPastTheFourDigitsKeepTheirSign() {
        #expect(text { ISO8601Bytes.append(253_402_300_800, into: &$0) } == "+10000-01-01T00:00:00Z")
        #expect(text { ISO8601Bytes.append(-62_135_596_801, into: &$0) } == "0000-12-31T23:59:59Z")
        let bc = text { ISO8601Bytes.append(-64_513_468_800, into: &$0) }
        #expect(bc.hasPrefix("-00") && bc.count == 21, "\(bc)")
    }

    @Test func csvQuotesTextThatWouldReadBackAsAnotherType() {
        let quoted = ["", "NA", "5467", "-3", "+1", ".5", "true", "False", "2013-01-01", "a,b", "say \"hi\""]
        let plain = ["x", "N", "-", "NaNa", "tree", "hello world", "ok then", " 5 x", "émile"]
        func csv(_ s: String) -> String {
            TableWriter.render(format: .csv, columns: ["a"], rows: [[.text(s)]], header: false)
        }
        for s in quoted { #expect(csv(s).hasPrefix("\""), "\(s) → \(csv(s))") }
        for s in plain { #expect(csv(s) == s, "\(s) → \(csv(s))") }
        #expect(csv("say \"hi\"") == "\"say \"\"hi\"\"\"")
    }

    @Test func jsonRowsHaveEachKeyOnceAndEscapedText() {
        let rows: [[Value]] = [
            [.integer(1), .text("a\"b\\c\n\u{1}"), .null],
            [.integer(-20), .text("plain"), .date(0)]
        ]
        let json = TableWriter.render(format: .json, columns: ["id", "name \"q\"", "when"], rows: rows)
        #expect(
            json
                == #"[{"id": 1, "name \"q\"": "a\"b\\c\n\u0001", "when": null},"# + "\n "
                + #"{"id": -20, "name \"q\"": "plain", "when": "1970-01-01T00:00:00Z"}]"#)
        let parsed = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 2)
        #expect(parsed?.first?["name \"q\""] as? String == "a\"b\\c\n\u{1}")
    }
}

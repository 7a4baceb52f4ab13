import Foundation
import QuarryFormat
import QuarryStore
import Testing

/// What `export` writes, `import` reads back as the same values, in CSV and JSON; and the
/// REPL's `.mode csv|json` prints the same bytes as `export` (one writer serves both).
@Suite struct ExportRoundTripTests {
    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-roundtrip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Texts that CSV or JSON writers get wrong: NA, quotes, line ends, commas, spaces,
    /// unicode, control characters, numbers written as text.
    static let texts = [
        "NA", "na", "say \"hi\"", "a\rb", "a\r\nb", "x\ny", "a,b", " padded ", "café ✓ 日本", "tab\there",
        "\u{1}bell", "007", "1.5", "true", "2024-01-22", "\"", ","
    ]

    @Test(arguments: ["csv", "json"]) func everyValueComesBack(_ format: String) throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness()
        let list = Self.texts.map { "\"" + $0.unicodeScalars.map { String(format: "\\u{%X}", $0.value) }.joined() + "\"" }.joined(separator: ", ")
        h.run(
            #"""
            entity "V" { t = "string?", i = "int64?", d = "double?", b = "bool?", w = "date?", k = "int64" }
            local texts = { \#(list) }
            -- JSON import reads through JSONSerialization, which reads -2^63 as a double (a
            -- known limit of the reader, not of the writer): CSV alone carries it here.
            local ints = { 9007199254740993, \#(format == "csv" ? "-9223372036854775807 - 1" : "-9007199254740993"), 9223372036854775807, 0 }
            local doubles = { 1.5, 0.1, 1e300, -2.5e-8, 3.0 }
            local dates = { date("2024-01-22T16:26:12Z"), date("2024-01-22T16:26:12.125Z"), date(0.000001), date("0001-01-01T00:00:00Z") }
            for n = 1, #texts do
              V:new{ k = n, t = texts[n], i = ints[n % #ints + 1], d = doubles[n % #doubles + 1],
                     b = n % 2 == 0, w = dates[n % #dates + 1] }
            end
            V:new{ k = 100 }  -- every optional nil
            save()
            assert(export(fetch{ "V", sort = "k" }, "\#(dir.path)/v.\#(format)") == #texts + 1)
            assert(import("\#(dir.path)/v.\#(format)", { entity = "W" }) == #texts + 1)
            for _, v in ipairs(fetch{ "V", sort = "k" }) do
              local w = W:first("k == %@", v.k)
              for _, key in ipairs({ "t", "i", "d", "b", "w" }) do
                assert(w[key] == v[key] and math.type(w[key]) == math.type(v[key]),
                  string.format("k=%d %s: %q became %q", v.k, key, tostring(v[key]), tostring(w[key])))
              end
            end
            """#)
        let types = h.context.entities.first { $0.name == "W" }?.attributes.map { "\($0.name):\($0.type.rawValue)" }
        #expect(types?.sorted() == ["b:bool", "d:double", "i:int64", "k:int64", "t:string", "w:date"])
    }

    /// Text of digits (`"5467"`), of a number, a boolean or a date stays text through a CSV
    /// round trip, even in a column holding nothing else (issue 45): the export quotes it,
    /// and import takes a quoted field as text. A file that quotes every field, its header
    /// too, says nothing by its quotes: its numbers are numbers.
    @Test func textOfDigitsStaysTextThroughCSV() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "\"id\",\"n\",\"name\"\n\"1\",\"5467\",\"a\"\n\"2\",\"12\",\"b\"\n".write(
            toFile: dir.path + "/all.csv", atomically: true, encoding: .utf8)
        let h = try Harness()
        h.run(
            #"""
            entity "C" { code = "string", flag = "string?", day = "string?", n = "int64" }
            C:new{ code = "5467", flag = "true", day = "2024-01-22", n = 1 }
            C:new{ code = "0012", flag = "no", day = "2024-01-23T10:00:00Z", n = 2 }
            C:new{ code = "-3.5e2", n = 3 }
            save()
            assert(export(fetch{ "C", sort = "n" }, "\#(dir.path)/c.csv") == 3)
            assert(import("\#(dir.path)/c.csv", { entity = "D" }) == 3)
            for _, c in ipairs(fetch{ "C", sort = "n" }) do
              local d = D:first("n == %@", c.n)
              for _, key in ipairs({ "code", "flag", "day" }) do
                assert(d[key] == c[key], string.format("n=%d %s: %q became %q", c.n, key, tostring(c[key]), tostring(d[key])))
              end
            end
            assert(import("\#(dir.path)/all.csv", { entity = "A" }) == 2)
            """#)
        let types = h.context.entities.first { $0.name == "D" }?.attributes.map { "\($0.name):\($0.type.rawValue)" }
        #expect(types?.sorted() == ["code:string", "day:string", "flag:string", "n:int64"])
        let text = try String(contentsOfFile: dir.path + "/c.csv", encoding: .utf8)
        #expect(text.hasPrefix("code,day,flag,n\n\"5467\",\"2024-01-22\",\"true\",1\n"), "\(text)")
        let all = h.context.entities.first { $0.name == "A" }?.attributes.map { "\($0.name):\($0.type.rawValue)" }
        #expect(all?.sorted() == ["id:int64", "n:int64", "name:string"])
    }

    @Test func naTextIsQuotedAndNilIsEmptyInEveryCSVOutput() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness()
        h.run(
            #"""
            entity "P" { name = "string?", note = "string?" }
            P:new{ name = "NA", note = "a\rb" }; P:new{ name = "x" }; save()
            assert(export(fetch("P"), "\#(dir.path)/p.csv") == 2)
            assert(export(sql("SELECT name, note FROM P ORDER BY _pk"), "\#(dir.path)/q.csv") == 2)
            """#)
        let expected = "name,note\n\"NA\",\"a\rb\"\nx,\n"
        #expect(try String(contentsOf: dir.appendingPathComponent("p.csv"), encoding: .utf8) == expected)
        #expect(try String(contentsOf: dir.appendingPathComponent("q.csv"), encoding: .utf8) == expected)
        // .mode csv (and .once, which saves what would print) writes the same bytes.
        let printed = TextTable(headers: ["name", "note"], values: [[.text("NA"), .text("a\rb")], [.text("x"), .null]]).render(mode: .csv)
        #expect(printed + "\n" == expected)
    }

    @Test func modeJSONAndExportWriteTheSameJSON() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness()
        h.run(
            #"""
            entity "P" { name = "string?", n = "int64?", w = "date?" }
            P:new{ name = "NA \"q\"", n = 1, w = date("2024-01-22T16:26:12.5Z") }; P:new{ }; save()
            assert(export(fetch("P"), "\#(dir.path)/p.json") == 2)
            """#)
        let printed = TextTable(
            headers: ["n", "name", "w"],
            values: [[.integer(1), .text("NA \"q\""), .date(1_705_940_772.5)], [.null, .null, .null]]
        ).render(mode: .json)
        #expect(try String(contentsOf: dir.appendingPathComponent("p.json"), encoding: .utf8) == printed + "\n")
        #expect(
            printed == "[{\"n\": 1, \"name\": \"NA \\\"q\\\"\", \"w\": \"2024-01-22T16:26:12.5Z\"},\n {\"n\": null, \"name\": null, \"w\": null}]")
    }
}

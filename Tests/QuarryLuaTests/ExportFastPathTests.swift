import Foundation
import Testing

/// An export from SQLite reads each cell in place and writes it by shortcuts of its own
/// (integers of up to four digits, a date the row before also had, text that starts with a
/// letter): what it writes is what it wrote before them, byte for byte, for the values
/// those shortcuts could get wrong, and what the same values write when they come as
/// objects' values rather than as rows.
@Suite struct ExportFastPathTests {
    /// The rows below as the export wrote them before its shortcuts (a real that is a
    /// whole number as `-0.0` is stored as 0, and NaN as NULL, by SQLite).
    static let csv = [
        "b,d,i,k,t,w",
        "false,0.30000000000000004,0,1,N14228,1969-12-31T23:59:59Z",
        "true,1e+21,-1,2,\"NA\",1899-12-31T12:00:00Z",
        "false,0.0,9,3,na,1969-12-31T23:59:59.5Z",
        "true,5e-324,-9,4,no,1970-01-01T00:00:00Z",
        "false,2.2250738585072014e-308,10,5,No,1970-01-01T00:00:00Z",
        "true,inf,-10,6,\"true\",1970-01-01T01:00:00Z",
        "false,-inf,99,7,\"TRUE\",1970-01-01T01:00:00Z",
        "true,,100,8,\"False\",2013-01-01T05:00:00Z",
        "false,1000000000000000.0,999,9,nope,2013-01-01T05:00:00.25Z",
        "true,123456.0,1000,10,yes,0001-01-01T00:00:00Z",
        "false,-2.5e-08,-1000,11,off,9999-12-31T23:59:59Z",
        "true,1e+300,9999,12,on,",
        "false,,-9999,13,\"say \"\"hi\"\"\",",
        "true,,10000,14,\"a,b\",",
        "false,,-10000,15,\"x",
        "y\",",
        "true,,123456789,16,\"a\r",
        "b\",",
        "false,,9007199254740993,17,tab\there,",
        "true,,-9223372036854775808,18,\u{1}bell,",
        "false,,9223372036854775807,19,\u{7F}del,",
        "true,,,20,café ✓ 日本,",
        "false,,,21,\"\",",
        "true,,,22, ,",
        "false,,,23,\"007\",",
        "true,,,24,\"-3\",",
        "false,,,25,\"+1\",",
        "true,,,26,\".5\",",
        "false,,,27,\"1e5\",",
        "true,,,28,\"2013-01-01\",",
        "false,,,29,\"2013-01-01T05:00:00Z\",",
        "true,,,30,N,",
        "false,,,31,Y,",
        "true,,,32,t,",
        "false,,,33,f,",
        "true,,,34,o,",
        ""
    ]
    static let json = [
        "[{\"b\": false, \"d\": 0.30000000000000004, \"i\": 0, \"k\": 1, \"t\": \"N14228\", \"w\": \"1969-12-31T23:59:59Z\"},",
        " {\"b\": true, \"d\": 1e+21, \"i\": -1, \"k\": 2, \"t\": \"NA\", \"w\": \"1899-12-31T12:00:00Z\"},",
        " {\"b\": false, \"d\": 0.0, \"i\": 9, \"k\": 3, \"t\": \"na\", \"w\": \"1969-12-31T23:59:59.5Z\"},",
        " {\"b\": true, \"d\": 5e-324, \"i\": -9, \"k\": 4, \"t\": \"no\", \"w\": \"1970-01-01T00:00:00Z\"},",
        " {\"b\": false, \"d\": 2.2250738585072014e-308, \"i\": 10, \"k\": 5, \"t\": \"No\", \"w\": \"1970-01-01T00:00:00Z\"},",
        " {\"b\": true, \"d\": null, \"i\": -10, \"k\": 6, \"t\": \"true\", \"w\": \"1970-01-01T01:00:00Z\"},",
        " {\"b\": false, \"d\": null, \"i\": 99, \"k\": 7, \"t\": \"TRUE\", \"w\": \"1970-01-01T01:00:00Z\"},",
        " {\"b\": true, \"d\": null, \"i\": 100, \"k\": 8, \"t\": \"False\", \"w\": \"2013-01-01T05:00:00Z\"},",
        " {\"b\": false, \"d\": 1000000000000000.0, \"i\": 999, \"k\": 9, \"t\": \"nope\", \"w\": \"2013-01-01T05:00:00.25Z\"},",
        " {\"b\": true, \"d\": 123456.0, \"i\": 1000, \"k\": 10, \"t\": \"yes\", \"w\": \"0001-01-01T00:00:00Z\"},",
        " {\"b\": false, \"d\": -2.5e-08, \"i\": -1000, \"k\": 11, \"t\": \"off\", \"w\": \"9999-12-31T23:59:59Z\"},",
        " {\"b\": true, \"d\": 1e+300, \"i\": 9999, \"k\": 12, \"t\": \"on\", \"w\": null},",
        " {\"b\": false, \"d\": null, \"i\": -9999, \"k\": 13, \"t\": \"say \\\"hi\\\"\", \"w\": null},",
        " {\"b\": true, \"d\": null, \"i\": 10000, \"k\": 14, \"t\": \"a,b\", \"w\": null},",
        " {\"b\": false, \"d\": null, \"i\": -10000, \"k\": 15, \"t\": \"x\\ny\", \"w\": null},",
        " {\"b\": true, \"d\": null, \"i\": 123456789, \"k\": 16, \"t\": \"a\\r\\nb\", \"w\": null},",
        " {\"b\": false, \"d\": null, \"i\": 9007199254740993, \"k\": 17, \"t\": \"tab\\there\", \"w\": null},",
        " {\"b\": true, \"d\": null, \"i\": -9223372036854775808, \"k\": 18, \"t\": \"\\u0001bell\", \"w\": null},",
        " {\"b\": false, \"d\": null, \"i\": 9223372036854775807, \"k\": 19, \"t\": \"\u{7F}del\", \"w\": null},",
        " {\"b\": true, \"d\": null, \"i\": null, \"k\": 20, \"t\": \"café ✓ 日本\", \"w\": null},",
        " {\"b\": false, \"d\": null, \"i\": null, \"k\": 21, \"t\": \"\", \"w\": null},",
        " {\"b\": true, \"d\": null, \"i\": null, \"k\": 22, \"t\": \" \", \"w\": null},",
        " {\"b\": false, \"d\": null, \"i\": null, \"k\": 23, \"t\": \"007\", \"w\": null},",
        " {\"b\": true, \"d\": null, \"i\": null, \"k\": 24, \"t\": \"-3\", \"w\": null},",
        " {\"b\": false, \"d\": null, \"i\": null, \"k\": 25, \"t\": \"+1\", \"w\": null},",
        " {\"b\": true, \"d\": null, \"i\": null, \"k\": 26, \"t\": \".5\", \"w\": null},",
        " {\"b\": false, \"d\": null, \"i\": null, \"k\": 27, \"t\": \"1e5\", \"w\": null},",
        " {\"b\": true, \"d\": null, \"i\": null, \"k\": 28, \"t\": \"2013-01-01\", \"w\": null},",
        " {\"b\": false, \"d\": null, \"i\": null, \"k\": 29, \"t\": \"2013-01-01T05:00:00Z\", \"w\": null},",
        " {\"b\": true, \"d\": null, \"i\": null, \"k\": 30, \"t\": \"N\", \"w\": null},",
        " {\"b\": false, \"d\": null, \"i\": null, \"k\": 31, \"t\": \"Y\", \"w\": null},",
        " {\"b\": true, \"d\": null, \"i\": null, \"k\": 32, \"t\": \"t\", \"w\": null},",
        " {\"b\": false, \"d\": null, \"i\": null, \"k\": 33, \"t\": \"f\", \"w\": null},",
        " {\"b\": true, \"d\": null, \"i\": null, \"k\": 34, \"t\": \"o\", \"w\": null}]",
        ""
    ]

    @Test func oddValuesAreWrittenAsBefore() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-fastpath-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness()
        h.run(
            #"""
            entity "V" { k = "int64", i = "int64?", d = "double?", w = "date?", t = "string?", b = "bool?" }
            local ints = { 0, -1, 9, -9, 10, -10, 99, 100, 999, 1000, -1000, 9999, -9999, 10000, -10000, 123456789,
              9007199254740993, -9223372036854775807 - 1, 9223372036854775807 }
            local doubles = { 0.1 + 0.2, 1e21, -0.0, 5e-324, 2.2250738585072014e-308, 1/0, -1/0, 0/0, 1e15, 123456.0, -2.5e-8, 1e300 }
            local dates = { date(-1), date(-86400 * 365.25 * 70), date(-0.5), date(0), date(0), date(3600), date(3600), date(1357016400), date(1357016400.25),
              date("0001-01-01T00:00:00Z"), date("9999-12-31T23:59:59Z") }
            local texts = { "N14228", "NA", "na", "no", "No", "true", "TRUE", "False", "nope", "yes", "off", "on", "say \"hi\"", "a,b", "x\ny", "a\r\nb",
              "tab\there", "\1bell", "\127del", "café ✓ 日本", "", " ", "007", "-3", "+1", ".5", "1e5", "2013-01-01", "2013-01-01T05:00:00Z", "N", "Y", "t", "f", "o" }
            local n = math.max(#ints, #doubles, #dates, #texts)
            for k = 1, n do
              V:new{ k = k, i = ints[k], d = doubles[k], w = dates[k], t = texts[k], b = k % 2 == 0 }
            end
            save()
            export(fetch{ "V", sort = "k" }, "\#(dir.path)/v.csv")
            export(fetch{ "V", sort = "k" }, "\#(dir.path)/v.json")
            """#)
        let csv = try String(contentsOf: dir.appendingPathComponent("v.csv"), encoding: .utf8)
        let json = try String(contentsOf: dir.appendingPathComponent("v.json"), encoding: .utf8)
        #expect(csv == Self.csv.joined(separator: "\n"))
        #expect(json == Self.json.joined(separator: "\n"))

        // With an object not yet saved, the export writes every object's values in turn
        // instead of the rows (`FetchResults.export`): the same bytes, and the new one.
        h.run(
            #"""
            V:new{ k = 1000 }
            export(fetch{ "V", sort = "k" }, "\#(dir.path)/w.csv")
            export(fetch{ "V", sort = "k" }, "\#(dir.path)/w.json")
            """#)
        let csvValues = try String(contentsOf: dir.appendingPathComponent("w.csv"), encoding: .utf8)
        let jsonValues = try String(contentsOf: dir.appendingPathComponent("w.json"), encoding: .utf8)
        #expect(csvValues == csv + ",,,1000,,\n")
        #expect(jsonValues == String(json.dropLast(2)) + ",\n {\"b\": null, \"d\": null, \"i\": null, \"k\": 1000, \"t\": null, \"w\": null}]\n")
    }
}

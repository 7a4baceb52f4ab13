import Foundation
import Testing

/// Issue 32: exporting sectioned results, or results sorted by a key path, kept only the
/// entity's attributes and dropped the key that orders and groups the rows. The section
/// key and every sort key that is not an attribute now follow the attributes, named by
/// their path, each once, in CSV and JSON, whether the rows stream from SQLite or the
/// results hold unsaved changes and are written object by object.
@Suite struct ExportKeyPathTests {
    private static let model = #"""
        entity "Airline" { name = "string", code = "int64" }
        entity "Flight" { number = "int64", delay = "double", airline = { one = "Airline", inverse = "flights" } }
        local aa, ba = Airline:new{ name = "AA", code = 1 }, Airline:new{ name = "BA", code = 2 }
        for i = 1, 4 do Flight:new{ number = i, delay = i * 1.5, airline = (i % 2 == 0) and ba or aa } end
        Flight:new{ number = 5, delay = 0 }
        save()
        """#

    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-keypath-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Exports `request` to `name` in `dir`, first as saved (one SELECT), then with an
    /// unsaved change that changes no value (so the results are written object by
    /// object), and expects the same text both times.
    private func export(_ h: Harness, _ request: String, _ dir: URL, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> String
    {
        let streamed = dir.appendingPathComponent("streamed-" + name).path
        let objects = dir.appendingPathComponent("objects-" + name).path
        h.run(
            #"""
            assert(not haschanges())
            export(fetch\#(request), "\#(streamed)")
            local f = Flight:new{ number = 99, delay = 1 }; f:delete()
            local o = fetch{ "Flight", predicate = "number == 1" }[1]; o.delay = 9; o.delay = 1.5
            Flight:new{ number = 98, delay = 1 }
            assert(haschanges())
            """#, sourceLocation: sourceLocation)
        h.run(#"local r = fetch\#(request); r.predicate = "number < 90"; export(r, "\#(objects)"); rollback()"#, sourceLocation: sourceLocation)
        let a = try String(contentsOfFile: streamed, encoding: .utf8)
        let b = try String(contentsOfFile: objects, encoding: .utf8)
        #expect(a == b, "streamed:\n\(a)\nobject by object:\n\(b)", sourceLocation: sourceLocation)
        return a
    }

    @Test func sectionKeyPathIsAColumnInCSV() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness()
        h.run(Self.model)
        let csv = try export(h, #"{ "Flight", section = "airline.name", sort = "number" }"#, dir, "s.csv")
        #expect(csv.split(separator: "\n") == ["delay,number,airline.name", "0.0,5,", "1.5,1,AA", "4.5,3,AA", "3.0,2,BA", "6.0,4,BA"], "\(csv)")
    }

    @Test func sortKeyPathsAreColumnsInJSON() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness()
        h.run(Self.model)
        let json = try export(h, #"{ "Flight", sort = { "-airline.code", "airline.name", "number" } }"#, dir, "s.json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(rows.map { Set($0.keys) } == Array(repeating: ["number", "delay", "airline.code", "airline.name"], count: 5), "\(json)")
        #expect(rows.map { $0["number"] as? Int } == [2, 4, 1, 3, 5], "\(json)")
        #expect(rows.map { $0["airline.code"] as? Int } == [2, 2, 1, 1, nil], "\(json)")
        #expect(rows.map { $0["airline.name"] as? String } == ["BA", "BA", "AA", "AA", nil], "\(json)")
        #expect(rows.last?["airline.name"] is NSNull, "\(json)")
        // The columns are in the order the keys were given, after the attributes.
        let first = try #require(json.split(separator: "\n").first { $0.contains("number") })
        let order = ["\"delay\"", "\"number\"", "\"airline.code\"", "\"airline.name\""].compactMap { first.range(of: $0)?.lowerBound }
        #expect(order.count == 4 && order == order.sorted(), "\(json)")
    }

    /// A key that is both the section key and a sort key is one column; an attribute
    /// section key or sort key is its attribute's column, not a second one.
    @Test func eachKeyOnceAndAttributesNotRepeated() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness()
        h.run(Self.model)
        let both = try export(
            h, #"{ "Flight", section = "airline.name", sort = { { "airline.name", ascending = false }, "-number" } }"#, dir, "b.csv")
        #expect(both.split(separator: "\n") == ["delay,number,airline.name", "6.0,4,BA", "3.0,2,BA", "4.5,3,AA", "1.5,1,AA", "0.0,5,"], "\(both)")
        let plain = try export(h, #"{ "Flight", section = "number", sort = { "number", "delay" } }"#, dir, "p.csv")
        #expect(plain.split(separator: "\n").first == "delay,number", "\(plain)")
    }
}

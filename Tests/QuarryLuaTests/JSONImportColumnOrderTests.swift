import Foundation
import Testing

/// Trial 27: `import("taxis.json")` made its columns in the keys' alphabetical order, where
/// a CSV file's columns keep the header's order and DuckDB's `read_json` keeps the order
/// keys come in. The columns are in the order each key first appears in the file.
@Suite struct JSONImportColumnOrderTests {
    /// Keys in no alphabetical order; the second element writes them in another order and
    /// brings a key of its own, which comes last.
    static let elements = [
        #"{"zone": "Midtown", "fare": 12.5, "airport": false, "pickup": "2024-01-02T08:00:00Z"}"#,
        #"{"pickup": "2024-01-02T09:30:00Z", "fare": 30, "tip": 4.5, "airport": true, "zone": "JFK"}"#
    ]
    static let order = ["zone", "fare", "airport", "pickup", "tip"]

    @Test func columnsComeInTheOrderKeysFirstAppear() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-json-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Compact; pretty-printed after an indent longer than the first bytes read to tell
        // the document's kind; and after a byte-order mark: each read the same way.
        let compact = "[" + Self.elements.joined(separator: ",") + "]"
        let indented = "\n    [\n      " + Self.elements.joined(separator: ",\n      ") + "\n    ]\n"
        try compact.write(to: dir.appendingPathComponent("taxis.json"), atomically: true, encoding: .utf8)
        try indented.write(to: dir.appendingPathComponent("indented.json"), atomically: true, encoding: .utf8)
        try Data([0xEF, 0xBB, 0xBF] + Array(compact.utf8)).write(to: dir.appendingPathComponent("marked.json"))
        let h = try Harness()
        h.run(
            #"""
            assert(import("\#(dir.path)/taxis.json") == 2)
            assert(import("\#(dir.path)/indented.json") == 2)
            assert(import("\#(dir.path)/marked.json") == 2)
            assert(Taxis:get(2).tip == 4.5 and Taxis:get(1).tip == nil and Taxis:get(2).zone == "JFK")
            function columns(name)
                local t = {}
                for _, r in ipairs(sql("SELECT name FROM pragma_table_info(?)", name)) do t[#t + 1] = r.name end
                return table.concat(t, ",")
            end
            """#)
        for name in ["Taxis", "Indented", "Marked"] {
            let entity = try #require(h.context.entities.first { $0.name == name })
            #expect(entity.attributes.map(\.name) == Self.order, "\(name)")
            // The table's own columns too, as sql() and sqlite3 list them.
            #expect(h.string("columns('\(name)')") == "_pk," + Self.order.joined(separator: ","), "\(name)")
        }
    }
}

import Foundation
import QuarryLua
import Testing

/// group/having rows keep the order the properties named, and the aliases they answer to
/// (`count` for `count(*)`) are not columns of their own.
@Suite struct GroupedRowsTests {
    @Test func groupedRowsExportInThePropertiesOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-grouped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let h = try Harness()
        let out = folder.appendingPathComponent("g.csv").path
        h.run(
            #"""
            entity "F" { carrier = "string", delay = "int64" }
            F:new{ carrier = "UA", delay = 3 }; F:new{ carrier = "AA", delay = 5 }; F:new{ carrier = "AA", delay = 7 }; save()
            local r = fetch{ "F", result = "dictionaries", properties = { "carrier", "count(*)", "avg(delay)" }, group = { "carrier" }, sort = "carrier" }
            assert(r[1].count == 2 and r[1]["count(*)"] == 2, "aliases still answer")
            assert(export(r, "\#(out)") == 2)
            """#)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "carrier,count(*),avg(delay)\nAA,2,6.0\nUA,1,3.0\n")
    }
}

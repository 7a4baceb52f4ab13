import Foundation
import QuarryTestSupport
import Testing

/// A trial read `r.predicate` before `r.args` and saw an error: results' request
/// properties read in any order.
@Suite struct ResultsPropertyOrderTests {
    /// Results' request properties read in any order, each as the request has it.
    @Test func resultsPropertiesReadInAnyOrder() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([
            ":memory:", "-e",
            #"""
            entity "Item" { n = "int", kind = "string" }
            Item:new{ n = 1, kind = "a" }; Item:new{ n = 5, kind = "b" }
            local function shown(r, order)
              local parts = {}
              for _, key in ipairs(order) do
                local v = r[key]
                parts[#parts + 1] = key .. "=" .. (type(v) == "table" and #v or tostring(v))
              end
              return table.concat(parts, " ")
            end
            local forward = { "predicate", "args", "sort", "limit", "offset", "section" }
            local backward = { "section", "offset", "limit", "sort", "args", "predicate" }
            for _, r in ipairs{ fetch("Item", "n > %@", 0), fetch{ "Item", predicate = predicate("n > %@", 0), sort = { "-n" }, limit = 5 },
                fetch{ "Item", predicate = "n > %@", args = { 0 }, section = "kind" } } do
              print(shown(r, forward))
              print(shown(r, backward))
            end
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                "predicate=n > %@ args=1 sort=0 limit=nil offset=0 section=nil",
                "section=nil offset=0 limit=nil sort=0 args=1 predicate=n > %@",
                "predicate=n > 0 args=0 sort=1 limit=5 offset=0 section=nil",
                "section=nil offset=0 limit=5 sort=1 args=0 predicate=n > 0",
                "predicate=n > %@ args=1 sort=0 limit=nil offset=0 section=kind",
                "section=kind offset=0 limit=nil sort=0 args=1 predicate=n > %@"
            ], "\(result)")
    }
}

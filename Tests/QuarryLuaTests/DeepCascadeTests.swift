import Testing

/// A cascade thousands of objects deep is followed with a worklist: neither `o:delete()`
/// nor `deleteall` runs out of stack (both recursed once, and crashed at a few thousand).
struct DeepCascadeTests {
    static let chain = #"""
        entity("Node") { name = "string" }
        entity("Node") { name = "string", next = { one = "Node", inverse = "prev", delete = "cascade" }, prev = { one = "Node", inverse = "next" } }
        local p
        for i = 1, 20000 do p = Node:new{ name = "n" .. i, next = p } end
        save()
        """#

    @Test func aDeepCascadeOfObjectsDeletesEveryLink() throws {
        let h = try Harness()
        h.run(
            Self.chain + #"""
                Node:first("name == %@", "n20000"):delete()
                local saved = save()
                assert(saved.deleted == 20000 and count("Node") == 0, saved.deleted .. " " .. count("Node"))
                """#)
    }

    @Test func aDeepCascadeOfRowsDeletesEveryLink() throws {
        let h = try Harness()
        h.run(
            Self.chain + #"""
                assert(Node:deleteall("name == %@", { "n15000" }) == 15000)
                assert(count("Node") == 5000 and Node:first("name == %@", "n20000").next.name == "n19999" and count("Node", "name == %@", "n1") == 0)
                """#)
    }
}

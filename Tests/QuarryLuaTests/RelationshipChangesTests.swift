import QuarryLua
import Testing

/// `o:changes()` lists relationships with the attributes, as Core Data's
/// `changedValues()` does: a to-one as `{old object, new object}`, a to-many as its
/// members then and now, through either side and through deletion.
@Suite struct RelationshipChangesTests {
    static let model = #"""
        entity("Tag", { label = "string", items = { many = "Item", inverse = "tags" } })
        entity("Person", { name = "string", items = { many = "Item", inverse = "owner" } })
        entity("Item", { name = "string", tags = { many = "Tag", inverse = "items" }, owner = { one = "Person", inverse = "items" } })
        function ids(list) local out = {} for i, o in ipairs(list) do out[i] = o:objectID() end return table.concat(out, ",") end
        function shown(o)
            local keys = {}
            for k, v in pairs(o:changes()) do
                local function s(x)
                    if typeof(x) == "object" then return x:objectID() elseif type(x) == "table" then return "{" .. ids(x) .. "}" end
                    return tostring(x)
                end
                keys[#keys + 1] = k .. "=" .. s(v[1]) .. ">" .. s(v[2])
            end
            table.sort(keys)
            return table.concat(keys, " ")
        end
        """#

    @Test func relationshipsAreListedWithTheirOldAndNewMembers() throws {
        let h = try Harness()
        h.run(Self.model)
        h.run(
            #"""
            t = Tag:new{ label = "x" }; p = Person:new{ name = "P" }; q = Person:new{ name = "Q" }; i = Item:new{ name = "a", owner = p }
            """#)
        #expect(h.string("shown(i)") == "name=nil>a owner=nil>Person/t2")
        #expect(h.string("shown(p)") == "items={}>{Item/t4} name=nil>P")
        h.run("save()")
        #expect(h.string("shown(i)") == "")
        h.run("i.tags:add(t)")
        #expect(h.string("shown(i)") == "tags={}>{Tag/1}")
        #expect(h.string("shown(t)") == "items={}>{Item/1}")
        h.run("i.owner = q")
        #expect(h.string("shown(i)") == "owner=Person/1>Person/2 tags={}>{Tag/1}")
        #expect(h.string("shown(p)") == "items={Item/1}>{}")
        #expect(h.string("shown(q)") == "items={}>{Item/1}")
        h.run("save(); i.tags:remove(t); i.name = 'b'")
        #expect(h.string("shown(i)") == "name=a>b tags={Tag/1}>{}")
        h.run("rollback()")
        #expect(h.string("shown(i)") == "")
        // Deleting the owner nullifies the item's side: its to-one changes to nil.
        h.run("q:delete()")
        #expect(h.string("shown(i)") == "owner=Person/2>nil")
        #expect(h.string("shown(p)") == "")
    }
}

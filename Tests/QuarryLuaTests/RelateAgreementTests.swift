import Testing

/// A `relate()`d link reads, in memory, the row the predicates' JOIN reaches in SQLite:
/// text matched by its bytes (not by canonical equivalence) and numbers and text
/// matched with SQLite's column type conversions.
@Suite struct RelateAgreementTests {
    /// Each owner's target name read through the object, against the same key path
    /// answered by SQLite (a dictionary fetch, which joins).
    private func agree(_ h: Harness, _ owner: String, _ relationship: String) {
        let memory = h.string(
            """
            (function() local out = {}
            for _, o in ipairs(fetch{ "\(owner)", sort = "id" }) do out[#out + 1] = o.id .. "=" .. tostring(o.\(relationship) and o.\(relationship).name) end
            return table.concat(out, " ") end)()
            """)
        let sql = h.string(
            """
            (function() local out = {}
            for _, d in ipairs(fetch{ "\(owner)", sort = "id", result = "dictionaries", properties = { "id", "\(relationship).name" } }) do
              out[#out + 1] = d.id .. "=" .. tostring(d["\(relationship).name"]) end
            return table.concat(out, " ") end)()
            """)
        #expect(memory != nil && memory == sql)
    }

    @Test func canonicallyEqualTextIsNotTheSameValue() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Owner" { id = "int64", code = "string" }; entity "Target" { code = "string", name = "string" }
            Owner:new{ id = 1, code = "caf\u{E9}" }; Owner:new{ id = 2, code = "cafe\u{301}" }; Owner:new{ id = 3, code = "x" }
            Target:new{ code = "cafe\u{301}", name = "decomposed" }; save()
            relate("Owner", "code", "Target", "code", "target")
            """#)
        #expect(h.string(#"count("Owner", "target.name == 'decomposed'")"#) == "1")
        agree(h, "Owner", "target")
        #expect(h.string(#"tostring(Owner:first().target)"#) == "nil")
    }

    @Test func integersMeetTextAsTheJoinDoes() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Owner" { id = "int64", code = "int64" }; entity "Target" { code = "string", name = "string" }
            Owner:new{ id = 1, code = 7 }; Owner:new{ id = 2, code = 8 }; Owner:new{ id = 3, code = 9 }
            Target:new{ code = "7", name = "seven" }; Target:new{ code = "08", name = "eight" }; save()
            relate("Owner", "code", "Target", "code", "target")
            """#)
        agree(h, "Owner", "target")
    }
}

import Testing

/// Core Data's `sectionNameKeyPath` and a dictionary request's `propertiesToGroupBy` /
/// `propertiesToFetch` take key paths through to-one relationships (NSFetchedResultsController
/// and NSFetchRequest documentation); so do Quarry's `section`, `group` and `properties`.
@Suite struct KeyPathGroupingTests {
    static let model = #"""
        entity "Airline" { name = "string" }
        entity "Flight" { number = "int", delay = "double", airline = { one = "Airline", inverse = "flights" } }
        local aa, ba, zz = Airline:new{ name = "AA" }, Airline:new{ name = "BA" }, Airline:new{ name = "ZZ" }
        for i = 1, 7 do Flight:new{ number = i, delay = i * 1.5, airline = (i % 3 == 0) and ba or aa } end
        Flight:new{ number = 8, delay = 0 }
        save()
        """#

    @Test func sectionsByAToOneKeyPath() throws {
        let h = try Harness()
        h.run(Self.model)
        h.run(
            #"""
            local r = fetch{ "Flight", section = "airline.name", sort = "number" }
            assert(#r == 3, "sections: " .. #r)
            assert(r[1].id == nil and #r[1] == 1, "the flight without an airline first")
            assert(r[2].name == "AA" and #r[2] == 5, "AA: " .. tostring(r[2].name) .. " " .. #r[2])
            assert(r[3].name == "BA" and #r[3] == 2 and r[3][1].number == 3)
            local d = fetch{ "Flight", section = "airline.name", sort = { { "airline.name", ascending = false }, "number" } }
            assert(d[1].name == "BA" and d[3].id == nil, "descending by the section key path")
            """#)
        #expect(h.error(#"fetch{ "Flight", section = "airline.nmae" }"#).contains("nmae"))
    }

    @Test func dictionariesGroupedByAToOneKeyPath() throws {
        let h = try Harness()
        h.run(Self.model)
        h.run(
            #"""
            local rows = fetch{ "Flight", properties = { "airline.name", "count(*)", "sum(delay)" }, group = { "airline.name" },
                                sort = "airline.name" }
            assert(#rows == 3, "groups: " .. #rows)
            assert(rows[1]["airline.name"] == nil and rows[1].count == 1)
            assert(rows[2]["airline.name"] == "AA" and rows[2].count == 5 and rows[2].sum_delay == 1.5 * (1 + 2 + 4 + 5 + 7))
            assert(rows[3]["airline.name"] == "BA" and rows[3].count == 2)
            local big = fetch{ "Flight", properties = { "airline.name", "count(*)" }, group = "airline.name", having = "count > 1" }
            assert(#big == 2, "having: " .. #big)
            """#)
    }
}

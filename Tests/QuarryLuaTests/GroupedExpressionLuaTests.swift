import Testing

/// Issue 32: grouped requests take expressions (`sum(UnitPrice * Quantity) AS revenue`,
/// `count(distinct x)`, key paths through relate()d relationships), and `having` takes an
/// aggregate as written; its errors say how.
@Suite struct GroupedExpressionLuaTests {
    static let model = #"""
        entity "Customer" { code = "string", country = "string" }
        entity "Line" { customer = "string", product = "string", UnitPrice = "double", Quantity = "int", Discount = "double" }
        Customer:new{ code = "A", country = "France" }; Customer:new{ code = "B", country = "Spain" }; Customer:new{ code = "C", country = "France" }
        Line:new{ customer = "A", product = "tea", UnitPrice = 2.5, Quantity = 4, Discount = 0 }
        Line:new{ customer = "A", product = "tea", UnitPrice = 2.5, Quantity = 2, Discount = 0.5 }
        Line:new{ customer = "B", product = "rum", UnitPrice = 10, Quantity = 3, Discount = 0 }
        Line:new{ customer = "C", product = "jam", UnitPrice = 4, Quantity = 0, Discount = 0 }
        Line:new{ customer = "Z", product = "oil", UnitPrice = 1, Quantity = 7, Discount = 0 }
        save()
        relate("Line", "customer", "Customer", "code", "buyer")
        """#

    @Test func revenueByCountry() throws {
        let h = try Harness()
        h.run(Self.model)
        h.run(
            #"""
            local r = fetch{ "Line", properties = { "buyer.country", "sum(UnitPrice * Quantity * (1 - Discount)) AS revenue",
                                                      "count(distinct product)", "avg(UnitPrice / Quantity)" },
                             group = { "buyer.country" }, sort = "-revenue" }
            assert(#r == 3, "countries: " .. #r)
            assert(r[1]["buyer.country"] == "Spain" and r[1].revenue == 30, "Spain first: " .. tostring(r[1].revenue))
            assert(r[2]["buyer.country"] == "France" and r[2].revenue == 12.5, "France: " .. tostring(r[2].revenue))
            assert(r[2]["count(distinct product)"] == 2 and r[2].count_distinct_product == 2)
            assert(r[3]["buyer.country"] == nil and r[3].revenue == 7, "no customer: " .. tostring(r[3].revenue))
            -- `/` divides as reals and by zero gives nil, which avg skips: France is (0.625 + 1.25) / 2.
            assert(r[2]["avg(UnitPrice / Quantity)"] == 0.9375, "avg: " .. tostring(r[2]["avg(UnitPrice / Quantity)"]))
            local p = fetch{ "Line", properties = { "product", "UnitPrice * Quantity AS amount" }, sort = "-amount", limit = 1 }
            assert(p[1].product == "rum" and p[1].amount == 30)
            """#)
    }

    @Test func havingTakesAnAggregateAsWritten() throws {
        let h = try Harness()
        h.run(Self.model)
        h.run(
            #"""
            local function countries(having)
              local r = fetch{ "Line", properties = { "buyer.country", "count(*)", "sum(UnitPrice * Quantity) AS revenue" },
                               group = { "buyer.country" }, having = having, sort = "buyer.country" }
              local names = {}
              for _, row in ipairs(r) do names[#names + 1] = tostring(row["buyer.country"]) end
              return table.concat(names, ",")
            end
            assert(countries("count(*) > 1") == "France", countries("count(*) > 1"))
            assert(countries("count > 1") == "France")
            assert(countries("sum(UnitPrice*Quantity) >= 15") == "France,Spain", countries("sum(UnitPrice*Quantity) >= 15"))
            assert(countries("revenue >= 15") == countries("sum(UnitPrice * Quantity) >= 15"))
            assert(countries("max(Quantity) > 5") == "nil", "computed though not a property: " .. countries("max(Quantity) > 5"))
            assert(countries({ "sum( UnitPrice * Quantity ) > %@ AND count(DISTINCT product) == %@", 20, 1 }) == "Spain")
            """#)
    }

    @Test func errorsSayHow() throws {
        let h = try Harness()
        h.run(Self.model)
        let request = #"fetch{ "Line", properties = { "product", "count(*)" }, group = { "product" }, having = "%@" }"#
        func having(_ text: String) -> String { h.error(request.replacingOccurrences(of: "%@", with: text)) }
        #expect(
            having("total > 1")
                == "t:1: having: unknown key path 'total' in the result; name a property or an aggregate of properties, by its AS name or as written (count(*), sum(x)) at column 1"
        )
        #expect(
            having("median(Quantity) > 1")
                == "t:1: having: unknown function 'median'; name a property or an aggregate of properties, by its AS name or as written (count, sum, avg, min or max) at column 1"
        )
        #expect(having("sum(Qty) > 1").hasPrefix("t:1: having: unknown key 'Qty' on entity Line"))
        #expect(having("count(*) >").hasPrefix("t:1: having: expected a key path or a value"))
        #expect(
            h.error(#"fetch{ "Line", properties = { "sum(product * 2)" } }"#)
                == "t:1: properties: 'product' is string; arithmetic takes numbers (Foundation's add:to: and the rest are NSNumber methods) at column 5"
        )
        #expect(
            h.error(#"fetch{ "Line", properties = { "product", "count(*)" }, group = { "sum(Quantity)" } }"#)
                == #"t:1: group: 'sum(Quantity)' is an aggregate; group by properties, as group = { "carrier" }"#)
    }
}

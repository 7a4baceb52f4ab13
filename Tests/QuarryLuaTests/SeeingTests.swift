import Foundation
import QuarryLua
import QuarryStore
import Testing

// summarize(), sql() and dictionary rows as the REPL prints and exports them.

private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("quarry-seeing-\(getpid())-\(name)").path
}

/// What the REPL prints for `expression` (quarry.show, sent to a file as `.once` does).
private func shown(_ h: Harness, _ expression: String) throws -> String {
    let path = temporaryPath("show-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(atPath: path) }
    h.run("quarry.__once = \(quoted(path)); quarry.show(\(expression))")
    return try String(contentsOfFile: path, encoding: .utf8)
}

private func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\") + "\"" }

private func itemsHarness() throws -> Harness {
    let h = try Harness()
    h.run(
        """
        entity "Item" { n = "int64", name = "string?", price = "double?", when = "date?" }
        for i = 1, 9 do Item:new{ n = i, name = i % 2 == 0 and "even" or nil, price = i / 4, when = date(86400 * i) } end
        save()
        """)
    return h
}

struct SeeingTests {
    @Test func summarizeGivesOneRowPerAttribute() throws {
        let h = try itemsHarness()
        h.run(
            """
            local s = summarize("Item")
            assert(#s == 4, #s)
            local n = s[1]
            assert(n.column == "n" and n.type == "int64" and n.count == 9 and n.nulls == 0 and n.distinct == 9, n.count)
            assert(n.min == 1 and n.max == 9 and n.mean == 5 and n.q25 == 3 and n.q50 == 5 and n.q75 == 7, n.q25)
            assert(math.abs(n.stddev - math.sqrt(7.5)) < 1e-12, n.stddev)
            local name = s[2]
            assert(name.count == 4 and name.nulls == 5 and name.distinct == 1 and name.mean == nil and name.q50 == nil)
            local when = s[4]
            assert(typeof(when.q50) == "date" and tostring(when.q50):sub(1, 10) == "1970-01-06", tostring(when.q50))
            -- Results narrow it: the request's predicate holds.
            local few = summarize(fetch("Item", "n > 6"))
            assert(few[1].count == 3 and few[1].min == 7, few[1].count)
            """)
        let text = try shown(h, "summarize(Item)")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("column | type   | count | nulls | distinct | min") == true, "\(text)")
        // Numbers right-aligned, statistics to six significant digits (issue 80).
        let price = try #require(lines.first { $0.hasPrefix("price  | double |     9 |     0 |        9 |") }, "\(text)")
        #expect(price.contains("|       0.25 |       2.25 |") && price.contains(" 0.684653 |"), "\(price)")
        // Dates at midnight read as days there, the mean too, as a table shows such a column.
        let when = try #require(lines.first { $0.hasPrefix("when ") }, "\(text)")
        #expect(when.contains("| 1970-01-02 | 1970-01-10 | 1970-01-06 |"), "\(when)")
        #expect(lines.last == "(4 rows)")
        #expect(h.error("summarize(42)").contains("bad argument #1 to 'summarize' (results or entity name expected"))
        #expect(h.error("summarize('Nope')").contains("unknown entity"))
    }

    @Test func sqlRowsPrintInTheirColumnOrderAndExport() throws {
        let h = try itemsHarness()
        h.run("rows = sql('SELECT name, count(*) AS n, sum(price) AS total FROM Item WHERE n > ? GROUP BY name ORDER BY name', 1)")
        h.run("assert(#rows == 2 and rows[1].name == nil and rows[1].n == 4 and rows[2].name == 'even' and rows[2].total == 5.0)")
        let text = try shown(h, "rows")
        #expect(text == "name | n | total\n-----+---+------\nnil  | 4 |   6.0\neven | 4 |   5.0\n(2 rows)\n", "\(text)")
        let csv = temporaryPath("rows.csv")
        let json = temporaryPath("rows.json")
        defer {
            try? FileManager.default.removeItem(atPath: csv)
            try? FileManager.default.removeItem(atPath: json)
        }
        h.run("assert(export(rows, \(quoted(csv))) == 2); assert(export(rows, \(quoted(json))) == 2)")
        #expect(try String(contentsOfFile: csv, encoding: .utf8) == "name,n,total\n,4,6.0\neven,4,5.0\n")
        #expect(try String(contentsOfFile: json, encoding: .utf8).contains(#"{"name": "even", "n": 4, "total": 5.0}"#))
        let refused = h.error("sql('DELETE FROM Item')")
        #expect(refused.hasPrefix("t:1: sql: only a statement that reads rows") && !refused.contains("\n"), "\(refused)")
        #expect(h.error("sql('SELECT ?', {})").contains("bad argument #2 to 'sql'"))
        #expect(h.error("export({ 1, 2 }, 'x.csv')").contains("results or a list of records expected"))
    }

    @Test func groupedDictionariesPrintOneColumnPerPropertyAndHonourTheMode() throws {
        let h = try itemsHarness()
        let expression =
            #"fetch{ "Item", result = "dictionaries", properties = { "name", "count(*)", "avg(n)" }, group = { "name" }, sort = { "name" } }"#
        let text = try shown(h, expression)
        // The properties' own names, in their order (the aliases count and avg_n still answer).
        #expect(
            text == "name | count(*) | avg(n)\n-----+----------+-------\nnil  |        5 |    5.0\neven |        4 |    5.0\n(2 rows)\n", "\(text)")
        h.runtime.settings.format.mode = .json
        let json = try shown(h, expression)
        #expect(json == "[{\"name\": null, \"count(*)\": 5, \"avg(n)\": 5.0},\n {\"name\": \"even\", \"count(*)\": 4, \"avg(n)\": 5.0}]\n", "\(json)")
        // A plain Lua table that is not a list of records still prints as a constructor.
        h.runtime.settings.format.mode = .table
        #expect(try shown(h, "{ 1, 2, x = 'y' }") == "{1, 2, x = \"y\"}\n")
    }

    @Test func chartsReturnTextFromCountsAndRows() throws {
        let h = try itemsHarness()
        h.run(
            """
            local text = histogram(Item, "n", { bins = 3 })
            assert(type(text) == "string" and text:find("n: 9 values in 3 bins", 1, true), text)
            -- n is an integer: buckets of integers, both ends included.
            assert(text:find("1 – 3 ", 1, true) and text:find("4 – 6 ", 1, true) and text:find(" 3\\n", 1, true), text)
            local rows = fetch{ "Item", result = "dictionaries", properties = { "name", "count(*)" }, group = { "name" } }
            -- Unicode or ASCII as the environment says (NO_COLOR, TERM=dumb): either passes here.
            local bars = barchart(rows, "name", "count")
            assert(bars:find("count by name", 1, true) and bars:find("even [│|]"), bars)
            local line = linechart(sql("SELECT n, price FROM Item"), "n", "price")
            assert(line:find("price by n", 1, true) and line:find("2.25 [┤|]"), line)
            """)
        #expect(h.error("histogram(Item, 'name')").contains("a histogram needs numbers or dates"))
        #expect(h.error("barchart(sql('SELECT 1 AS a'), 'a', 'b')").contains("the rows have no key 'b'"))
        // Results too, as the contract's chart sources: each object's two keys.
        h.run(
            """
            local line = linechart(fetch('Item'), 'n', 'price')
            assert(line:find("price by n", 1, true) and line:find("2.25 [┤|]"), line)
            local bars = barchart(fetch{ 'Item', sort = 'n' }, 'name', 'n')
            assert(bars:find("n by name", 1, true) and select(2, bars:gsub("\\n", "")) == #fetch('Item'), bars)
            assert(not pcall(linechart, fetch('Item'), 'nn', 'price'))
            """)
        #expect(h.error("linechart(fetch('Item'), 'n', 'prise')").contains("linechart: unknown key 'prise'"))
        #expect(h.error("linechart(42, 'n', 'price')").contains("results or dictionary rows"))
    }

    /// An entity with a column named as the bucket's alias was (`b`): the alias lost to
    /// the column, so every row fell in the bucket of its `b`.
    @Test func aHistogramCountsByBucketWhateverTheColumnsAreNamed() throws {
        let h = try Harness()
        h.run(
            """
            entity "Hb" { n = "int64", b = "bool" }
            for i = 1, 10 do Hb:new{ n = i, b = true } end
            save()
            local text = histogram(Hb, "n", { bins = 2 })
            local fives = 0
            for line in text:gmatch("[^\\n]+") do if line:match(" 5$") then fives = fives + 1 end end
            assert(fives == 2, text)
            """)
    }

    /// A results observer's updated entries name the keys that changed, as the contract
    /// gives them (they were missing); an empty IN list matches nothing, nil included.
    @Test func updatedEntriesNameTheirKeys() throws {
        let h = try Harness()
        h.run(
            """
            entity "K" { n = "int?", m = "int?" }
            K:new{ n = 1 }; K:new{}; save()
            assert(count("K", "n IN %@", {}) == 0 and count("K", "NOT n IN %@", {}) == 2)
            local heard = {}
            local r = fetch{ "K", sort = { "n" } }
            observe(r, function(e) for _, u in ipairs(e.updated) do heard[#heard + 1] = u.index .. ":" .. table.concat(u.keys, ",") end end)
            r[2].m = 5; save()
            K:updateall("n == 1", {}, { m = 7 })
            assert(table.concat(heard, " ") == "2:m 2:m", table.concat(heard, " "))
            """)
    }
}

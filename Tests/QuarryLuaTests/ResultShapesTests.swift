import QuarryLua
import QuarryStore
import Testing

/// Sections, dictionaries, ids and counts, as the contract's "Other result shapes".
@Suite struct ResultShapesTests {
    private func items() throws -> Harness {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string", categoryID = "int16?" }
            local cats = { 1, 2, nil, 1, 2, 1, nil, 3, 1, 2 }
            for i = 1, 10 do Item:new{ title = "t" .. string.format("%02d", i), categoryID = cats[i] } end
            save()
            """#)
        return h
    }

    @Test func sectionsGroupInSortOrderWithANilSection() throws {
        let h = try items()
        h.run(
            #"""
            local r = fetch{ "Item", section = "categoryID", sort = { "categoryID", "-title" } }
            assert(#r == 4, #r)
            local shape = {}
            for i, sec in ipairs(r) do
              assert(typeof(sec) == "section")
              local titles = {}
              for j, o in ipairs(sec) do titles[j] = o.title; assert(o.categoryID == sec.id) end
              shape[i] = tostring(sec.id) .. ":" .. #sec .. ":" .. table.concat(titles, ",")
            end
            local got = table.concat(shape, " ")
            assert(got == "nil:2:t07,t03 1:4:t09,t06,t04,t01 2:3:t10,t05,t02 3:1:t08", got)
            assert(r[1].name == "" and r[2].name == "1" and r[5] == nil)
            local all = {}
            for o in r:objects() do all[#all + 1] = o.title end
            assert(#all == 10 and all[1] == "t07" and all[10] == "t08")
            """#)
    }

    @Test func sectionKeyIsPutFirstWhenTheSortDoesNotStartWithIt() throws {
        let h = try items()
        h.run(
            #"""
            local r = fetch{ "Item", section = "categoryID", sort = { "-title" } }
            local ids = {}
            for i, sec in ipairs(r) do ids[i] = tostring(sec.id) end
            assert(table.concat(ids, ",") == "nil,1,2,3", table.concat(ids, ","))
            local d = fetch{ "Item", section = "categoryID", sort = { "-categoryID" }, limit = 4 }
            assert(#d == 2 and d[1].id == 3 and #d[1] == 1 and d[2].id == 2 and #d[2] == 3)
            d.section = nil
            assert(#d == 4 and typeof(d[1]) == "object")
            """#)
    }

    @Test func dictionariesGroupAndFilterInSQL() throws {
        let h = try items()
        h.run(
            #"""
            local rows = fetch{ "Item", result = "dictionaries", properties = { "categoryID", "count(*)", "max(title) as last" },
                                group = { "categoryID" }, having = "count >= 2", sort = { "-count", "categoryID" } }
            assert(#rows == 3, #rows)
            assert(rows[1].categoryID == 1 and rows[1].count == 4 and rows[1]["count(*)"] == 4 and rows[1].last == "t09")
            assert(rows[2].categoryID == 2 and rows[2].count == 3)
            assert(rows[3].categoryID == nil and rows[3].count == 2)
            local one = fetch{ "Item", properties = { "count(*)", "min(categoryID)", "sum(categoryID)" } }
            assert(#one == 1 and one[1].count == 10 and one[1].min_categoryID == 1 and one[1].sum_categoryID == 13)
            local distinct = fetch{ "Item", properties = { "categoryID" }, distinct = true, sort = "categoryID" }
            assert(#distinct == 4)
            """#)
        #expect(h.error(#"fetch{ "Item", properties = { "avg(nope)" } }"#).contains("unknown key 'nope'"))
        #expect(h.error(#"fetch{ "Item", result = "dictionaries" }"#).contains("needs properties"))
    }

    @Test func idsAndCountsWithoutObjects() throws {
        let h = try items()
        h.run(
            #"""
            local ids = fetch{ "Item", result = "ids", predicate = "categoryID == 2", sort = "-title" }
            assert(#ids == 3 and ids[1] == "Item/10" and ids[3] == "Item/2", table.concat(ids, ","))
            assert(fetch{ "Item", result = "count", predicate = "categoryID == nil" } == 2)
            assert(count("Item", "title BEGINSWITH 't0'") == 9)
            """#)
    }

    @Test func explainShowsBoundArgumentsAndThePlan() throws {
        let h = try items()
        let text = h.string(#"explain(fetch("Item", "title == %@", "t01"))"#) ?? ""
        #expect(text.contains("WHERE \"Item\".\"title\" = ?"))
        #expect(text.contains("arguments: [\"t01\""))
        #expect(text.contains("plan:"))
        #expect(!text.contains("'t01'"))
    }

    /// explain() of what a grouped fetch returns (a plain table of rows): the statement
    /// with its GROUP BY and having, its arguments bound, and the plan; the rows stay
    /// plain (nothing added to iterate or print). It refused them ("results expected").
    @Test func explainShowsTheSQLOfGroupedDictionaryRows() throws {
        let h = try items()
        h.run(
            #"""
            rows = fetch{ "Item", predicate = "title != %@", args = { "t05" }, properties = { "categoryID", "count(*) AS n" },
              group = { "categoryID" }, having = "n > 1" }
            """#)
        let text = h.string("explain(rows)") ?? ""
        #expect(text.hasPrefix("SQL: SELECT "), "\(text)")
        #expect(text.contains(" GROUP BY ") && text.contains(" WHERE ") && text.contains("\"title\""), "\(text)")
        #expect(text.contains("arguments: [\"t05\""), "\(text)")
        #expect(text.contains("\nplan:\n  "), "\(text)")
        #expect(!text.contains("'t05'"), "\(text)")
        // The rows are as before: three groups of more than one (nil: two, 1: four, 2: two
        // once t05 is out), each row its two keys and nothing else.
        #expect(
            h.string(#"(function() local k = 0; for _ in pairs(rows[2]) do k = k + 1 end; return #rows .. ":" .. k .. ":" .. rows[2].n end)()"#)
                == "3:2:4")
        // Properties alone (no group) explain as well; a table Quarry did not make, and sql()
        // rows (their SQL is the caller's), are refused naming what explain takes.
        #expect(h.string(#"explain(fetch{ "Item", properties = { "title" } })"#)?.hasPrefix("SQL: SELECT ") == true)
        #expect(h.error("explain({})").contains("results or dictionary rows expected, got table"))
        #expect(h.error(#"explain(sql("SELECT 1 AS x"))"#).contains("results or dictionary rows expected"))
    }

    @Test func predicatesExportToSwift() throws {
        let h = try items()
        let code = h.string(#"predicate("categoryID > 1 AND title BEGINSWITH %@", "t"):swift("Item")"#) ?? ""
        #expect(code.contains(##"NSPredicate(format: #"categoryID > 1 AND title BEGINSWITH "t""#)"##))
        #expect(code.contains("#Predicate<Item> { item in (item.categoryID.flatMap { $0 > 1 } ?? false) && (item.title.starts(with: \"t\")) }"))
        let like = h.string(#"predicate("title LIKE 'a*'"):swift(Item)"#) ?? ""
        #expect(like.contains("// #Predicate: not expressible (LIKE has no #Predicate form)"))
    }
}

/// Unsaved changes show in results, as Core Data's fetches include pending changes.
@Suite struct PendingChangesTests {
    @Test func unsavedInsertsUpdatesAndDeletesShowWhereTheSortPutsThem() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string", n = "int64", g = "int64?" }
            for i = 1, 6 do Item:new{ title = "t" .. i, n = i * 10, g = i % 2 } end
            save()
            local r = fetch{ "Item", predicate = "n > 15", sort = { "-n" }, limit = 4 }
            local function titles(res) local t = {} for i, o in ipairs(res) do t[i] = o.title end return table.concat(t, ",") end
            assert(titles(r) == "t6,t5,t4,t3", titles(r))
            Item:new{ title = "new", n = 45 }
            Item:get(6).n = 5         -- leaves (n > 15 no longer holds)
            Item:get(2).n = 100       -- joins, first
            Item:get(4):delete()
            assert(titles(r) == "t2,t5,new,t3", titles(r))
            assert(count("Item", "n > 15") == 4)
            assert(#fetch{ "Item", predicate = "n > 15", includesPending = false } == 5)
            assert(count("Item") == 6)
            local s = fetch{ "Item", section = "g", sort = { "g", "n" } }
            local shape = {}
            for i, sec in ipairs(s) do shape[i] = tostring(sec.id) .. ":" .. #sec end
            assert(table.concat(shape, " ") == "nil:1 0:2 1:3", table.concat(shape, " "))
            rollback()
            assert(titles(r) == "t6,t5,t4,t3", titles(r))
            """#)
    }
}

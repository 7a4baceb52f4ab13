import QuarryShell
import QuarryStore
import Testing

/// A SQLite file's column declared with a collation of SQLite's own (`COLLATE NOCASE`,
/// `RTRIM`) compares with it in SQL, though Quarry's SQL never says so: `p:matches` and
/// observers, which evaluate in memory, compare the same way (they compared bytes, so
/// `tx == 'abc'` counted 2 rows and matched 1). Every count is checked against sqlite3's
/// answer for the same SQL and against `p:matches` over every object.
@Suite struct CollatedColumnTests {
    static func file() throws -> String {
        try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, tx TEXT COLLATE NOCASE, rt TEXT COLLATE RTRIM, plain TEXT, n INTEGER);
            INSERT INTO t (tx, rt, plain, n) VALUES ('abc', 'x', 'abc', 1), ('ABC', 'x  ', 'ABC', 2), ('Abd', 'y', 'Abd', 3),
              ('ábc', 'x ', 'ábc', 4), (NULL, NULL, NULL, 5), ('b', 'z', 'b', 6), ('ÁBC', ' x', 'ÁBC', 7);
            """)
    }

    static let cases: [(predicate: String, sql: String)] = [
        ("tx == 'abc'", "tx = 'abc'"),
        ("'ABC' == tx", "'ABC' = tx"),
        ("tx != 'abc'", "tx IS NOT 'abc'"),
        ("tx < 'abd'", "tx < 'abd'"),
        ("tx >= 'ABC'", "tx >= 'ABC'"),
        ("tx IN {'ABC', 'B'}", "tx IN ('ABC', 'B')"),
        ("tx BETWEEN {'ABC', 'ABZ'}", "tx BETWEEN 'ABC' AND 'ABZ'"),
        ("tx == 'ábc'", "tx = 'ábc'"),
        ("rt == 'x'", "rt = 'x'"),
        ("rt != 'x'", "rt IS NOT 'x'"),
        ("rt > 'x'", "rt > 'x'"),
        ("rt IN {'x', 'z  '}", "rt IN ('x', 'z  ')"),
        ("plain == 'abc'", "plain = 'abc'"),
        ("tx ==[c] 'ABC'", "lower(tx) = 'abc'"),
        ("tx CONTAINS 'b'", "instr(tx, 'b') > 0"),
        ("tx == 'abc' AND n > 1", "tx = 'abc' AND n > 1")
    ]

    @Test func countsAndMatchesAgreeWithSQLite() throws {
        let path = try Self.file()
        let h = try Harness(context: try StoreOpener.open(path))
        try expectCountsAgreeWithSQLite(h, path, table: "t", Self.cases)
    }

    /// An observer of results sorted by such a column hears events that, applied in the
    /// contract's order, give the order a new fetch gives (SQL's, by the collation).
    @Test func observedResultsKeepTheCollationsOrder() throws {
        let path = try Self.file()
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            local r = fetch{ "t", predicate = "tx != nil", sort = { "tx", "id" } }
            local copy = {}
            for i, o in ipairs(r) do copy[i] = o end
            observe(r, function(ev)
              table.sort(ev.deleted, function(a, b) return a.index > b.index end)
              for _, d in ipairs(ev.deleted) do table.remove(copy, d.index) end
              local moved = {}
              for _, m in ipairs(ev.moved) do moved[#moved + 1] = m end
              table.sort(moved, function(a, b) return a.from > b.from end)
              for _, m in ipairs(moved) do table.remove(copy, m.from) end
              local placed = {}
              for _, e in ipairs(ev.inserted) do placed[#placed + 1] = { at = e.index, o = e.object } end
              for _, m in ipairs(ev.moved) do placed[#placed + 1] = { at = m.to, o = m.object } end
              table.sort(placed, function(a, b) return a.at < b.at end)
              for _, p in ipairs(placed) do table.insert(copy, p.at, p.o) end
            end)
            math.randomseed(3)
            local words = { "abc", "ABC", "Abd", "abd", "AB", "ab", "b", "B", "aBc", "ABD", "a", "A" }
            for step = 1, 40 do
              local o = t:first("n == %@", math.random(1, 7))
              if o.tx ~= nil then o.tx = words[math.random(1, #words)]; save() end
              local fresh = fetch{ "t", predicate = "tx != nil", sort = { "tx", "id" } }
              assert(#copy == #fresh, "step " .. step .. ": " .. #copy .. " rows against " .. #fresh)
              for i, x in ipairs(fresh) do assert(rawequal(copy[i], x), "step " .. step .. ", row " .. i .. ": " .. copy[i].tx .. " against " .. x.tx) end
            end
            local fresh = fetch{ "t", predicate = "tx != nil", sort = { "tx", "id" } }
            assert(#copy == #fresh, #copy .. " rows against " .. #fresh)
            for i, x in ipairs(fresh) do assert(rawequal(copy[i], x), "row " .. i .. ": " .. copy[i].tx .. " against " .. x.tx) end
            """#)
    }
}

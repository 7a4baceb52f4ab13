import Foundation
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// `diff(a, b)` from Lua: rows marked `+`, `-`, `~` that iterate, count and export (printing:
/// `EndToEndTests.DiffTests`); two entities of one store compared by object ID; options read and refused.
@Suite struct DiffLuaTests {
    static func harness() throws -> Harness {
        let h = try Harness()
        h.run(
            """
            entity "Old" { title = "string", n = "int64", price = "double?" }
            entity "New" { title = "string", n = "int64", price = "double?" }
            for i = 1, 5 do Old:new{ title = "t" .. i, n = i, price = i * 1.5 } New:new{ title = "t" .. i, n = i, price = i * 1.5 } end
            save()
            New:first("n == 2").title = "two"
            New:first("n == 3"):delete()
            New:first("n == 4").price = 6.001
            New:new{ title = "t6", n = 6 }
            save()
            """)
        return h
    }

    @Test func twoEntitiesCompareByObjectIDAndTheRowsIterateCountAndPrint() throws {
        let h = try Self.harness()
        h.run("d = diff(Old, New)")
        #expect(h.string("#d") == "4")
        #expect(
            h.string(
                "(function() local t = {} for _, r in ipairs(d) do t[#t + 1] = r.change .. ' ' .. r.key .. ' ' .. tostring(r.property) end return table.concat(t, ', ') end)()"
            ) == "~ 2 title, - 3 nil, ~ 4 price, + 6 nil")
        #expect(h.string("d[1].old") == "t2" && h.string("d[1].new") == "two")
        // A tolerance hides the small price change.
        #expect(h.string("#diff(Old, New, { tolerance = { price = 0.01 } })") == "3")
        // Exported as rows are.
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = folder.appendingPathComponent("d.json").path
        h.run("export(d, \"\(path)\")")
        let json = try String(contentsOfFile: path, encoding: .utf8)
        #expect(json.contains("\"change\":\"~\"") || json.contains("\"change\": \"~\""), "\(json)")
    }

    @Test func theStoreComparedWithItselfIsEmpty() throws {
        let h = try Self.harness()
        #expect(h.string("#diff()") == "0")
        #expect(h.string("#diff(nil, nil)") == "0")
        #expect(h.string("#diff(Old, Old)") == "0")
    }

    @Test func badOptionsAreOneLineEach() throws {
        let h = try Self.harness()
        #expect(h.error("diff(Old, New, { tolerance = { price = 'x' } })").contains("tolerance.price must be a number 0 or more"))
        #expect(h.error("diff(Old, New, { by = 3 })").contains("by must be a table of entity = key"))
        let unknown = h.error("diff(Old, New, { by = { Old = 'titel' } })")
        #expect(unknown.contains("'titel'") && unknown.contains("did you mean 'title'"), "\(unknown)")
        #expect(h.error("diff(Old, 42)").contains("bad argument #2"))
    }
}

/// `diff(r1, r2)`: two results compare the objects each selects.
@Suite struct DiffResultsTests {
    @Test func twoResultsCompareTheObjectsTheySelect() throws {
        let h = try DiffLuaTests.harness()
        // Old's objects with n >= 2 against those with n <= 4: 1 is only in the second
        // (inserted), 5 only in the first (deleted); 2, 3 and 4 are the same objects.
        h.run("d = diff(fetch('Old', 'n >= 2'), fetch('Old', 'n <= 4'))")
        #expect(
            h.string("(function() local t = {} for _, r in ipairs(d) do t[#t + 1] = r.change .. r.key end return table.concat(t, ' ') end)()")
                == "+1 -5")
        // Two entities' results: their changed objects among those selected; a limit takes
        // the first objects in the request's sort.
        #expect(h.string("#diff(fetch('Old', 'n < 3'), fetch('New', 'n < 3'))") == "1")
        #expect(h.string("#diff(fetch{ 'Old', sort = { '-n' }, limit = 2 }, fetch{ 'Old', sort = { '-n' }, limit = 2 })") == "0")
        #expect(h.string("diff(fetch{ 'Old', sort = { 'n' }, limit = 2 }, fetch{ 'Old', sort = { '-n' }, limit = 2 })[1].change") == "-")
        #expect(h.string("#diff(Old, fetch('Old'))") == "0")
    }
}

import Foundation
import Testing

/// Trial 30, moment 1: `SortDescriptor(\Item.name, comparator: .localizedStandard)` sorted
/// as `.localized` does (`éclair | Eclair | Item 1 | Item 10 | item 2 | zebra`), and went
/// out again as `.localized`. Foundation's `localizedStandardCompare:` orders digit runs by
/// value, case and accents aside (equal keys, éclair and Eclair, keep the rows' order);
/// SQLite's order and memory's (unsaved objects) say it.
@Suite struct LocalizedStandardOrderTests {
    static let script = #"""
        entity "Item" { name = "string" }
        for _, n in ipairs({ "Item 10", "item 2", "Item 1", "éclair", "Eclair", "zebra" }) do Item:new{ name = n } end
        local function names(r) local t = {} for _, o in ipairs(r) do t[#t+1] = o.name end return table.concat(t, " | ") end
        local sort = [[SortDescriptor(\Item.name, comparator: .localizedStandard)]]
        print(names(fetch{ "Item", sort = sort }))
        save()
        local r = fetch{ "Item", sort = sort }
        print(names(r))
        print(r:swift("query"))
        print(r:swift("nsfetchrequest"):match("NSSortDescriptor%b()"))
        print(names(fetch{ "Item", sort = { { "name", compare = "localizedStandard", ascending = false } } }))
        """#

    @Test func localizedStandardSortsDigitRunsByValueInSQLAndInMemory() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["-e", Self.script])
        #expect(result.status == 0, "\(result)")
        let order = "éclair | Eclair | Item 1 | item 2 | Item 10 | zebra"
        #expect(result.lines.count == 6, "\(result)")
        guard result.lines.count == 6 else { return }
        // Unsaved (sorted in memory), then saved (sorted by SQLite): one order.
        #expect(result.lines[0] == order, "\(result)")
        #expect(result.lines[1] == order, "\(result)")
        // @Query's two lines, then the NSSortDescriptor.
        #expect(result.lines[2].contains(#"SortDescriptor(\Item.name, comparator: .localizedStandard)"#), "\(result)")
        #expect(
            result.lines[4] == #"NSSortDescriptor(key: "name", ascending: true, selector: #selector(NSString.localizedStandardCompare(_:)))"#,
            "\(result)")
        #expect(result.lines[5] == "zebra | Item 10 | item 2 | Item 1 | Eclair | éclair", "\(result)")
    }
}

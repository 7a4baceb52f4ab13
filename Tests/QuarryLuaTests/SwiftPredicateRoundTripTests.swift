import Foundation
import QuarryLua
import QuarryStore
import QuarryTestSupport
import Testing

/// Issue #27 part 4: Swift in. What `p:swift()` writes as `#Predicate` (with the `let`s of
/// the values it captures) is taken back wherever a predicate is, and selects what the
/// predicate it came from selects: every case of `SwiftPredicateExportTests`, whose
/// Swift the real macro already agrees with.
@Suite struct SwiftPredicateRoundTripTests {
    static func titles(_ h: Harness, _ predicate: String) -> String {
        h.string("(function() local t = {} for _, o in ipairs(fetch{ 'Item', predicate = \(predicate) }) do t[#t+1] = o.title end table.sort(t) return table.concat(t, '|') end)()") ?? "<error>"
    }

    @Test func everyExportedMacroReadsBackToTheSameRows() throws {
        let h = try Harness()
        h.run(SwiftPredicateExportTests.model)
        h.run(SwiftPredicateExportTests.luaObjects)
        var readBack = 0
        for (format, arguments) in SwiftPredicateExportTests.cases {
            let original = "predicate([[\(format)]]\(arguments.isEmpty ? "" : ", " + arguments))"
            let code = h.string("\(original):swift('Item')") ?? ""
            let swift = code.split(separator: "\n").drop { $0.hasPrefix("let predicate = NSPredicate") }.joined(separator: "\n")
            guard swift.contains("#Predicate<Item>") else { continue }
            #expect(Self.titles(h, "predicate([==[\(swift)]==])") == Self.titles(h, original), "\(format) → \(swift)")
            readBack += 1
        }
        #expect(readBack >= SwiftPredicateExportTests.cases.count - 2, "only \(readBack) of \(SwiftPredicateExportTests.cases.count) cases had a #Predicate")
    }

    @Test func swiftInEveryPlaceAFormatGoes() throws {
        let h = try Harness()
        h.run(SwiftPredicateExportTests.model)
        h.run(SwiftPredicateExportTests.luaObjects)
        h.run(#"""
            local swift = "#Predicate<Item> { $0.qty > least && $0.owner?.name == \"Ann\" }"
            assert(count("Item", "qty > 0 AND owner.name == 'Ann'") == 2)
            assert(#fetch{ "Item", predicate = swift, vars = { least = 0 } } == 2)
            assert(#fetch{ "Item", predicate = predicate(swift, { least = 0 }) } == 2)
            assert(count("Item", predicate(swift, { least = 0 })) == 2)
            assert(predicate(swift, { least = 0 }):matches(Item:first("title == 'ab'")))
            local sorted = fetch{ "Item", sort = [[SortDescriptor(\.qty, order: .reverse)]] }
            assert(sorted[1].title == "gamma\"#" and sorted[#sorted].title == "alpha")
            local two = fetch{ "Item", sort = { [[\Item.flag]], [[SortDescriptor(\.title)]] } }
            assert(two[1].title == "ab" and two[#two].title == "delta")
            assert(count("Item", swift, { least = 0 }) == 2 and Item:count(swift, { least = 1 }) == 1)
            assert(Item:first("#Predicate<Item> { $0.qty == 7 }").title == "gamma\"#")
            assert(Item:updateall("#Predicate<Item> { $0.qty >= least }", { least = 5 }, { nick = "many" }) == 2)
            assert(count("Item", "nick == 'many'") == 2)
            local r = fetch("Item", "#Predicate<Item> { $0.nick == \"many\" }")
            r:configure{ predicate = "#Predicate<Item> { $0.qty < 3 }" }
            assert(#r == 2)
            """#)
        let positional = h.error(##"count("Item", "#Predicate<Item> { $0.qty > least }", 1)"##)
        #expect(positional.contains("captures by name"), "\(positional)")
        let unknown = h.error(##"count("Item", "#Predicate<Item> { $0.qty > least }")"##)
        #expect(unknown.contains("no value for 'least'") && unknown.contains("column 29"), "\(unknown)")
        let refused = h.error(##"count("Item", "#Predicate<Item> { $0.title.hasSuffix(\"a\") }")"##)
        #expect(refused.contains("hasSuffix(...) has no #Predicate form") && !refused.contains("\n"), "\(refused)")
    }
}

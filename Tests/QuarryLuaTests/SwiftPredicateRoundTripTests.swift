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
        h.string(
            "(function() local t = {} for _, o in ipairs(fetch{ 'Item', predicate = \(predicate) }) do t[#t+1] = o.title end table.sort(t) return table.concat(t, '|') end)()"
        ) ?? "<error>"
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
        #expect(
            readBack >= SwiftPredicateExportTests.cases.count - 2,
            "only \(readBack) of \(SwiftPredicateExportTests.cases.count) cases had a #Predicate")
    }

    @Test func swiftInEveryPlaceAFormatGoes() throws {
        let h = try Harness()
        h.run(SwiftPredicateExportTests.model)
        h.run(SwiftPredicateExportTests.luaObjects)
        h.run(
            #"""
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

    /// Issue 45 item 1: a quantifier whose right side reads the object itself (`ANY
    /// tags.weight < qty`) is exported as `contains(where:)` / `allSatisfy` naming the
    /// outer object, and reads back as the same comparison, selecting the same rows.
    @Test func outerKeysInsideContainsWhereReadBackAsAnyAndAll() throws {
        let h = try Harness()
        h.run(SwiftPredicateExportTests.model)
        h.run(SwiftPredicateExportTests.luaObjects)
        for (format, quantifier) in [
            ("ANY tags.weight < qty", "ANY"), ("ALL tags.weight < qty", "ALL"), ("ANY tags.weight * 2 > qty + 1", "ANY"),
            ("NONE tags.weight > qty", "ANY"), ("ALL tags.weight >= qty - 1", "ALL"), ("ANY tags.weight == qty", "ANY")
        ] {
            let code = h.string("predicate([[\(format)]]):swift('Item')") ?? ""
            let swift = code.split(separator: "\n").drop { $0.hasPrefix("let predicate = NSPredicate") }.joined(separator: "\n")
            #expect(swift.contains("#Predicate<Item>") && swift.contains("item."), "\(format) → \(swift)")
            #expect(Self.titles(h, "predicate([==[\(swift)]==])") == Self.titles(h, "predicate([[\(format)]])"), "\(format) → \(swift)")
            #expect(h.string("tostring(predicate([==[\(swift)]==]))")?.contains(quantifier) == true, "\(format) → \(swift)")
        }
        // The member on the right: the operator turns round.
        #expect(
            Self.titles(h, #"predicate([==[#Predicate<Item> { item in item.tags.contains(where: { tag in item.qty > tag.weight }) }]==])"#)
                == Self.titles(h, "predicate([[ANY tags.weight < qty]])"))
        // Anything else naming the object inside the closure is refused in one line.
        let mixed = h.error(##"count("Item", "#Predicate<Item> { item in item.tags.contains { $0.weight > item.qty && $0.weight > 1 } }")"##)
        #expect(mixed.contains("a key of an outer object") && mixed.contains("column 61") && !mixed.contains("\n"), "\(mixed)")
    }

    /// A `#Predicate<T>` tests T's objects: a fetch of another entity, not T or one that
    /// inherits from T, is refused, naming both, with T's column.
    @Test func aPredicateOfAnotherTypeIsRefused() throws {
        let h = try Harness()
        h.run(SwiftPredicateExportTests.model)
        h.run(SwiftPredicateExportTests.luaObjects)
        let text = h.error(##"count("Item", "#Predicate<Person> { $0.qty > 1 }")"##)
        #expect(text.contains("#Predicate<Person> tests Person objects, and this fetch is of 'Item'") && text.contains("column 12"), "\(text)")
        let object = h.error(##"fetch("Item", predicate("#Predicate<Person> { $0.age > 1 }"))"##)
        #expect(object.contains("#Predicate<Person> tests Person objects"), "\(object)")
        let assigned = h.error(##"local r = fetch("Item") r.predicate = predicate("#Predicate<Person> { $0.age > 1 }")"##)
        #expect(assigned.contains("#Predicate<Person> tests Person objects"), "\(assigned)")
        let configured = h.error(##"fetch("Item"):configure{ predicate = predicate("#Predicate<Person> { $0.age > 1 }") }"##)
        #expect(configured.contains("#Predicate<Person> tests Person objects"), "\(configured)")
        let batch = h.error(##"Item:deleteall("#Predicate<Person> { $0.qty > 1 }")"##)
        #expect(batch.contains("#Predicate<Person> tests Person objects"), "\(batch)")
        h.run(
            #"""
            entity("Car", { abstract = true }) { name = "string" }
            entity("SportCar", { parent = "Car" }) { speed = "int" }
            SportCar:new{ name = "a", speed = 3 } save()
            assert(count("SportCar", "#Predicate<Car> { $0.name == \"a\" }") == 1)
            assert(count("SportCar", "#Predicate<SportCar> { $0.speed > 1 }") == 1)
            """#)
        let up = h.error(##"count("Car", "#Predicate<SportCar> { $0.speed > 1 }")"##)
        #expect(up.contains("#Predicate<SportCar> tests SportCar objects, and this fetch is of 'Car'"), "\(up)")
    }

    /// An attribute named `count` (SwiftData's `var count: Int`, a Component's in a real
    /// app's store) is written `component.count` by `p:swift()`, on the object, through a
    /// to-one and in a member's closure, and each reads back as the attribute, not as a
    /// relationship's count, selecting what the format selects.
    @Test func anAttributeNamedCountReadsBack() throws {
        let h = try Harness()
        h.run(
            """
            entity "Box" { count = "int64" }
            entity "Part" { count = "int64", box = { one = "Box", inverse = "parts" } }
            entity "Box" { count = "int64", parts = { many = "Part", inverse = "box" } }
            local b = Box:new{ count = 3 }
            Part:new{ count = 5, box = b } Part:new{ count = 1, box = b } Part:new{ count = 7 }
            Box:new{ count = 1 }
            save()
            """)
        for (entity, format) in [
            ("Part", "count > 2"), ("Part", "box.count > 2"), ("Box", "ANY parts.count > 4"),
            ("Box", "SUBQUERY(parts, $p, $p.count > 4).@count > 0"), ("Box", "count > 2 AND parts.@count > 1")
        ] {
            let swift = h.string("predicate([[\(format)]]):swift('predicate', '\(entity)')") ?? ""
            #expect(swift.contains("#Predicate<\(entity)>") && swift.contains(".count"), "\(format) → \(swift)")
            let back = h.string("tostring(count('\(entity)', [==[\(swift)]==]))") ?? "<error>"
            #expect(back == h.string("tostring(count('\(entity)', [[\(format)]]))") && back != "0", "\(format) → \(swift): \(back)")
        }
    }
}

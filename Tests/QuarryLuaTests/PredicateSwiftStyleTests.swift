import Testing

/// Issue #79 part 5: `p:swift(style)` as the contract gives it. "nspredicate" is the
/// `NSPredicate(format:)` line, "predicate" the `#Predicate` after its `let`s; with no
/// argument, what fits the store (Quarry's own: `#Predicate`), the entity taken from the
/// `#Predicate<T>`; every line printed reads back to the same rows.
@Suite struct PredicateSwiftStyleTests {
    static func harness() throws -> Harness {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { name = "string", qty = "int64" }
            for i = 1, 6 do Item:new{ name = "n" .. i, qty = i } end
            save()
            """#)
        return h
    }

    @Test func stylesGiveTheirOwnLines() throws {
        let h = try Self.harness()
        h.run(#"p = predicate("qty > %@ AND name != %@", 2, "n5")"#)
        let ns = try #require(h.string(#"p:swift("nspredicate", "Item")"#))
        #expect(ns.hasPrefix("let predicate = NSPredicate(format:") && !ns.contains("#Predicate"), "\(ns)")
        let macro = try #require(h.string(#"p:swift("predicate", "Item")"#))
        #expect(macro.contains("#Predicate<Item>") && !macro.contains("NSPredicate"), "\(macro)")
        let both = try #require(h.string(#"p:swift("Item")"#))
        #expect(both.contains("NSPredicate(format:") && both.contains("#Predicate<Item>"), "\(both)")
        // Each reads back to the rows the predicate selects (3, 4 and 6).
        for style in ["nspredicate", "predicate"] {
            h.run("q = predicate(p:swift(\"\(style)\", \"Item\"), nil)")
            #expect(h.string(#"tostring(#fetch{ "Item", predicate = q })"#) == "3", "\(style)")
        }
        h.run(#"q = predicate(p:swift("Item"))"#)
        #expect(h.string(#"tostring(#fetch{ "Item", predicate = q })"#) == "3")
    }

    @Test func noArgumentTakesTheEntityOfTheMacro() throws {
        let h = try Self.harness()
        h.run(##"p = predicate("#Predicate<Item> { $0.qty % 2 == 0 && !$0.name.isEmpty }", nil)"##)
        let code = try #require(h.string("p:swift()"))
        #expect(code.contains("#Predicate<Item>") && !code.contains("NSPredicate"), "\(code)")
        #expect(h.string(#"tostring(#fetch{ "Item", predicate = p })"#) == "3")
        #expect(h.error(#"predicate("qty > 1"):swift()"#).contains("p:swift needs the entity"))
    }
}

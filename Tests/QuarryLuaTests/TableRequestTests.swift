import Testing

/// The table form of a request takes its predicate and arguments listed after the
/// entity, as the call form does (`fetch{ "Item", "n > %@", 3, sort = "n" }`), or named
/// (`predicate =`, `args =`); a handle's method lists no entity. Nothing listed is ever
/// dropped: `Item:fetch{ "n > 3" }` held every row.
@Suite struct TableRequestTests {
    @Test func theListAfterTheEntityIsThePredicateAndItsArguments() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64" }; for i = 1, 5 do Item:new{ n = i } end; save()"#)
        #expect(h.string(#"#fetch{ "Item", "n > %@", 3 }"#) == "2")
        #expect(h.string(#"fetch{ "Item", "n > %@ AND n < %@", 1, 5, sort = "-n" }[1].n"#) == "4")
        #expect(h.string(#"count{ "Item", "n > 3" }"#) == "2")
        #expect(h.string(#"#Item:fetch{ "n > 3" }"#) == "2")
        #expect(h.string(#"#Item:fetch{ "n > %@", 1, limit = 2 }"#) == "2")
        #expect(h.string(#"#fetch{ "Item", predicate = "n > %@", args = { 3 } }"#) == "2")
        #expect(h.string(#"count("Item", "n > %@", 3)"#) == "2")
        // Given twice, or something else where the predicate goes: one line, never dropped.
        for call in [
            #"fetch{ "Item", "n > 3", predicate = "n > 1" }"#, #"fetch{ "Item", "n > %@", 3, args = { 1 } }"#,
            #"fetch{ "Item", 3 }"#, #"Item:fetch{ 3 }"#
        ] {
            let message = h.error("local _ = \(call)")
            #expect(message.contains(": fetch: ") && !message.contains("\n"), "\(call): \(message)")
        }
    }
}

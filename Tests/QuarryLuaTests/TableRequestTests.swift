import Testing

/// The table form of a request names its predicate: list items after the entity are
/// refused with one line, never dropped (a "filtered" fetch would hold every row).
@Suite struct TableRequestTests {
    @Test func listItemsAfterTheEntityAreRefused() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64" }; for i = 1, 5 do Item:new{ n = i } end; save()"#)
        for call in [#"fetch{ "Item", "n > %@", 3 }"#, #"count{ "Item", "n > 3" }"#] {
            let message = h.error("local _ = \(call)")
            #expect(message.contains("predicate = ") && !message.contains("\n"), "\(call): \(message)")
        }
        #expect(h.string(#"#fetch{ "Item", predicate = "n > %@", args = { 3 } }"#) == "2")
        #expect(h.string(#"count("Item", "n > %@", 3)"#) == "2")
    }
}

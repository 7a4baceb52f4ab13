import Testing

/// An object whose delete was saved is in no store: it has no changes left to save (as
/// Core Data's `hasChanges` is false after the save), and it prints saying it was
/// deleted, where it printed as a row still there (newcomer trial).
@Suite struct SavedDeleteTests {
    @Test func aSavedDeleteLeavesNoChangesAndPrintsAsDeleted() throws {
        let h = try Harness()
        h.run(#"entity "A" { name = "string" }; a = A:new{ name = "Tmp" }; save(); a:delete()"#)
        #expect(h.string("tostring(a:hasChanges()) .. ' ' .. tostring(haschanges())") == "true true")
        #expect(h.string("tostring(a)") == #"A/1 {name = "Tmp"}"#)
        h.run("save()")
        #expect(h.string("tostring(a:hasChanges()) .. ' ' .. tostring(haschanges())") == "false false")
        #expect(h.string("tostring(a)") == #"A/1 (deleted) {name = "Tmp"}"#)
        // An insert rolled back is in no store either.
        h.run(#"b = A:new{ name = "n" }; rollback()"#)
        #expect(h.string("tostring(b:hasChanges())") == "false")
        #expect(h.string("tostring(b)")?.contains("(deleted)") == true)
    }
}

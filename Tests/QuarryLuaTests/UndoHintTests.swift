import Foundation
import QuarryShell
import QuarryStore
import Testing

@Suite struct UndoHintTests {
    /// `undo()`, as an editor or DBeaver has it, was Lua's bare "attempt to call a nil
    /// value (global 'undo')" (trial 22): it says what takes a change back here.
    @Test func undoSaysWhatTakesAChangeBack() throws {
        let h = try Harness(context: try StoreOpener.open(try foreignFile("CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT);")))
        let undo = h.error("undo()")
        #expect(
            undo.hasSuffix(
                "(global 'undo'); there is no undo: rollback() drops the changes not yet saved (.changes lists them), and a saved value is put back by setting it again and saving"
            ), "\(undo)")
        // Another missing function keeps Lua's words alone.
        #expect(h.error("undone()").hasSuffix("(global 'undone')"))
    }
}

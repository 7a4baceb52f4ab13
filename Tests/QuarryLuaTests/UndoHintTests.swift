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
                "(global 'undo'); there is no undo: rollback() drops the changes not yet saved (.changes lists them), o:refresh() one object's, and a saved value is put back by setting it again and saving (help(\"rollback\"))"
            ), "\(undo)")
        // Another missing function keeps Lua's words alone.
        #expect(h.error("undone()").hasSuffix("(global 'undone')"))
    }

    /// Other tools' functions a user reaches for (`sections()`, `commit()`, `query()`)
    /// say what does that here; a global of that name the user set is theirs.
    @Test func anotherToolsFunctionSaysWhatDoesItHere() throws {
        let h = try Harness(context: try StoreOpener.open(try foreignFile("CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT);")))
        let sections = h.error("sections(fetch('t'), 'x')")
        let said =
            "; results are sectioned by fetch{ \"Entity\", section = \"key\" }: #r is then the number of sections, "
            + "r[i] a section (.name, #sec, sec[j])"
        #expect(sections.hasSuffix("(global 'sections')" + said), "\(sections)")
        let commit = h.error("commit()")
        #expect(commit.hasSuffix("(global 'commit'); save() writes every pending change in one transaction, rollback() drops them (help(\"save\"))"))
        let query = h.error("query('select 1')")
        #expect(query.contains("(global 'query'); fetch() reads objects or grouped rows, and SQL typed at the prompt runs as sql() does"))
        // help() says the same of the word.
        let help = h.error("help('sections')")
        #expect(help.hasSuffix("(no help for 'sections' here: " + said.dropFirst(2) + ")"), "\(help)")
        // Indexed rather than called: Lua's words, as the hint is about a call.
        #expect(h.error("local n = commit.x").hasSuffix("(global 'commit')"))
    }
}

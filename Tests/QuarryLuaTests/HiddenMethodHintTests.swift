import QuarryShell
import Testing

/// A column named as an object's method (`delete`, `changes`) hides it, as the contract
/// says attributes do: calling it names the form that always works, where Lua said only
/// "attempt to call a number value (method 'delete')" (newcomer trial).
@Suite struct HiddenMethodHintTests {
    @Test func aKeyThatHidesAMethodNamesTheFormThatCallsIt() throws {
        let path = try foreignFile(
            """
            CREATE TABLE task (id INTEGER PRIMARY KEY, "delete" INTEGER, changes TEXT);
            INSERT INTO task VALUES (1, 5, 'x');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(
            h.error("task:first():delete()").hasSuffix(
                "attempt to call a number value (method 'delete'); a key named 'delete' hides the object's method: quarry.delete(o) calls it"))
        #expect(h.error("task:first():changes()").contains("quarry.changes(o) calls it"))
        // Following it: the method, and the key still reads its value.
        #expect(
            h.string("(function() local t = task:first(); quarry.delete(t); return tostring(t:isDeleted()) .. ' ' .. t.delete end)()") == "true 5")
        // A method no key hides is not named.
        #expect(!h.error("task:first():nope()").contains("hides"))
    }

    /// A table named as a Lua global (`type`) has no global handle: Lua's own message
    /// said only "attempt to index a function value (global 'type')".
    @Test func anEntityNamedAsALuaGlobalNamesWhereItsHandleIs() throws {
        let path = try foreignFile(
            """
            CREATE TABLE type (id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO type VALUES (1, 'sound');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(
            h.error("type:first()").hasSuffix(
                #"attempt to index a function value (global 'type'); the global 'type' is Lua's own, so the entity type is not bound there: stores()[1]["type"] is its handle, and fetch("type"), count("type") take its name"#
            ))
        #expect(h.string(#"stores()[1]["type"]:first().name"#) == "sound")
        // Another global's error says nothing of entities.
        #expect(!h.error("print:first()").contains("entity"))
    }
}

import QuarryLua
import Testing

/// `deleteall(pred, args)`: an argument given without its table, or one past the table,
/// is refused by number, and nothing is deleted; `deleteall("n == 1", 5)` deleted the row
/// without reading its 5.
@Suite struct BatchArgumentTests {
    @Test func deleteallRefusesArgumentsItWouldNotRead() throws {
        let h = try Harness()
        h.run(#"entity "T" { n = "int64" } for i = 1, 3 do T:new{ n = i } end save()"#)
        #expect(h.error(#"T:deleteall("n == 1", 5)"#).contains("bad argument #2 to 'deleteall' (table of arguments expected, got number;"))
        #expect(
            h.error(#"T:deleteall("n == %@", "abc")"#).contains(
                #"bad argument #2 to 'deleteall' (table of arguments expected, got string; the arguments go in one table: deleteall("pred", { args }))"#
            ))
        // updateall names its own form.
        #expect(
            h.error(#"T:updateall("n == %@", 1, { n = 5 })"#).contains(
                #"the arguments go in one table: updateall("pred", { args }, { key = value }))"#))
        // The values where the arguments go (fetch's shape) name the form that takes them.
        #expect(
            h.error(#"T:updateall("n == 1", { n = 5 })"#).hasSuffix(
                #"updateall: the values to set come after the predicate's arguments: updateall("pred", {}, { n = ... })"#))
        // So do they when the predicate needs an argument (it said "%@ has no argument").
        #expect(
            h.error(#"T:updateall("n == %@", { n = 5 })"#).hasSuffix(
                #"updateall: the values to set come after the predicate's arguments: updateall("pred", { args }, { n = ... })"#))
        // And when they come before the arguments (it said "%@ has no argument (0 given)").
        #expect(
            h.error(#"T:updateall("n == %@", { n = 5 }, { 1 })"#).hasSuffix(
                #"updateall: the values to set come after the predicate's arguments: updateall("pred", { args }, { n = ... })"#))
        #expect(h.string(#"T:updateall("n == 1", {}, { n = 5 })"#) == "1")
        #expect(h.error(#"T:deleteall("n == %@", { 1 }, 7)"#).contains("bad argument #3 to 'deleteall'"))
        #expect(h.error(#"T:deleteall(predicate("n == 1"), { 1 })"#).contains("bad argument #2 to 'deleteall'"))
        #expect(h.string("T:count()") == "3")
        #expect(h.string(#"T:deleteall("n == %@", { 5 })"#) == "1")
        #expect(h.string(#"T:deleteall(predicate("n == 2"), nil)"#) == "1")
        // No predicate and an empty table of arguments: every row, as before.
        #expect(h.string(#"T:deleteall(nil, {})"#) == "1")
        #expect(h.string("T:count()") == "0")
    }
}

import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// A to-one read from rows a loop holds as cells (not yet objects) loads the targets of
/// the whole batch at once, as it does for objects: not one query per row, and not a
/// scan of the batch per row (which made 8,000 one-to-one reads take seconds).
@Suite struct RowRelationshipLoadingTests {
    @Test func toOneTargetsOfHeldRowsLoadOncePerBatch() throws {
        let context = try StoreOpener.open(nil)
        let h = try Harness(context: context)
        h.run(
            #"""
            entity("Color") { name = "string", post = { one = "Post", inverse = "color" } }
            entity("Post") { title = "string", color = { one = "Color", inverse = "post" } }
            for i = 1, 3000 do local p = Post:new{ title = "p" .. i }; p.color = Color:new{ name = "c" .. i } end
            save()
            """#)
        var selects = 0
        try context.connection.database.writeWithoutTransaction { db in
            db.trace { event in if case .statement(let s) = event, s.sql.hasPrefix("SELECT") { selects += 1 } }
        }
        h.run(
            #"""
            held = {}
            for _, p in ipairs(fetch{ "Post", sort = "title" }) do held[#held + 1] = p end
            named = 0
            for _, p in ipairs(held) do if p.color.name == "c" .. p.title:sub(2) then named = named + 1 end end
            """#)
        try context.connection.database.writeWithoutTransaction { db in db.trace(options: [], nil) }
        #expect(h.string("named") == "3000")
        #expect(selects < 60, "\(selects) SELECTs for 3,000 to-one reads")
    }
}

import Foundation
import Testing

/// An app developer's trial on Core Data stores Quarry did not make (a map app's seeded
/// store of cities, locations and nodes, whose to-manys cascade): the moments where an
/// answer was not the whole of what happened, through the real binary.
@Suite struct TrialNineteenTests {
    /// Cities, locations and the nodes both own, as the seeded store lays them out:
    /// deleting a location or a city cascades to its nodes.
    private func places(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.quarry([
            "places.db", "-e",
            """
            entity "City" { name = "string" }
            entity "Location" { latitude = "double" }
            entity "Node" { name = "string",
              inCity = { one = "City", inverse = "nodes" }, inLocation = { one = "Location", inverse = "nodes" } }
            entity "City" { name = "string", nodes = { many = "Node", inverse = "inCity", delete = "cascade" } }
            entity "Location" { latitude = "double", nodes = { many = "Node", inverse = "inLocation", delete = "cascade" } }
            local north, south = City:new{ name = "north" }, City:new{ name = "south" }
            for i = 1, 4 do
              local l = Location:new{ latitude = 20 + i * 2 }
              for j = 1, 3 do Node:new{ name = "n" .. i .. j, inCity = (i <= 2) and south or north, inLocation = l } end
            end
            save()
            """
        ])
        #expect(made.status == 0, "\(made)")
    }

    /// `Location:deleteall("latitude > 26")` answered 72 (the locations) and took the 77
    /// nodes of those locations too by the cascade rule, without a word; and the question
    /// before deleting every city named only the cities. The count stays the entity's
    /// rows, as NSBatchDeleteRequest counts them; a note names what the rules took too,
    /// and the question names the entities the rules reach.
    @Test func aBatchDeleteSaysWhatItsCascadeTookToo() async throws {
        let sandbox = try Sandbox()
        try await places(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["places.db"], columns: 160)
        try await repl.waitForPrompt()
        let deleted = try await repl.enter(#"=Location:deleteall("latitude > 25")"#)
        #expect(deleted.contains("note: the delete rules also deleted 6 rows of Node (cascade)") && deleted.last == "2", "\(deleted.suffix(4))")
        #expect(try await sqlite3Lines(sandbox, "places.db", "SELECT count(*) FROM Node") == ["6"])
        let start = try await repl.screen().count
        try await repl.type("=City:deleteall()")
        try await repl.press("Enter")
        try await repl.waitUntil("the question") {
            $0.count > start && $0.last == "delete all 2 rows of City (its delete rules cascade to Node)? [y/N]"
        }
        try await repl.type("n")
        try await repl.press("Enter")
        let answered = try await repl.waitForPrompt(">", after: start + 1)
        #expect(answered.contains { $0.contains("nothing deleted") }, "\(answered.suffix(4))")
        #expect(try await sqlite3Lines(sandbox, "places.db", "SELECT count(*) FROM Node") == ["6"])
        // A delete that reaches no row through a cascade says nothing more.
        let plain = try await repl.enter(#"=Node:deleteall("name == 'n11'")"#)
        #expect(!plain.contains { $0.contains("delete rules also") }, "\(plain.suffix(4))")
    }

    /// Deleting one city staged its 82 nodes and 77 locations too (the cascade rules), and
    /// `.changes` listed the 160 IDs one a line with no count, scrolling the start away.
    /// A kind of several entities (or many objects) says first how many of each; a long
    /// list goes through the pager as a long table does.
    @Test func changesCountsWhatACascadeStaged() async throws {
        let sandbox = try Sandbox()
        try await places(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["places.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"City:first("name == 'south'"):delete()"#)
        let changes = try await repl.enter(".changes")
        #expect(Array(changes.prefix(3)) == ["inserted: none", "updated: none", "deleted: 7 objects (1 City, 6 Node)"], "\(changes)")
        #expect(changes.contains("         City/2"), "\(changes)")
        #expect(changes.filter { $0.hasPrefix("         Node/") }.count == 6, "\(changes)")
        _ = try await repl.enter("rollback()")
        // Objects of one entity, a few: one a line, as before.
        _ = try await repl.enter(#"for _, n in ipairs(fetch("Node", "name BEGINSWITH 'n1'")) do n:delete() end"#)
        let few = try await repl.enter(".changes")
        #expect(few == ["inserted: none", "updated: none", "deleted: Node/1", "         Node/2", "         Node/3"], "\(few)")
    }
}

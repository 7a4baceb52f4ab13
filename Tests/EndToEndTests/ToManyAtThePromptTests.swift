import Foundation
import Testing

/// A to-many typed at the prompt (`n.cards`) showed bare IDs (`notes/1.cards {cards/2}`),
/// where results show a table: it now shows its members as results do, unsaved ones
/// included; `print` keeps the IDs, as scripts read them.
@Suite struct ToManyAtThePromptTests {
    @Test func aToManyShowsItsMembersAsATable() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "m.db", "-e",
            #"""
            entity "Album" { title = "string", year = "int64" }
            entity "Artist" { name = "string", albums = { many = "Album", inverse = "artist" } }
            local a = Artist:new{ name = "Plini" }
            a.albums:add(Album:new{ title = "Handmade Cities", year = 2016 })
            a.albums:add(Album:new{ title = "Impulse Voices", year = 2020 })
            save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["m.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"a = Artist:first()"#)
        _ = try await repl.enter(#"a.albums:add(Album:new{ title = "Sunhead", year = 2018 })"#)
        let shown = try await repl.enter("a.albums")
        #expect(shown.first?.hasPrefix("id ") == true && shown.first?.contains("| title") == true, "\(shown)")
        for title in ["Handmade Cities", "Impulse Voices", "Sunhead"] {
            #expect(shown.contains { $0.contains(title) }, "\(title): \(shown)")
        }
        #expect(shown.last == "(3 objects)", "\(shown)")
        // print keeps the members' IDs.
        let printed = try await repl.enter("print(a.albums)")
        #expect(printed.count == 1 && printed[0].hasPrefix("Artist/1.albums {Album/"), "\(printed)")
    }
}

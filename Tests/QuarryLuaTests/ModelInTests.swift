import Foundation
import QuarryLua
import QuarryStore
import QuarryTestSupport
import Testing

/// `model(path)`: a Core Data model file's entities defined in a Quarry store, then used.
@Suite struct ModelInTests {
    @Test func aModelsEntitiesAreDefinedAndHoldData() throws {
        let h = try Harness()
        let authors = try CoreDataFixtures.path("authors/Sample.xcdatamodeld")
        h.run(
            #"""
            local es = model("\#(authors)")
            assert(#es == 3 and Author and Book and Publisher, "the current version's entities, bound as globals")
            local a = Author:new{ firstName = "Ada", lastName = "Lovelace" }
            local b = Book:new{ title = "Notes" }
            a.books:add(b)
            save()
            assert(count("Book", "ANY authors.lastName == 'Lovelace'") == 1)
            assert(#b.authors == 1)
            """#)
        // The model's types: posts' Post has a date, a boolean and a string.
        let posts = try CoreDataFixtures.path("posts/CoreDataMigration_Example.xcdatamodeld")
        h.run(#"model("\#(posts)")"#)
        let post = try h.context.entity(named: "Post")
        #expect(post.attribute(named: "date")?.type == .date)
        #expect(post.attribute(named: "hide")?.type == .bool)
        #expect(post.attribute(named: "postID")?.type == .string)
        // Loading again changes nothing and is no error.
        h.run(#"model("\#(posts)")"#)
    }

    @Test func whatCannotBeDefinedIsRefusedWholeWithOneLine() throws {
        let h = try Harness()
        h.run(#"entity "Post" { date = "string" }"#)
        let before = try StoreSnapshot(h.context)
        let posts = try CoreDataFixtures.path("posts/CoreDataMigration_Example.xcdatamodeld")
        let typeChange = h.error(#"model("\#(posts)")"#)
        #expect(typeChange.contains("'date'") && typeChange.contains("nothing was defined"), "\(typeChange)")
        let missing = h.error(#"model("/no/such/App.momd")"#)
        #expect(missing.contains("/no/such/App.momd") && missing.contains("no such file"), "\(missing)")
        for message in [typeChange, missing] { #expect(!message.contains("\n") && message.hasPrefix("t:1: ")) }
        #expect(try StoreSnapshot(h.context).tables == before.tables, "the store changed")
        #expect((try? h.context.entity(named: "Color")) == nil, "posts' Color was defined although the model was refused")
    }
}

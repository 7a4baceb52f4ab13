import Foundation
import QuarryModel
import QuarrySQLite
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// A many-to-many pair keeps its links in one table, named after the side that sorts
/// first (`storage(of:in:)`), whichever side is defined first: the definition resolves
/// the link tables against the definitions as they will be, the inverse it adds to the
/// other side included (`QuarryDefinition`), as on PostgreSQL.
struct LinkTableDefinitionTests {
    @Test func aPairDefinedFromTheSideThatSortsLastMakesOneLinkTable() throws {
        let context = try OpenFileRequest.open(path: nil)
        try context.define(EntityDescription(name: "Book", attributes: [AttributeDescription(name: "title", type: .string)]))
        // Tag's side would name `quarry_link_Tag_books`; Book's, once it has the inverse, sorts first.
        try context.define(
            EntityDescription(
                name: "Tag", attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [RelationshipDescription(name: "books", destination: "Book", inverse: "tags", isToMany: true)]))
        let tables = try context.connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'quarry\\_link\\_%' ESCAPE '\\' ORDER BY name")
        #expect(tables == [[.text("quarry_link_Book_tags")]])
        let book = try context.insert(into: "Book", values: ["title": .text("b")])
        let tag = try context.insert(into: "Tag", values: ["name": .text("t")])
        try context.addRelated(tag, to: "tags", of: book)
        try context.save()
        #expect(try context.connection.rows("SELECT count(*) FROM quarry_link_Book_tags") == [[.integer(1)]])
    }
}

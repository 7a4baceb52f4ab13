import Foundation
import QuarryTestSupport
import Testing

/// Redefining an entity without a relationship whose inverse another entity declares
/// keeps the other end, as a to-many without an inverse, its links moved to a link table
/// in the redefinition's transaction (issue 60, item 9; the contract's Context
/// paragraph): on a Quarry file and on PostgreSQL alike, after reopening. Before, the
/// relationship came back on the redefined entity (as a to-many), and a one-to-many's
/// links were lost with the dropped column.
@Suite struct RedefinitionWithoutInverseTests {
    /// Authors with books (one-to-many) and tags on books (many-to-many), saved.
    static let define = #"""
        entity "Author" { name = "string", books = { many = "Book", inverse = "author" } }
        entity "Book" { title = "string", author = { one = "Author", inverse = "books" } }
        entity "Tag" { name = "string", books = { many = "Book", inverse = "tags" } }
        entity "Book" { title = "string", author = { one = "Author", inverse = "books" }, tags = { many = "Tag", inverse = "books" } }
        local a1, a2 = Author:new{ name = "a1" }, Author:new{ name = "a2" }
        local t1, t2 = Tag:new{ name = "t1" }, Tag:new{ name = "t2" }
        for i = 1, 4 do
          local b = Book:new{ title = "b" .. i, author = (i <= 3) and a1 or a2 }
          if i % 2 == 1 then b.tags:add(t1) end
          if i >= 2 then b.tags:add(t2) end
        end
        Author:new{ name = "a3" }
        save()
        """#

    /// Prints each author's and each tag's books, sorted: `a1 b1,b2,b3`.
    static let show = #"""
        function titles(set) local t = {} for _, b in ipairs(set) do t[#t + 1] = b.title end table.sort(t) return table.concat(t, ",") end
        function show()
          for _, e in ipairs{ "Author", "Tag" } do
            for _, o in ipairs(fetch{ e, sort = "name" }) do print(o.name, titles(o.books)) end
          end
        end

        """#

    /// Each author's and tag's books as `define` links them.
    static let links = ["a1\tb1,b2,b3", "a2\tb4", "a3\t", "t1\tb1,b3", "t2\tb2,b3,b4"]

    /// The schema's lines for the entities, as `.schema` shows them.
    static func schema(_ sandbox: Sandbox, _ store: String) async throws -> [String] {
        let shown = try await sandbox.quarry([store, "-"], stdin: ".schema\n")
        #expect(shown.status == 0, "\(shown)")
        return shown.lines
    }

    /// The lines `.schema` shows for `entity`, from its `entity "Name" {` line to its `}`.
    static func block(_ entity: String, in lines: [String]) -> [String] {
        guard let start = lines.firstIndex(of: "entity \"\(entity)\" {") else { return [] }
        let end = lines[start...].firstIndex(of: "}") ?? lines.endIndex
        return Array(lines[start..<end])
    }

    /// Each store: a Quarry file, and a schema on a real PostgreSQL server.
    static func stores(_ name: String) async throws -> [String] {
        ["lite.db", try await PostgresServer.database(name)]
    }

    /// Book redefined without `author` and `tags`: Author.books and Tag.books stay, as
    /// to-many relationships without an inverse, holding exactly the links they had,
    /// also for the objects loaded before (`a.books`), after reopening, and in new links.
    @Test func theOtherEndsKeepTheirLinksWithoutAnInverse() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("define.lua", Self.define)
        try sandbox.write(
            "redefine.lua",
            Self.show + #"""
                local a1 = Author:first("name == 'a1'")
                local t2 = Tag:first("name == 't2'")
                print("loaded", titles(a1.books), titles(t2.books))
                entity "Book" { title = "string" }
                print("after", titles(a1.books), titles(t2.books))
                show()
                """#)
        try sandbox.write(
            "reopen.lua",
            Self.show + #"""
                show()
                -- The relationship did not come back on Book.
                print(pcall(function() return Book:first("title == 'b1'").author end))
                -- New links are kept as any to-many's without an inverse.
                Author:first("name == 'a3'").books:add(Book:first("title == 'b1'"))
                Tag:first("name == 't1'").books:remove(Book:first("title == 'b3'"))
                save()
                """#)
        try sandbox.write("again.lua", Self.show + "show()\n")
        for store in try await Self.stores("redefinedends") {
            for script in ["define.lua", "redefine.lua", "reopen.lua"] {
                let result = try await sandbox.quarry([store, script])
                #expect(result.status == 0, "\(store) \(script): \(result)")
                if script == "redefine.lua" {
                    #expect(result.lines == ["loaded\tb1,b2,b3\tb2,b3,b4", "after\tb1,b2,b3\tb2,b3,b4"] + Self.links, "\(store): \(result)")
                }
                if script == "reopen.lua" {
                    #expect(Array(result.lines.prefix(5)) == Self.links, "\(store): \(result)")
                    #expect(result.lines.count == 6 && result.lines[5].hasPrefix("false\t"), "\(store): \(result)")
                }
            }
            let again = try await sandbox.quarry([store, "again.lua"])
            #expect(again.lines == ["a1\tb1,b2,b3", "a2\tb4", "a3\tb1", "t1\tb1", "t2\tb2,b3,b4"], "\(store): \(again)")
            let schema = try await Self.schema(sandbox, store)
            #expect(Self.block("Book", in: schema) == ["entity \"Book\" {", "  title = \"string\","], "\(store): \(schema)")
            #expect(Self.block("Author", in: schema).contains("  books = { many = \"Book\" },"), "\(store): \(schema)")
            #expect(Self.block("Tag", in: schema).contains("  books = { many = \"Book\" },"), "\(store): \(schema)")
        }
    }

    /// A redefinition refused (unsaved changes) or failing inside its transaction (a new
    /// required attribute the rows cannot fill, after the links were moved) leaves the
    /// store and the model as they were: every link, and both inverses.
    @Test func aRefusedOrFailedRedefinitionLeavesEverythingAsItWas() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("define.lua", Self.define)
        try sandbox.write(
            "refused.lua",
            Self.show + #"""
                Author:new{ name = "pending" }
                print(pcall(function() entity "Book" { title = "string" } end))
                rollback()
                print(pcall(function() entity "Book" { title = "string", isbn = "string" } end))
                show()
                print(Book:first("title == 'b4'").author.name, #Book:first("title == 'b3'").tags)
                """#)
        try sandbox.write("reopen.lua", Self.show + "show()\n")
        for store in try await Self.stores("refusedredefinition") {
            let before = try await sandbox.quarry([store, "define.lua"])
            #expect(before.status == 0, "\(store): \(before)")
            let schemaBefore = try await Self.schema(sandbox, store)
            let refused = try await sandbox.quarry([store, "refused.lua"])
            #expect(refused.status == 0, "\(store): \(refused)")
            #expect(refused.lines.count == 8, "\(store): \(refused)")
            #expect(refused.lines.first?.hasPrefix("false\t") == true && refused.stdout.contains("unsaved changes"), "\(store): \(refused)")
            #expect(refused.lines.dropFirst().first?.hasPrefix("false\t") == true && refused.stdout.contains("isbn"), "\(store): \(refused)")
            #expect(Array(refused.lines.dropFirst(2).prefix(5)) == Self.links, "\(store): \(refused)")
            #expect(refused.lines.last == "a2\t2", "\(store): \(refused)")
            let reopened = try await sandbox.quarry([store, "reopen.lua"])
            #expect(reopened.lines == Self.links, "\(store): \(reopened)")
            let schemaAfter = try await Self.schema(sandbox, store)
            #expect(schemaAfter == schemaBefore, "\(store)")
            #expect(Self.block("Book", in: schemaAfter).contains("  author = { one = \"Author\", inverse = \"books\" },"), "\(store)")
        }
    }

    /// The reverse: Author redefined without `books` while Book keeps `author`: the
    /// to-one stays, without an inverse, its column and links kept; `books` does not come
    /// back on Author.
    @Test func aToOneWhoseInverseGoesKeepsItsLinks() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("define.lua", Self.define)
        let list = #"for _, b in ipairs(fetch{ "Book", sort = "title" }) do print(b.title, b.author and b.author.name) end"#
        try sandbox.write(
            "redefine.lua",
            #"""
            local b4 = Book:first("title == 'b4'")
            print(b4.author.name)
            entity "Author" { name = "string" }
            print(b4.author.name)
            """# + list + "\n")
        try sandbox.write("reopen.lua", list + "\nprint(pcall(function() return Author:first(\"name == 'a1'\").books end))\n")
        for store in try await Self.stores("redefinedtoone") {
            let define = try await sandbox.quarry([store, "define.lua"])
            #expect(define.status == 0, "\(store): \(define)")
            let redefined = try await sandbox.quarry([store, "redefine.lua"])
            #expect(redefined.lines == ["a2", "a2", "b1\ta1", "b2\ta1", "b3\ta1", "b4\ta2"], "\(store): \(redefined)")
            let reopened = try await sandbox.quarry([store, "reopen.lua"])
            #expect(Array(reopened.lines.prefix(4)) == ["b1\ta1", "b2\ta1", "b3\ta1", "b4\ta2"], "\(store): \(reopened)")
            #expect(reopened.lines.count == 5 && reopened.lines[4].hasPrefix("false\t"), "\(store): \(reopened)")
            let schema = try await Self.schema(sandbox, store)
            #expect(Self.block("Author", in: schema) == ["entity \"Author\" {", "  name = \"string\","], "\(store): \(schema)")
            #expect(Self.block("Book", in: schema).contains("  author = { one = \"Author\" },"), "\(store): \(schema)")
        }
    }
    /// Defined back with the relationship (a script run again), each end's links move back
    /// where a pair keeps them: the to-one's column, the many-to-many's shared table. A
    /// book in two authors' sets cannot go back to a to-one: refused, nothing changed.
    @Test func definingTheRelationshipAgainMovesTheLinksBack() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("define.lua", Self.define)
        try sandbox.write("drop.lua", #"entity "Book" { title = "string" }"# + "\n")
        let both = #"entity "Book" { title = "string", author = { one = "Author", inverse = "books" }, tags = { many = "Tag", inverse = "books" } }"#
        try sandbox.write("back.lua", Self.show + both + "\nshow()\nprint(Book:first(\"title == 'b4'\").author.name)\n")
        try sandbox.write(
            "shared.lua",
            Self.show + #"entity "Book" { title = "string" }"# + "\n"
                + #"Author:first("name == 'a2'").books:add(Book:first("title == 'b1'")); save()"# + "\n"
                + "print(pcall(function() \(both) end))\nshow()\n")
        try sandbox.write("reopen.lua", Self.show + "show()\n")
        for store in try await Self.stores("definedagain") {
            for script in ["define.lua", "drop.lua"] {
                let result = try await sandbox.quarry([store, script])
                #expect(result.status == 0, "\(store) \(script): \(result)")
            }
            let back = try await sandbox.quarry([store, "back.lua"])
            #expect(back.lines == Self.links + ["a2"], "\(store): \(back)")
            let reopened = try await sandbox.quarry([store, "reopen.lua"])
            #expect(reopened.lines == Self.links, "\(store): \(reopened)")
            let shared = try await sandbox.quarry([store, "shared.lua"])
            #expect(shared.lines.first?.hasPrefix("false\t") == true && shared.stdout.contains("more than one"), "\(store): \(shared)")
            #expect(Array(shared.lines.dropFirst()) == ["a1\tb1,b2,b3", "a2\tb1,b4", "a3\t", "t1\tb1,b3", "t2\tb2,b3,b4"], "\(store): \(shared)")
        }
    }
    /// In a hierarchy alike: a sub-entity redefined without its to-one, and its abstract
    /// parent without another, leave both of Author's sets with their links, in link tables
    /// whose keys are the hierarchy's table's.
    @Test func aHierarchysEndsKeepTheirLinks() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "define.lua",
            #"""
            entity("Item", { abstract = true }) { title = "string" }
            entity "Author" { name = "string", books = { many = "Book", inverse = "author" }, items = { many = "Item", inverse = "owner" } }
            entity("Book", { parent = "Item" }) { pages = "int?", author = { one = "Author", inverse = "books" } }
            entity("Item", { abstract = true }) { title = "string", owner = { one = "Author", inverse = "items" } }
            local a1, a2 = Author:new{ name = "a1" }, Author:new{ name = "a2" }
            for i = 1, 3 do Book:new{ title = "b" .. i, author = i < 3 and a1 or a2, owner = i == 1 and a2 or a1 } end
            save()
            """#)
        let show = #"""
            function titles(set) local t = {} for _, b in ipairs(set) do t[#t + 1] = b.title end table.sort(t) return table.concat(t, ",") end
            for _, a in ipairs(fetch{ "Author", sort = "name" }) do print(a.name, titles(a.books), titles(a.items)) end

            """#
        try sandbox.write(
            "redefine.lua",
            #"entity("Book", { parent = "Item" }) { pages = "int?" }; entity("Item", { abstract = true }) { title = "string" }"# + "\n")
        try sandbox.write("show.lua", show)
        for store in try await Self.stores("redefinedhierarchy") {
            for script in ["define.lua", "redefine.lua"] {
                let result = try await sandbox.quarry([store, script])
                #expect(result.status == 0, "\(store) \(script): \(result)")
            }
            let shown = try await sandbox.quarry([store, "show.lua"])
            #expect(shown.lines == ["a1\tb1,b2\tb2,b3", "a2\tb3\tb1"], "\(store): \(shown)")
            let schema = try await Self.schema(sandbox, store)
            #expect(
                Self.block("Author", in: schema).suffix(2) == ["  books = { many = \"Book\" },", "  items = { many = \"Item\" },"],
                "\(store): \(schema)")
        }
    }

    /// A relationship declared on one side only: `Book.tags` is Quarry's, added because
    /// `Tag` names it as its inverse. The same script run again (another process, the
    /// same store) leaves the schema and the links as the first run did; `Book` defined
    /// again without `tags` does not drop it. Declared by the user, it is theirs: left out
    /// then, it goes, and `Tag.books` keeps its links without an inverse.
    @Test func aScriptDeclaringOneSideRunsTwiceToTheSameSchema() async throws {
        let sandbox = try Sandbox()
        let declare = #"""
            entity "Tag" { name = "string?", books = { many = "Book", inverse = "tags" } }
            entity "Book" { title = "string?" }

            """#
        let list = #"""
            for _, t in ipairs(fetch{ "Tag", sort = "name" }) do
              local n = {} for _, b in ipairs(t.books) do n[#n + 1] = b.title end table.sort(n) print(t.name, table.concat(n, ","))
            end

            """#
        try sandbox.write(
            "script.lua",
            declare + #"""
                if #fetch{ "Tag" } == 0 then
                  local t1, t2 = Tag:new{ name = "t1" }, Tag:new{ name = "t2" }
                  local b1, b2 = Book:new{ title = "b1" }, Book:new{ title = "b2" }
                  t1.books:add(b1); t1.books:add(b2); b2.tags:add(t2)
                  save()
                end

                """# + list)
        try sandbox.write(
            "explicit.lua", #"entity "Book" { title = "string?", tags = { many = "Tag", inverse = "books" } }"# + "\n" + list)
        try sandbox.write("leftOut.lua", #"entity "Book" { title = "string?" }"# + "\n" + list)
        let links = ["t1\tb1,b2", "t2\tb2"]
        let tags = "  tags = { many = \"Tag\", inverse = \"books\" },"
        for store in try await Self.stores("onesidetwice") {
            let first = try await sandbox.quarry([store, "script.lua"])
            #expect(first.status == 0 && first.lines == links, "\(store): \(first)")
            let once = try await Self.schema(sandbox, store)
            #expect(Self.block("Book", in: once).contains(tags), "\(store): \(once)")
            let second = try await sandbox.quarry([store, "script.lua"])
            #expect(second.status == 0 && second.lines == links, "\(store): \(second)")
            let twice = try await Self.schema(sandbox, store)
            #expect(twice == once, "\(store): \(once) then \(twice)")
            // Declared by the user: the same schema, and now left out, dropped.
            let explicit = try await sandbox.quarry([store, "explicit.lua"])
            #expect(explicit.status == 0 && explicit.lines == links, "\(store): \(explicit)")
            #expect(try await Self.schema(sandbox, store) == once, "\(store)")
            let leftOut = try await sandbox.quarry([store, "leftOut.lua"])
            #expect(leftOut.status == 0 && leftOut.lines == links, "\(store): \(leftOut)")
            let after = try await Self.schema(sandbox, store)
            #expect(Self.block("Book", in: after) == ["entity \"Book\" {", "  title = \"string?\","], "\(store): \(after)")
            #expect(Self.block("Tag", in: after).contains("  books = { many = \"Book\" },"), "\(store): \(after)")
        }
    }
}

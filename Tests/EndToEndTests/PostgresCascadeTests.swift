import Foundation
import QuarryTestSupport
import Testing

/// `deleteall` follows every cascade rule on PostgreSQL as on a SQLite file: the server's
/// foreign keys take the rows that hold the deleted keys, and Quarry deletes what they do
/// not reach, the ends of to-one and many-to-many cascades.
@Suite struct PostgresCascadeTests {
    static let define = #"""
        entity "Person" { name = "string", passport = { one = "Passport", inverse = "owner", delete = "cascade" },
          clubs = { many = "Club", inverse = "members", delete = "cascade" }, pets = { many = "Pet", inverse = "owner", delete = "cascade" } }
        entity "Passport" { number = "string", owner = { one = "Person", inverse = "passport", delete = "nullify" },
          stamps = { many = "Stamp", inverse = "passport", delete = "cascade" } }
        entity "Stamp" { country = "string", passport = { one = "Passport", inverse = "stamps" } }
        entity "Club" { title = "string", members = { many = "Person", inverse = "clubs", delete = "nullify" } }
        entity "Pet" { kind = "string", owner = { one = "Person", inverse = "pets" } }
        local chess, golf, choir = Club:new{ title = "chess" }, Club:new{ title = "golf" }, Club:new{ title = "choir" }
        for i = 1, 6 do
          local p = Person:new{ name = "p" .. i }
          local pp = Passport:new{ number = "N" .. i }
          p.passport = pp
          for j = 1, i % 3 do Stamp:new{ country = "c" .. j, passport = pp } end
          Pet:new{ kind = (i % 2 == 0) and "dog" or "cat", owner = p }
          if i <= 2 then p.clubs:add(chess) end
          if i == 3 then p.clubs:add(golf) end
        end
        Passport:new{ number = "spare" }
        save()
        """#

    static let delete = #"""
        local function counts() print(count("Person"), count("Passport"), count("Stamp"), count("Club"), count("Pet")) end
        counts()
        local heard = {}
        observe("Passport", function(ch) heard[#heard + 1] = #ch.deleted end)
        observe("Club", function(ch) heard[#heard + 1] = #ch.deleted end)
        print(Person:deleteall("name IN %@", { { "p1", "p3" } }))
        counts()
        for _, c in ipairs(fetch{ "Club", sort = "title" }) do print(c.title) end
        for _, p in ipairs(fetch{ "Passport", sort = "number" }) do print(p.number, p.owner and p.owner.name) end
        print(table.concat(heard, " "))
        print(Person:deleteall("TRUEPREDICATE", {}))
        counts()
        """#

    @Test func deleteallFollowsEveryCascadeAsInAQuarryFile() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("define.lua", Self.define)
        try sandbox.write("delete.lua", Self.delete)
        let url = try PostgresServer.database("cascades")
        let outputs = try await PostgresStoreTests.inTurn(sandbox, ["define.lua", "delete.lua"], on: ["lite.db", url])
        guard outputs.count == 2 else { Issue.record("\(outputs)"); return }
        let (lite, postgres) = (outputs[0], outputs[1])
        // Worth comparing: the to-one and many-to-many ends went with their people.
        #expect(lite.first == "6\t7\t6\t3\t6", "\(lite)")
        #expect(lite.contains("4\t5\t5\t1\t4"), "\(lite)")
        #expect(lite.last == "0\t1\t0\t1\t0", "\(lite)")
        let differences = PostgresStoreTests.differences(lite, postgres)
        #expect(differences == nil, "\(differences ?? "")")
    }
}

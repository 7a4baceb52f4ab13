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
        let url = try await PostgresServer.database("cascades")
        let outputs = try await PostgresStoreTests.inTurn(sandbox, ["define.lua", "delete.lua"], on: ["lite.db", url])
        guard outputs.count == 2 else {
            Issue.record("\(outputs)")
            return
        }
        let (lite, postgres) = (outputs[0], outputs[1])
        // Worth comparing: the to-one and many-to-many ends went with their people.
        #expect(lite.first == "6\t7\t6\t3\t6", "\(lite)")
        #expect(lite.contains("4\t5\t5\t1\t4"), "\(lite)")
        #expect(lite.last == "0\t1\t0\t1\t0", "\(lite)")
        let differences = PostgresStoreTests.differences(lite, postgres)
        #expect(differences == nil, "\(differences ?? "")")
    }

    /// Found by review, each the same on a SQLite file and a schema: a many-to-many deny
    /// stops deleteall (the server's link table would have let its rows go); a
    /// sub-entity's renamed attribute keeps its values; a duplicate in an import is said in
    /// SQLite's words.
    static let denyDefine = #"""
        entity("V", { abstract = true }) { name = "string" }
        entity("Truck", { parent = "V" }) { load = "int?" }
        entity "Tag" { name = "string" }
        entity("Truck", { parent = "V" }) { load = "int?", top = "int?", tags = { many = "Tag", inverse = "trucks", delete = "deny" } }
        entity "Tag" { name = "string", trucks = { many = "Truck", inverse = "tags" } }
        entity("Car", { uniqueness = { { "vin" } } }) { name = "string", vin = "string?" }
        local t = Truck:new{ name = "t1", top = 300 }; t.tags:add(Tag:new{ name = "tag1" }); Truck:new{ name = "t2" }
        save()
        """#
    static let denyUse = #"""
        print(pcall(Truck.deleteall, Truck, "name == 't1'", {}))
        print(pcall(V.deleteall, V, "TRUEPREDICATE", {}))
        print(count("Truck"), count("Tag"))
        print(Truck:deleteall("name == 't2'", {}), count("Truck"))
        entity("Truck", { parent = "V" }) { load = "int?", speed = { "int?", renamedFrom = "top" }, tags = { many = "Tag", inverse = "trucks", delete = "deny" } }
        print(Truck:first().speed, count("Truck", "speed == 300"))
        print(pcall(import, "dup.csv", { entity = "Car" }))
        print(count("Car"))
        """#

    @Test func deniesRenamesAndDuplicatesAsInAQuarryFile() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("define.lua", Self.denyDefine)
        try sandbox.write("use.lua", Self.denyUse)
        try sandbox.write("dup.csv", "name,vin\nc1,V1\nc2,V1\n")
        let url = try await PostgresServer.database("denies")
        let outputs = try await PostgresStoreTests.inTurn(sandbox, ["define.lua", "use.lua"], on: ["lite.db", url])
        guard outputs.count == 2 else {
            Issue.record("\(outputs)")
            return
        }
        #expect(outputs[0].first == "false\tuse.lua:1: deleteall: 'tags' denies deleting Truck rows while they hold Tag/1", "\(outputs[0])")
        #expect(outputs[0].contains("300\t1"), "\(outputs[0])")
        #expect(outputs[0].contains("false\tuse.lua:7: import: dup.csv:3: UNIQUE constraint failed: Car.vin"), "\(outputs[0])")
        let differences = PostgresStoreTests.differences(outputs[0], outputs[1])
        #expect(differences == nil, "\(differences ?? "")")
    }

    /// What a schema cannot hold is refused in one line with nothing changed: a link
    /// table's name past 63 bytes (cut short, two relationships shared one table), and a
    /// parent for an entity whose table another program's foreign key names (its CASCADE
    /// dropped that key).
    @Test func refusalsOfTheSchemaChangeNothing() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresServer.database("schemarefusals")
        let long = String(repeating: "E", count: 55)
        let links = try await sandbox.quarry([
            url, "-e", #"entity "Tag" { name = "string" }; print(pcall(entity("\#(long)"), { red = { many = "Tag", inverse = "reds" } }))"#
        ])
        #expect(
            links.status == 0 && links.stdout.contains("'red' would keep its links in a table named 'quarry_link_\(long)_red', 71 bytes long"),
            "\(links)")
        _ = try await sandbox.quarry([url, "-e", #"entity "Vehicle" { name = "string" }; entity "Truck" { load = "int?" }"#])
        try sandbox.write("rides.sql", #"CREATE TABLE rides (id serial PRIMARY KEY, truck_id bigint REFERENCES "Truck"(_pk));"# + "\n")
        try await PostgresStoreTests.psql(sandbox, url, file: "rides.sql")
        let parent = try await sandbox.quarry([url, "-e", #"print(pcall(entity("Truck", { parent = "Vehicle" }), { load = "int?" }))"#])
        #expect(
            parent.stdout.contains(
                "it cannot take a parent while table rides, which Quarry did not make, keeps a foreign key to it (rides_truck_id_fkey)"), "\(parent)")
        let kept = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"),
            [
                "-qAt", url, "-c",
                "SELECT conname FROM pg_constraint WHERE conname = 'rides_truck_id_fkey' UNION ALL SELECT count(*)::text FROM pg_tables WHERE tablename LIKE 'quarry_link_EEE%'"
            ])
        #expect(kept.stdout == "rides_truck_id_fkey\n0\n", "\(kept)")
    }
}

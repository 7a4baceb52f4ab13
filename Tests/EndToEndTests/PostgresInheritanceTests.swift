import Foundation
import QuarryTestSupport
import Testing

/// Inheritance in a PostgreSQL schema behaves as in a Quarry file: the same Lua scripts
/// (definitions, objects of every level, relationships to a parent, batch changes,
/// cascades, a migration of a sub-entity, a reopening) print the same lines on a new
/// SQLite file and on a new schema. Against a real server (`PostgresServer`): the tests
/// fail, never skip, without one.
@Suite struct PostgresInheritanceTests {
    /// Lines the two runs printed differently, shown one per line.
    static func differences(_ lite: [String], _ postgres: [String]) -> String {
        let lines = zip(lite, postgres).enumerated().filter { $0.element.0 != $0.element.1 }
            .map { "\($0.offset + 1): \($0.element.0) | \($0.element.1)" }
        let counts = lite.count == postgres.count ? [] : ["SQLite printed \(lite.count) lines, PostgreSQL \(postgres.count)"]
        return (lines + counts).joined(separator: "\n")
    }

    /// An abstract root with two levels below it, to-one and to-many relationships whose
    /// destination is a parent holding sub-entities' objects, a many-to-many one, counts
    /// with and without sub-entities, sorts and sections across the hierarchy.
    static let define = #"""
        entity "Garage" { name = "string", vehicles = { many = "Vehicle", inverse = "garage", delete = "cascade" },
          fav = { one = "Vehicle", inverse = "fans" } }
        entity("Vehicle", { abstract = true }) { name = "string", garage = { one = "Garage", inverse = "vehicles" },
          fans = { many = "Garage", inverse = "fav" }, tags = { many = "Tag", inverse = "vehicles" } }
        entity("Car", { parent = "Vehicle" }) { seats = "int32?", parts = { many = "Part", inverse = "car", delete = "cascade" } }
        entity("SportCar", { parent = "Car" }) { topSpeed = "int64?" }
        entity("Bike", { parent = "Vehicle" }) { gears = "int16?" }
        entity "Part" { name = "string", car = { one = "Car", inverse = "parts" } }
        entity "Tag" { name = "string", vehicles = { many = "Vehicle", inverse = "tags" } }
        print(pcall(function() return Vehicle:new{ name = "x" } end))
        local g1, g2 = Garage:new{ name = "G1" }, Garage:new{ name = "G2" }
        local red, fast = Tag:new{ name = "red" }, Tag:new{ name = "fast" }
        local c = Car:new{ name = "c1", seats = 5, garage = g1 }
        local s = SportCar:new{ name = "s1", seats = 2, topSpeed = 300, garage = g1 }
        local s2 = SportCar:new{ name = "s2", seats = 2, topSpeed = 250, garage = g2 }
        local b = Bike:new{ name = "b1", gears = 21, garage = g2 }
        g1.fav = s; g2.fav = b
        Part:new{ name = "wheel", car = s }; Part:new{ name = "seat", car = c }; Part:new{ name = "spoiler", car = s2 }
        s.tags:add(red); s.tags:add(fast); b.tags:add(red); c.tags:add(fast)
        local saved = save(); print(saved.inserted, saved.updated, saved.deleted)
        print(count("Vehicle"), count("Car"), count("SportCar"), count("Bike"), count{ "Car", subentities = false }, count{ "Vehicle", subentities = false })
        for _, v in ipairs(fetch{ "Vehicle", sort = { "garage.name", "-name" } }) do print(v.name, v:entity().name, v.garage.name, #v.tags) end
        print(fetch{ "Vehicle", section = "garage.name", sort = { "garage.name", "name" } })
        print(fetch{ "Car", sort = { "-topSpeed", "name" } })
        print(fetch{ "Car", subentities = false })
        print(count("Vehicle", "topSpeed > 260"), count("Car", "seats == 2"), count("Vehicle", "ANY tags.name == 'red'"), count("Tag", "vehicles.@count > 1"))
        print(g1.fav:entity().name, g2.fav:entity().name, #g1.vehicles, #red.vehicles, #s.fans)
        print(count("Part", "car.topSpeed > 100"), s.parts, Part:first("name == 'wheel'").car:entity().name)
        """#

    /// Read back by a new process, then batch changes through a parent and cascades that
    /// cross the hierarchy (a garage takes its vehicles, a car its parts), heard by
    /// observers of a sub-entity as its own rows.
    static let change = #"""
        for _, e in ipairs(entities()) do print(e) end
        print(count("Vehicle"), count("SportCar"), count{ "Car", subentities = false }, Vehicle:first("name == 's2'"):entity().name)
        for _, v in ipairs(fetch{ "Vehicle", sort = { "name" } }) do print(v.name, v:entity().name, v.garage.name, v.garage.fav.name) end
        local sports = SportCar:fetch{ sort = "name" }; print(#sports)
        observe("SportCar", function(ch) print("SportCar heard", #ch.deleted, #ch.updated) end)
        observe("Part", function(ch) print("Part heard", #ch.deleted) end)
        print(Vehicle:updateall("name BEGINSWITH %@", {"s"}, { name = "S" }), sports[1].name, count("SportCar", "name == 'S'"))
        print(Car:updateall(nil, {}, { seats = 4 }), count("Vehicle", "seats == 4"), count{ "Car", subentities = false, predicate = "seats == 4" })
        print(Garage:deleteall("name == %@", {"G1"}), count("Vehicle"), count("Car"), count("Part"), count("SportCar"))
        print(#Tag:first("name == 'red'").vehicles, #Tag:first("name == 'fast'").vehicles, Garage:first().fav.name)
        local g = Garage:first(); g:delete(); local saved = save(); print(saved.deleted, count("Vehicle"), count("Part"), count("Garage"))
        local g3 = Garage:new{ name = "G3" }
        Car:new{ name = "c3", garage = g3 }; SportCar:new{ name = "s3", garage = g3 }; Bike:new{ name = "b3", garage = g3 }; save()
        print(Car:deleteall(nil, {}), count("Vehicle"), count("Bike"), #g3.vehicles)
        """#

    /// A sub-entity redefined (an attribute added with a default, one dropped), and
    /// refusals that are the same words on both.
    static let migrate = #"""
        local g = Garage:first()
        SportCar:new{ name = "s4", topSpeed = 200, garage = g }; Bike:new{ name = "b4", gears = 3, garage = g }; save()
        entity("SportCar", { parent = "Car" }) { topSpeed = "int64?", color = { "string", default = "red" } }
        entity("Bike", { parent = "Vehicle" }) { electric = { "bool", default = false } }
        for _, v in ipairs(fetch{ "Vehicle", sort = { "name", "garage.name" } }) do
          local e = v:entity().name
          print(v.name, e, e == "SportCar" and v.color or e == "Bike" and tostring(v.electric) or "-")
        end
        print(count("Vehicle", "color == 'red'"), count("Bike", "electric == NO"))
        print((select(2, pcall(function() entity("Bike", { parent = "Car" }) { electric = "bool?" } end))))
        print((select(2, pcall(function() entity("Bike2", { parent = "Car" }) { name = "string" } end))))
        print((select(2, pcall(function() entity("SportCar", { parent = "Car" }) { topSpeed = "int64?", color = "string", doors = "int16" } end))))
        SportCar:new{ name = "s5", color = "blue", garage = g }; Bike:new{ name = "b5", electric = true, garage = g }; save()
        print(count("SportCar", "color == 'blue'"), count("Bike", "electric == YES"), count("Vehicle"))
        """#

    /// A third process reads the migrated hierarchy back.
    static let reopen = #"""
        for _, e in ipairs(entities()) do print(e) end
        for _, v in ipairs(fetch{ "Vehicle", sort = { "-name" } }) do print(v.name, v:entity().name) end
        print(fetch{ "Vehicle", section = "garage.name", sort = { "name" } })
        local b = Bike:new{ name = "b6", garage = Garage:first() }; save()
        print(b:entity().name, b.electric, count("Bike"), count{ "Vehicle", subentities = false }, #Garage:first().vehicles)
        """#

    @Test func aHierarchyBehavesAsInAQuarryFile() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("hierarchy", in: sandbox, schema: "CREATE SCHEMA h;\n")
        let scripts = [("define.lua", Self.define), ("change.lua", Self.change), ("migrate.lua", Self.migrate), ("reopen.lua", Self.reopen)]
        for (name, script) in scripts { try sandbox.write(name, script) }
        let outputs = try await PostgresStoreTests.inTurn(sandbox, scripts.map(\.0), on: ["h.db", url + "?schema=h"])
        let lite = outputs[0]
        // What a Quarry file answers, so the comparison is not of two empty runs.
        #expect(lite.first?.contains("Vehicle is abstract: it makes no objects") == true, "\(lite)")
        #expect(lite.contains("4\t3\t2\t1\t1\t0"), "\(lite)")
        #expect(lite.contains("s1\tSportCar\tG1\t2"), "\(lite)")
        #expect(lite.contains("SportCar\tBike\t2\t2\t1"), "\(lite)")
        #expect(lite.contains("SportCar heard\t0\t2"), "\(lite)")
        #expect(lite.contains("SportCar heard\t1\t0") && lite.contains("Part heard\t2"), "\(lite)")
        #expect(lite.contains("1\t2\t1\t1\t1"), "\(lite)")
        #expect(lite.contains("4\t0\t0\t0"), "\(lite)")
        #expect(lite.contains("s4\tSportCar\tred") && lite.contains("b4\tBike\tfalse"), "\(lite)")
        #expect(lite.contains { $0.contains("changing its parent from Vehicle to Car") }, "\(lite)")
        #expect(lite.contains { $0.contains("'name' is already a key of its ancestor Vehicle") }, "\(lite)")
        #expect(lite.contains { $0.contains("new attribute 'doors' is required") }, "\(lite)")
        #expect(lite.contains("1\t1\t5"), "\(lite)")
        #expect(lite.last == "Bike\tfalse\t4\t0\t6", "\(lite)")
        let shown = Self.differences(lite, outputs[1])
        #expect(shown.isEmpty, "SQLite and PostgreSQL answered differently:\n\(shown)")
        // One table per hierarchy, its members views of it; the keys refer to the roots'
        // tables; the trigger that announces commits is on the tables, the link table's too.
        let held = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"),
            [
                "-qAt", url, "-c",
                """
                SELECT string_agg(c.relname || ':' || c.relkind::text, ',' ORDER BY c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                  WHERE n.nspname = 'h' AND c.relkind IN ('r', 'v') AND c.relname NOT LIKE 'quarry%'
                UNION ALL SELECT string_agg(c.relname, ',' ORDER BY c.relname) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = 'quarry_notify'
                UNION ALL SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'quarry_fk_Part_car'
                UNION ALL SELECT string_agg(DISTINCT _entity, ',' ORDER BY _entity) FROM h."Vehicle"
                """
            ])
        #expect(
            held.stdout == """
                Bike:v,Car:v,Garage:r,Part:r,SportCar:v,Tag:r,Vehicle:r
                Garage,Part,Tag,Vehicle,quarry_link_Tag_vehicles
                FOREIGN KEY (car) REFERENCES h."Vehicle"(_pk) ON DELETE CASCADE NOT VALID
                Bike,SportCar

                """, "\(held)")
        // Every table has the trigger: an observer of a sub-entity is told nothing about refresh().
        let observed = try await sandbox.quarry([url + "?schema=h", "-e", #"observe("SportCar", function() end); print(count("Vehicle"))"#])
        #expect(observed.stderr.isEmpty && observed.lines == ["6"], "\(observed)")
    }

    /// A Core Data model with a three-level hierarchy (cars: Car > SportCar >
    /// ExpensiveSportCar, uniqueness constraints) defined by `--model` and by `model()`,
    /// used and read back by the next process, as in a new SQLite file.
    @Test func aCoreDataModelWithInheritanceDefinesItsHierarchy() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("carmodel", in: sandbox, schema: "CREATE SCHEMA byflag; CREATE SCHEMA bycall;\n")
        let model = try SharedData.path("coredata/cars/SampleModel.xcdatamodeld")
        try sandbox.write(
            "use.lua",
            #"""
            for _, e in ipairs(entities()) do print(e) end
            local p = Person:new{ firstName = "Ann", lastName = "Lee", updatedAt = date("2020-01-01T00:00:00Z"), id = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11" }
            Car:new{ maker = "FIAT", numberPlate = "A1", owner = p }
            SportCar:new{ maker = "BMW", numberPlate = "B1", owner = p }
            ExpensiveSportCar:new{ maker = "McLaren", numberPlate = "C1", owner = p, isLimitedEdition = true }
            save()
            print(count("Car"), count("SportCar"), count("ExpensiveSportCar"), count{ "Car", subentities = false }, Car:first("maker == 'McLaren'"):entity().name)
            ExpensiveSportCar:new{ maker = "x", numberPlate = "C1" }
            print((pcall(save))); rollback()
            print(p.cars, count("Person", "ANY cars.isLimitedEdition == YES"))
            """#)
        try sandbox.write(
            "read.lua",
            #"""
            for _, e in ipairs(entities()) do print(e) end
            print(fetch{ "Car", sort = { "maker" } })
            print(count("SportCar"), Person:first().cars, Car:first("numberPlate == 'B1'"):entity().name)
            """#)
        try sandbox.write("call.lua", #"print(#model(...))"#)
        var outputs: [[String]] = []
        for (store, schema) in [("flag.db", "byflag"), (url + "?schema=byflag", "byflag")] {
            let used = try await sandbox.quarry(["--model", model, store, "use.lua"])
            let read = try await sandbox.quarry([store, "read.lua"])
            #expect(used.status == 0 && read.status == 0, "\(schema): \(used)\n\(read)")
            outputs.append(used.lines + read.lines)
        }
        for store in ["call.db", url + "?schema=bycall"] {
            let called = try await sandbox.quarry([store, "call.lua", model])
            let used = try await sandbox.quarry([store, "use.lua"])
            let read = try await sandbox.quarry([store, "read.lua"])
            #expect(called.status == 0 && used.status == 0 && read.status == 0, "\(store): \(called)\n\(used)\n\(read)")
            outputs.append(called.lines + used.lines + read.lines)
        }
        let lite = outputs[0]
        #expect(lite.contains("3\t2\t1\t1\tExpensiveSportCar"), "\(lite)")
        #expect(lite.contains("false"), "\(lite)")
        #expect(lite.contains("Person/1.cars {Car/1, SportCar/2, ExpensiveSportCar/3}\t1"), "\(lite)")
        #expect(lite.last == "2\tPerson/1.cars {Car/1, SportCar/2, ExpensiveSportCar/3}\tSportCar", "\(lite)")
        #expect(outputs[2].first == "4", "\(outputs[2])")
        for (lite, postgres) in [(outputs[0], outputs[1]), (outputs[2], outputs[3])] {
            let shown = Self.differences(lite, postgres)
            #expect(shown.isEmpty, "SQLite and PostgreSQL answered differently:\n\(shown)")
        }
    }

    /// `import` into a sub-entity (COPY writes only tables: its rows go into its root's
    /// table, named as its own), and an empty entity that moves under a parent and out
    /// again, keeping its many-to-many links and the keys other tables have to it.
    @Test func importsAndParentChangesAsInAQuarryFile() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("moves", in: sandbox, schema: "CREATE SCHEMA m;\n")
        try sandbox.write("sc.csv", "maker,topSpeed\nA,100\nB,200\n")
        try sandbox.write("t.csv", "maker\nV\n")
        try sandbox.write(
            "moves.lua",
            #"""
            entity("Car", { abstract = true }) { maker = "string" }
            entity("SportCar", { parent = "Car" }) { topSpeed = "int64?" }
            entity("Truck", { parent = "Car" }) { load = { "double", default = 1.5 } }
            print(import("sc.csv", { entity = "SportCar" }), import("t.csv", { entity = "Truck" }))
            print((select(2, pcall(import, "t.csv", { entity = "Car" }))))
            for _, c in ipairs(fetch{ "Car", sort = { "maker" } }) do
              print(c.maker, c:entity().name, c:entity().name == "Truck" and c.load or c.topSpeed)
            end
            entity "Vehicle" { name = "string" }
            entity "Bus" { seats = "int32?", tags = { many = "Tag", inverse = "buses" }, depot = { one = "Depot", inverse = "bus" } }
            entity "Tag" { name = "string", buses = { many = "Bus", inverse = "tags" } }
            entity "Depot" { name = "string", bus = { one = "Bus", inverse = "depot", delete = "cascade" } }
            entity("Bus", { parent = "Vehicle" }) { seats = "int32?", tags = { many = "Tag", inverse = "buses" }, depot = { one = "Depot", inverse = "bus" } }
            local b = Bus:new{ name = "b", seats = 40 }; local t = Tag:new{ name = "t" }; b.tags:add(t)
            Vehicle:new{ name = "v" }; local d = Depot:new{ name = "d", bus = b }; save()
            print(count("Vehicle"), count("Bus"), #t.buses, d.bus:entity().name)
            local links = [[SELECT count(*) AS n FROM "quarry_link_Bus_tags"]]
            print(Depot:deleteall(nil, {}), count("Bus"), count("Tag", "buses.@count > 0"), sql(links)[1].n)
            Vehicle:deleteall(nil, {})
            entity("Bus") { seats = "int32?", tags = { many = "Tag", inverse = "buses" }, depot = { one = "Depot", inverse = "bus" } }
            local b2 = Bus:new{ seats = 9 }; t.buses:add(b2); local d2 = Depot:new{ name = "d2", bus = b2 }; save()
            print(count("Bus"), count("Vehicle"), #t.buses, d2.bus.seats)
            print(Depot:deleteall(nil, {}), count("Bus"), count("Tag", "buses.@count > 0"), sql(links)[1].n)
            """#)
        let outputs = try await PostgresStoreTests.inTurn(sandbox, ["moves.lua"], on: ["m.db", url + "?schema=m"])
        #expect(
            outputs[0] == [
                "2\t1", "moves.lua:5: import: t.csv: Car is abstract: it makes no objects (import into one of its sub-entities)",
                "A\tSportCar\t100", "B\tSportCar\t200", "V\tTruck\t1.5",
                "2\t1\t1\tBus", "1\t0\t0\t0", "1\t0\t1\t9", "1\t0\t0\t0"
            ], "\(outputs[0])")
        let shown = Self.differences(outputs[0], outputs[1])
        #expect(shown.isEmpty, "SQLite and PostgreSQL answered differently:\n\(shown)")
    }

    /// Another program's tables that inherit one (`INHERITS`, old-style partitions, as
    /// Sakila's payment_p2007_01...06) are read through their parent, which PostgreSQL
    /// reads with them: one note names them, not one "left out" note each.
    @Test func tablesThatInheritAnotherAreReadThroughIt() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE payment (payment_id integer PRIMARY KEY, amount numeric(5,2), month integer);
            CREATE TABLE payment_p1 (CHECK (month = 1)) INHERITS (payment);
            CREATE TABLE payment_p2 (CHECK (month = 2)) INHERITS (payment);
            INSERT INTO payment_p1 VALUES (1, 2.50, 1), (2, 4.00, 1);
            INSERT INTO payment_p2 VALUES (3, 1.25, 2);
            INSERT INTO payment VALUES (4, 9.99, 3);
            """)
        let url = try await PostgresServer.database("inherits")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        let result = try await sandbox.quarry([
            url, "-e", #"print(count("payment"), count("payment", "amount > 2"), payment:get(3).month, #entities())"#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["4\t3\t2\t1"], "\(result)")
        #expect(
            result.stderr == "note: payment_p1, payment_p2 inherit payment: their rows are read through payment's, not as entities of their own\n",
            "\(result)")
    }
}

import Foundation
import GRDB
import QuarryCoreData
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// With unsaved changes a fetch or count is answered partly in memory; each answer must be
/// the one SQLite gives once the changes are saved. Each test takes the answers with the
/// changes pending, saves, and takes them again (and checks them against plain SQL where
/// the file can be read directly).
@Suite struct PendingAgreementTests {
    /// A copy of the cars store, a runtime over it, and a second connection for plain SQL.
    struct Cars {
        let h: Harness
        let sql: DatabaseQueue
        init() throws {
            let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
            h = try Harness(context: try StoreOpener.open(path))
            sql = try DatabaseQueue(path: path)
        }

        /// Each car's key and its own entity's name, as the file says.
        func carEntities() throws -> [(key: Int64, entity: String)] {
            try sql.read { db in
                try Row.fetchAll(db, sql: "SELECT c.Z_PK, p.Z_NAME FROM ZCAR c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.Z_ENT ORDER BY c.Z_PK")
                    .map { ($0[0], $0[1]) }
            }
        }
    }

    /// Lua that records, under `label`, every answer of the requests below, so that the
    /// answers with changes pending and after save() can be compared.
    static let recorder = #"""
        answers = {}
        function describe(r)
          local t = {}
          for i = 1, #r do local o = r[i]; t[#t + 1] = o:entity().name .. ":" .. tostring(o.maker) .. ":" .. tostring(o.model) end
          table.sort(t)
          return #r .. "[" .. table.concat(t, ",") .. "]"
        end
        function record(label, requests)
          local a = {}
          for _, q in ipairs(requests) do
            a[#a + 1] = q[1] .. (q.subentities == false and "/own" or "") .. " count=" .. count(q) .. " fetch=" .. describe(fetch(q))
          end
          answers[label] = table.concat(a, "\n")
        end

        """#

    @Test func subentitiesFalseAgreesWithTheSavedStoreInCoreDataStores() throws {
        let cars = try Cars()
        let kinds = try cars.carEntities()
        let expensive = try #require(kinds.first { $0.entity == "ExpensiveSportCar" }?.key)
        let sport = try #require(kinds.first { $0.entity == "SportCar" }?.key)
        let plain = try #require(kinds.first { $0.entity == "Car" }?.key)
        let requests = #"""
            {
              { "Car", subentities = false }, { "Car" },
              { "SportCar", subentities = false }, { "SportCar" },
              { "ExpensiveSportCar", subentities = false },
              { "Car", subentities = false, predicate = "maker == 'Pending'" },
              { "SportCar", subentities = false, predicate = "maker == 'Pending'" },
              { "Car", predicate = "maker == 'Pending'" },
            }
            """#
        cars.h.run(
            Self.recorder + #"""
                local requests = \#(requests)
                record("before", requests)
                -- Changed objects of each level of the hierarchy, and inserted ones.
                Car:get(\#(expensive)).maker = "Pending"
                Car:get(\#(sport)).maker = "Pending"
                Car:get(\#(plain)).maker = "Pending"
                ExpensiveSportCar:new{ maker = "Pending", model = "E", numberPlate = "P-1", isLimitedEdition = true }
                SportCar:new{ maker = "Pending", model = "S", numberPlate = "P-2" }
                Car:new{ maker = "Pending", model = "C", numberPlate = "P-3" }
                record("pending", requests)
                save()
                record("saved", requests)
                """#)
        #expect(cars.h.string("answers.pending") == cars.h.string("answers.saved"))
        #expect(cars.h.string("answers.before") != cars.h.string("answers.saved"), "the changes must change some answer")
        // The saved answer is SQLite's: the entity's own rows by Z_ENT.
        let own = try cars.sql.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM ZCAR c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.Z_ENT WHERE p.Z_NAME = 'Car'") ?? -1
        }
        #expect(cars.h.string(#"count{ "Car", subentities = false }"#) == "\(own)")
    }

    @Test func subentitiesFalseAgreesWithTheSavedStoreInQuarryStores() throws {
        let h = try Harness()
        h.run(
            Self.recorder + #"""
                entity "Car" { maker = "string?", model = "string?" }
                entity("SportCar", { parent = "Car" }) { topSpeed = "int?" }
                entity("RaceCar", { parent = "SportCar" }) { team = "string?" }
                local requests = {
                  { "Car", subentities = false }, { "Car" },
                  { "SportCar", subentities = false }, { "SportCar" },
                  { "Car", subentities = false, predicate = "maker == 'p'" },
                  { "SportCar", subentities = false, predicate = "maker == 'p'" },
                }
                Car:new{ maker = "a" }; SportCar:new{ maker = "b" }; RaceCar:new{ maker = "c" }
                save()
                assert(count{ "Car", subentities = false } == 1)
                SportCar:new{ maker = "p" }; RaceCar:new{ maker = "p" }
                fetch{ "RaceCar" }[1].maker = "p"
                fetch{ "SportCar", subentities = false }[1].maker = "p"
                record("pending", requests)
                assert(count{ "Car", subentities = false } == 1, "an unsaved SportCar is no Car of its own")
                save()
                record("saved", requests)
                """#)
        #expect(h.string("answers.pending") == h.string("answers.saved"))
    }

    @Test func sectionsByAToOneKeyPathAgreeWithTheSavedStore() throws {
        let cars = try Cars()
        // What SQLite gives: each owner's first name and its number of BMWs, in order.
        let expected = try cars.sql.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT p.ZFIRSTNAME, count(*) FROM ZCAR c LEFT JOIN ZPERSON p ON p.Z_PK = c.ZOWNER
                    WHERE c.ZMAKER = 'BMW' GROUP BY p.ZFIRSTNAME ORDER BY p.ZFIRSTNAME
                    """
            ).map { "\(($0[0] as String?) ?? ""):\($0[1] as Int)" }.joined(separator: ",")
        }
        let bmwOwned = try #require(
            try cars.sql.read { db in
                try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ZCAR WHERE ZMAKER = 'BMW' AND ZOWNER IS NOT NULL ORDER BY Z_PK")
            })
        let other = try #require(
            try cars.sql.read { db in
                try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ZCAR WHERE ZMAKER <> 'BMW' ORDER BY Z_PK")
            })
        cars.h.run(
            #"""
            function sections(r)
              local t = {}
              for i = 1, #r do t[#t + 1] = r[i].name .. ":" .. #r[i] end
              return table.concat(t, ",")
            end
            function bmw()
              return sections(fetch{ "Car", section = "owner.firstName", sort = { "owner.firstName" }, predicate = "maker == %@", args = { "BMW" } })
            end
            function lastNames()
              return sections(fetch{ "Car", section = "owner.lastName", sort = { "owner.lastName", "model" } })
            end
            before = bmw()
            -- A change that touches no BMW leaves the sections as they were.
            Car:get(\#(other)).model = "unrelated"
            unrelated = bmw()
            -- Changes that move cars between sections: a new owner, a new BMW without one.
            Car:get(\#(bmwOwned)).owner = Person:new{ firstName = "Aaron", lastName = "Pending",
                                                     id = "1CD6E50D-94D1-4E02-B82A-BB220F6AFCA5", updatedAt = date(1700000000) }
            Car:new{ maker = "BMW", model = "i3", numberPlate = "P-9" }
            moved = bmw(); movedLast = lastNames()
            save()
            saved = bmw(); savedLast = lastNames()
            """#)
        #expect(cars.h.string("before") == expected)
        #expect(cars.h.string("unrelated") == expected)
        #expect(cars.h.string("moved") == cars.h.string("saved"))
        #expect(cars.h.string("movedLast") == cars.h.string("savedLast"))
        #expect(cars.h.string("saved")?.hasPrefix(":1,Aaron:1") == true, "\(cars.h.string("saved") ?? "")")
    }

    @Test func sectionsByAToOneKeyPathAgreeInQuarryStores() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Person" { name = "string?", cars = { many = "Car", inverse = "owner" } }
            entity "Car" { maker = "string?", owner = { one = "Person", inverse = "cars" } }
            entity("SportCar", { parent = "Car" }) {}
            local a, b = Person:new{ name = "A" }, Person:new{ name = "B" }
            Car:new{ maker = "x", owner = a }; SportCar:new{ maker = "y", owner = b }; Car:new{ maker = "z" }
            save()
            function sections()
              local r = fetch{ "Car", section = "owner.name", sort = { "owner.name", "maker" } }
              local t = {}
              for i = 1, #r do
                local makers = {}
                for _, o in ipairs(r[i]) do makers[#makers + 1] = o.maker end
                t[#t + 1] = r[i].name .. "=" .. table.concat(makers, "/")
              end
              return table.concat(t, ",")
            end
            assert(sections() == "=z,A=x,B=y", sections())
            Car:new{ maker = "w", owner = a }
            SportCar:new{ maker = "v", owner = Person:new{ name = "C" } }
            fetch{ "Car", predicate = "maker == 'z'" }[1].owner = b
            pending = sections()
            save()
            saved = sections()
            """#)
        #expect(h.string("pending") == h.string("saved"))
        #expect(h.string("saved") == "A=w/x,B=y/z,C=v")
    }

    @Test func objectIDsNameEachObjectsOwnEntityHoweverAskedForInCoreDataStores() throws {
        let cars = try Cars()
        let expected = try cars.carEntities().map { "\($0.entity)/\($0.key)" }.joined(separator: ",")
        cars.h.run(
            #"""
            function ids() return table.concat(fetch{ "Car", result = "ids" }, ",") end
            function resultIDs() return table.concat(fetch{ "Car" }:ids(), ",") end
            function objectIDs()
              local t = {}
              for _, o in ipairs(fetch{ "Car" }) do t[#t + 1] = o:objectID() end
              return table.concat(t, ",")
            end
            -- Each ID found again through the parent and through its own entity.
            function roundTrips()
              for _, id in ipairs(fetch{ "Car", result = "ids" }) do
                local entity = id:match("^(%a+)/")
                assert(Car:get(id):objectID() == id, id)
                assert(_G[entity]:get(id):objectID() == id, id)
              end
              return true
            end
            plain, listed, objects, trips = ids(), resultIDs(), objectIDs(), roundTrips()
            Car:get(1).model = "pending"
            pendingIDs, pendingListed = ids(), resultIDs()
            mclaren = fetch{ "Car", result = "ids", predicate = "maker == 'McLaren'" }[1]
            """#)
        #expect(cars.h.string("plain") == expected)
        #expect(cars.h.string("listed") == expected)
        #expect(cars.h.string("objects") == expected)
        #expect(cars.h.string("trips") == "true")
        #expect(cars.h.string("pendingIDs") == expected)
        #expect(cars.h.string("pendingListed") == expected)
        let mclaren = try #require(
            try cars.sql.read { db in
                try String.fetchOne(
                    db,
                    sql:
                        "SELECT p.Z_NAME || '/' || c.Z_PK FROM ZCAR c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.Z_ENT WHERE c.ZMAKER = 'McLaren' ORDER BY c.Z_PK"
                )
            })
        #expect(cars.h.string("mclaren") == mclaren)
        // A parent's get takes its sub-entities' IDs; a sub-entity's get does not take a
        // row of another entity, nor an unrelated entity's ID.
        #expect(cars.h.string(#"Car:get("\#(mclaren)"):objectID()"#) == mclaren)
        let plainCar = try #require(try cars.carEntities().first { $0.entity == "Car" }?.key)
        #expect(cars.h.string(#"ExpensiveSportCar:get("ExpensiveSportCar/\#(plainCar)")"#) == "nil")
        #expect(cars.h.error(#"SportCar:get("Car/\#(plainCar)")"#).contains("expected an object ID such as 'SportCar/1'"))
        #expect(cars.h.error(#"Car:get("Person/1")"#).contains("expected an object ID such as 'Car/1'"))
    }

    @Test func objectIDsNameEachObjectsOwnEntityInQuarryStores() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Car" { maker = "string?" }
            entity("SportCar", { parent = "Car" }) {}
            Car:new{ maker = "a" }; SportCar:new{ maker = "b" }; Car:new{ maker = "c" }
            save()
            function ids() return table.concat(fetch{ "Car", result = "ids", sort = "maker" }, ",") end
            function objectIDs()
              local t = {}
              for _, o in ipairs(fetch{ "Car", sort = "maker" }) do t[#t + 1] = o:objectID() end
              return table.concat(t, ",")
            end
            saved, objects = ids(), objectIDs()
            fetch{ "Car", predicate = "maker == 'c'" }[1].maker = "d"
            pending = ids()
            got = Car:get(fetch{ "SportCar" }[1]:objectID()).maker
            """#)
        #expect(h.string("saved") == h.string("objects"))
        #expect(h.string("saved")?.contains("SportCar/") == true, "\(h.string("saved") ?? "")")
        #expect(h.string("pending") == h.string("saved"))
        #expect(h.string("got") == "b")
    }
    /// A change to a related object alone (the fetched entity has none) changes what key
    /// paths through it read: predicates, sorts and sections over `owner.*`, and a
    /// to-many predicate from the other side.
    @Test func aChangeToARelatedObjectShowsInFetchesThroughIt() throws {
        let cars = try Cars()
        let (bmwOwner, someCar) = try cars.sql.read { db in
            (
                try Int64.fetchOne(db, sql: "SELECT ZOWNER FROM ZCAR WHERE ZMAKER = 'BMW' AND ZOWNER IS NOT NULL ORDER BY Z_PK"),
                try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ZCAR WHERE ZOWNER IS NOT NULL ORDER BY Z_PK DESC")
            )
        }
        let owner = try #require(bmwOwner)
        let car = try #require(someCar)
        cars.h.run(
            #"""
            function answers()
              local r = fetch{ "Car", section = "owner.firstName", sort = { "owner.firstName", "model" }, predicate = "maker == 'BMW'" }
              local t = {}
              for i = 1, #r do t[#t + 1] = r[i].name .. ":" .. #r[i] end
              return table.concat(t, ",")
                .. " | " .. count{ "Car", predicate = "owner.firstName == 'Zed'" }
                .. " | " .. table.concat(fetch{ "Car", result = "ids", sort = { "owner.firstName", "-model" }, limit = 7 }, ",")
                .. " | " .. count("Person", "ANY cars.model == 'Zeta'")
                .. " | " .. table.concat(fetch{ "Person", result = "ids", predicate = "ANY cars.model == 'Zeta'" }, ",")
            end
            before = answers()
            Person:get(\#(owner)).firstName = "Zed"
            onlyPerson = answers()
            Car:get(\#(car)).model = "Zeta"
            pending = answers()
            save()
            saved = answers()
            """#)
        #expect(cars.h.string("pending") == cars.h.string("saved"))
        #expect(cars.h.string("before") != cars.h.string("saved"), "the changes must change some answer")
        // With only the Person changed, the Car requests already read the new name.
        let onlyPerson = try #require(cars.h.string("onlyPerson")).split(separator: "|").prefix(3)
        let saved = try #require(cars.h.string("saved")).split(separator: "|").prefix(3)
        #expect(Array(onlyPerson) == Array(saved))
    }

    /// A middle entity of a three-level hierarchy (its view ordered by the entity column's
    /// index) fetches every row of its own and of its sub-entity, saved and pending alike.
    @Test func aMiddleEntityFetchesEveryRow() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Car" { maker = "string?" }
            entity("SportCar", { parent = "Car" }) {}
            entity("RaceCar", { parent = "SportCar" }) {}
            Car:new{ maker = "a" }; SportCar:new{ maker = "b" }; RaceCar:new{ maker = "c" }
            save()
            function ids()
              local t = {}
              for _, o in ipairs(fetch{ "SportCar" }) do t[#t + 1] = o:objectID() .. "=" .. o.maker end
              return table.concat(t, ",")
            end
            saved = ids()
            fetch{ "SportCar", predicate = "maker == 'b'" }[1].maker = "d"
            pending = ids()
            """#)
        #expect(h.string("saved") == "SportCar/2=b,RaceCar/3=c")
        #expect(h.string("pending") == "SportCar/2=d,RaceCar/3=c")
    }
}

import QuarryLua
import QuarryStore
import Testing

/// The same stored row is the same Lua value while it is referenced, whichever entity of
/// its hierarchy it was fetched through (a `Truck` row fetched as a `Car`, or by `first`).
@Suite struct HierarchyIdentityTests {
    @Test func aRowFetchedThroughItsParentOrItsOwnEntityIsOneValue() throws {
        let h = try Harness()
        h.run(
            #"""
            entity("Car", { abstract = true }) { plate = "string", rank = "int" }
            entity("Truck", { parent = "Car" }) { load = "double?" }
            entity("Monster", { parent = "Truck" }) { wheels = "int?" }
            for i = 1, 6 do (i % 2 == 0 and Truck or Monster):new{ plate = "X" .. i, rank = i } end
            save()
            a = fetch{ "Car", sort = { "plate" } }[1]
            """#)
        #expect(h.string(#"a:entity().name"#) == "Monster")
        #expect(h.string(#"rawequal(a, Car:first("plate == 'X1'"))"#) == "true")
        #expect(h.string(#"rawequal(a, fetch("Truck", "plate == 'X1'")[1])"#) == "true")
        #expect(h.string(#"rawequal(a, Monster:first("plate == 'X1'"))"#) == "true")
        // And after a change of another row and a save, as observers' events hand out.
        h.run(#"Truck:first("plate == 'X2'").rank = 9; save()"#)
        #expect(h.string(#"rawequal(a, fetch{ "Car", sort = { "plate" } }[1]) and rawequal(a, Truck:first("plate == 'X1'"))"#) == "true")
    }
}

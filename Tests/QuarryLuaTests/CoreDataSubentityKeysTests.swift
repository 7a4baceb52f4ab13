import Foundation
import GRDB
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Issue 81 ("Core Data and SwiftData fidelity"): a parent lists its sub-entities' keys,
/// and a script that reads every listed key over the parent's objects met "unknown key"
/// on objects of a sibling sub-entity. On Apple's Screen Time store (`screentime/`),
/// CoreOrganizationSettings has two rows, a LocalOrganizationSettings and a
/// CloudOrganizationSettings, while `isDirty` is FamilyOrganizationSettings' only and
/// CoreOrganization's `askForTimeRequestResponses` FamilyOrganization's only (the model's
/// own facts, checked below through `subentitiesHolding`).
@Suite struct CoreDataSubentityKeysTests {
    func open() throws -> Harness {
        let path = try CoreDataFixtures.copyOfStore("screentime/RMAdminStore-Local.sqlite")
        return try Harness(context: try StoreOpener.open(path))
    }

    @Test func aSiblingSubentitysKeyIsListedByItsParentAndReadsAsNil() throws {
        let h = try open()
        #expect(h.context.subentitiesHolding("isDirty", below: "CoreOrganizationSettings") == ["FamilyOrganizationSettings"])
        #expect(h.context.subentitiesHolding("askForTimeRequestResponses", below: "CoreOrganization") == ["FamilyOrganization"])
        #expect(h.context.subentitiesHolding("allLimitsEnabled", below: "CoreOrganizationSettings").isEmpty, "the parent's own key")
        #expect(h.string(#"count("CoreOrganizationSettings")"#) == "2")
        // Every key the parent lists, read on every object fetched through it.
        h.run(
            #"""
            reads, failures, siblings = 0, {}, 0
            for _, parent in ipairs({ "CoreOrganizationSettings", "CoreOrganization" }) do
              local keys = {}
              for k in tostring(_G[parent]):gmatch("[{,] ([%w_]+):") do keys[#keys + 1] = k end
              for _, o in ipairs(fetch(parent)) do
                for _, k in ipairs(keys) do
                  local ok, v = pcall(function() return o[k] end)
                  reads = reads + 1
                  if not ok then failures[#failures + 1] = o:entity().name .. "." .. k .. ": " .. tostring(v) end
                end
              end
            end
            """#)
        #expect(h.string("reads") == "44", "two settings of 15 keys, two organizations of 7")
        #expect(h.string("#failures") == "0", "\(h.string("table.concat(failures, '; ')") ?? "")")
        h.run(
            #"""
            loc = LocalOrganizationSettings:get("LocalOrganizationSettings/1")
            cloud = CloudOrganization:get("CloudOrganization/2")
            """#)
        #expect(h.string("loc.isDirty == nil and loc.versionVector == nil") == "true")
        #expect(h.string("cloud.askForTimeRequestResponses == nil") == "true")
        // The object's own keys and relationships still read as they did.
        #expect(h.string("loc.allLimitsEnabled") == "true")
        #expect(h.string("loc.organization:entity().name") == "LocalOrganization")
        // A key no entity of the hierarchy has is still unknown, with its hint.
        #expect(h.error("return loc.isDirtx").contains("unknown key 'isDirtx' on entity LocalOrganizationSettings"))
        // Writing a sibling's key is refused, naming the sub-entity whose key it is; the
        // object is unchanged.
        #expect(
            h.error("loc.isDirty = true")
                .contains("unknown key 'isDirty' on entity LocalOrganizationSettings; it is a key of FamilyOrganizationSettings only"))
        #expect(h.string("loc:hasChanges()") == "false")
        // A fetch over the parent naming a sub-entity's key keeps its behaviour: nil on
        // the rows without it, in SQL.
        #expect(h.string(#"count("CoreOrganizationSettings", "isDirty == nil")"#) == "2")
        #expect(h.string(#"count("CoreOrganizationSettings", "isDirty == YES")"#) == "0")
    }

    /// The same in a store Quarry makes: siblings under one parent.
    @Test func aSiblingsKeyReadsAsNilInQuarrysOwnStore() throws {
        let h = try Harness()
        h.run(
            #"""
            entity("Vehicle") { maker = "string" }
            entity("Car", { parent = "Vehicle" }) { topSpeed = "int64?" }
            entity("Boat", { parent = "Vehicle" }) { draft = "double?" }
            Car:new{ maker = "a", topSpeed = 300 }
            Boat:new{ maker = "b", draft = 1.5 }
            save()
            """#)
        #expect(h.string(#"Boat:first().topSpeed == nil and Car:first().draft == nil"#) == "true")
        #expect(h.string(#"Car:first().topSpeed"#) == "300")
        #expect(h.error("Boat:first().topSpeed = 1").contains("it is a key of Car only"))
        #expect(h.string(#"count("Vehicle", "topSpeed == nil")"#) == "1")
    }
}

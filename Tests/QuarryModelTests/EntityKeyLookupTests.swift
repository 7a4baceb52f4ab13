import QuarryModel
import Testing

/// An entity's lookups (`rowIndex`, `relationship(named:)`, `hasKey`), which
/// `appendRelationship` updates and any other change rebuilds (issue 61 item 5: a table
/// named by thousands of others rebuilt them, and scanned its keys, at each inverse it
/// gained). They must answer what a scan of the arrays answers after any sequence of changes.
@Suite struct EntityKeyLookupTests {
    /// What the lookups stand for, by scanning.
    static func expectAgreesWithAScan(_ e: EntityDescription, _ names: [String], _ step: Int) {
        let toOnes = e.relationships.filter { !$0.isToMany }
        for name in names {
            let scanned = e.relationships.first { $0.name == name }
            #expect(e.relationship(named: name) == scanned, "step \(step), \(name)")
            #expect(e.hasKey(name) == e.keyNames.contains(name), "step \(step), \(name)")
            #expect(
                e.hasKey(name.uppercased(), ignoringCase: true) == e.keyNames.contains { $0.lowercased() == name.lowercased() },
                "step \(step), \(name)")
            let place =
                e.attributes.firstIndex { $0.name == name }.map { $0 + 1 }
                ?? toOnes.lastIndex { $0.name == name }.map { e.attributes.count + 1 + $0 }
            #expect(e.rowIndex[name] == place, "step \(step), \(name)")
        }
    }

    @Test func lookupsAgreeWithAScanAfterRandomChanges() {
        var seed: UInt64 = 20_261_127
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let names = ["a", "b", "r0", "r1", "r2", "R3", "r4", "other"]
        var e = EntityDescription(
            name: "E", attributes: [AttributeDescription(name: "a", type: .string), AttributeDescription(name: "b", type: .int64)])
        func relationship() -> RelationshipDescription {
            RelationshipDescription(name: names[2 + next(5)], destination: "E", inverse: nil, isToMany: next(2) == 0)
        }
        for step in 0..<2_000 {
            switch next(6) {
            case 0, 1: e.appendRelationship(relationship())
            case 2: e.relationships.append(relationship())
            case 3: if !e.relationships.isEmpty { e.relationships.remove(at: next(e.relationships.count)) }
            case 4: if !e.relationships.isEmpty { e.relationships[next(e.relationships.count)].isToMany.toggle() }
            default: e.relationships = (0..<next(4)).map { _ in relationship() }
            }
            Self.expectAgreesWithAScan(e, names, step)
        }
    }
}

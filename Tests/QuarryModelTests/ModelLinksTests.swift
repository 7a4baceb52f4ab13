import QuarryModel
import Testing

/// The model's links (`ModelLinks`): who relates to an entity and whether it has
/// sub-entities, answered without scanning every entity (issue 61 item 5: a script of N
/// `entity` calls scanned all N at each, 3,000 took over a minute). They must give what a
/// scan gives after any sequence of changes, and only the entities that relate.
@Suite struct ModelLinksTests {
    /// What `entityNames(relatedTo:)` stands for: every entity in order whose description,
    /// as objects see it or as declared, has a relationship toward `name`.
    static func scanRelated(_ model: ManagedObjectModel, to name: String) -> [String] {
        model.entityOrder.filter { n in
            [model.entitiesByName[n], model.declaredByName[n]].contains { $0?.relationships.contains { $0.destination == name } == true }
        }
    }

    @Test func linksAgreeWithAScanAfterRandomChanges() {
        var model = ManagedObjectModel()
        var seed: UInt64 = 20_261_127
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let names = (0..<12).map { "E\($0)" }
        for step in 0..<3_000 {
            let name = names[next(names.count)]
            var entity: EntityDescription? = nil
            if next(5) != 0 {
                var e = EntityDescription(
                    name: name, attributes: [],
                    relationships: (0..<next(3)).map { i in
                        RelationshipDescription(name: "r\(i)", destination: names[next(names.count)], inverse: nil, isToMany: next(2) == 0)
                    })
                e.parent = next(3) == 0 ? names[next(names.count)] : nil
                entity = e
            }
            if next(2) == 0 {
                if model.entitiesByName[name] == nil, entity != nil, !model.entityOrder.contains(name) { model.appendToOrder(name) }
                model.setEntity(entity, named: name)
            } else {
                model.setDeclared(entity, named: name)
            }
            for target in names {
                #expect(model.entityNames(relatedTo: target) == Self.scanRelated(model, to: target), "step \(step), \(target)")
                #expect(model.hasSubentities(target) == model.entitiesByName.values.contains { $0.parent == target }, "step \(step), \(target)")
            }
        }
    }

    /// In a model of 10,000 entities, two of which name `Target`, the answer is those two,
    /// in definition order, and it follows a redefinition that drops one.
    @Test func onlyTheEntitiesThatRelateAreNamed() {
        var model = ManagedObjectModel()
        for i in 0..<10_000 {
            let name = "E\(i)"
            let relationships =
                i == 7_000 || i == 42
                ? [RelationshipDescription(name: "target", destination: "Target", inverse: nil, isToMany: false)]
                : [RelationshipDescription(name: "next", destination: "E\(i + 1)", inverse: nil, isToMany: false)]
            model.appendToOrder(name)
            model.setEntity(EntityDescription(name: name, attributes: [], relationships: relationships), named: name)
        }
        #expect(model.entityNames(relatedTo: "Target") == ["E42", "E7000"])
        #expect(model.entityNames(relatedTo: "E5") == ["E4"])
        model.setEntity(EntityDescription(name: "E42", attributes: []), named: "E42")
        #expect(model.entityNames(relatedTo: "Target") == ["E7000"])
        model.setEntity(nil, named: "E7000")
        #expect(model.entityNames(relatedTo: "Target").isEmpty)
        #expect(!model.hasSubentities("E1"))
    }
}

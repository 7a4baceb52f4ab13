import QuarryModel
import QuarryStore
import Testing

@testable import QuarryShell

/// `.schema` prints parents before their sub-entities, so its output runs again even
/// when a parent was redefined (and so stored) after its sub-entities.
struct SchemaOrderTests {
    private func entity(_ name: String, parent: String? = nil) -> EntityDescription {
        var entity = EntityDescription(name: name, attributes: [])
        entity.parent = parent
        return entity
    }

    @Test func parentsComeBeforeTheirSubEntities() {
        let stored = [
            entity("RaceCar", parent: "SportCar"), entity("Person"), entity("SportCar", parent: "Car"),
            entity("Truck", parent: "Car"), entity("Car"), entity("Boat", parent: "Elsewhere")
        ]
        #expect(parentsFirst(stored).map(\.name) == ["Person", "Car", "Boat", "SportCar", "Truck", "RaceCar"])
        #expect(parentsFirst([entity("A", parent: "B"), entity("B", parent: "A")]).map(\.name) == ["A", "B"], "a cycle keeps its order")
    }
}

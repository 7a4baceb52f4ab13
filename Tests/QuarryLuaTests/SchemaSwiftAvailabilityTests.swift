import Foundation
import QuarryModel
import QuarryModelFiles
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// `.schema --swift` over a model with a hierarchy (the cars store: Car, SportCar,
/// ExpensiveSportCar and Person, issue #27): SwiftData's class inheritance needs iOS 26, and
/// Person refers to `\Car.owner`, so every class says `@available(iOS 26, macOS 26, *)`,
/// not only the hierarchy's.
@Suite struct SchemaSwiftAvailabilityTests {
    @Test func everyClassOfAModelWithAHierarchyIsMarked() throws {
        let context = try StoreOpener.open(try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite"))
        let source = SwiftModelSource(model: CoreDataModel(of: context)).source(style: .swiftData)
        let lines = source.split(separator: "\n").map(String.init)
        let models = lines.indices.filter { lines[$0] == "@Model" }
        #expect(models.count == 4, "\(source)")
        for index in models {
            #expect(index > 0 && lines[index - 1] == "@available(iOS 26, macOS 26, *)", "\(lines[index + 1])")
        }
        #expect(source.contains("final class Person {"))
        // A model without a hierarchy needs no iOS 26.
        let plain = SwiftModelSource(
            model: CoreDataModel(entities: [EntityDescription(name: "Item", attributes: [AttributeDescription(name: "n", type: .int64)])]))
        #expect(!plain.source(style: .swiftData).contains("@available"))
    }
}

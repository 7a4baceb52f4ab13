import Foundation
import QuarryTestSupport
import Testing

/// A Core Data model's uniqueness constraints (SwiftData's `@Attribute(.unique)`) shown by
/// `.schema` as `Item:swift()` shows them (a trial on a SwiftData store, issue 80: the
/// Swift said `@Attribute(.unique) var name` while `.schema` said a plain `name`).
@Suite struct CoreDataUniquenessSchemaTests {
    @Test func schemaShowsTheModelsUniquenessConstraints() async throws {
        let sandbox = try Sandbox()
        let store = try CoreDataTests().copy("cars/SampleModel_V1.sqlite", into: sandbox)
        let result = try await sandbox.quarry([store, "-"], stdin: ".schema Car\n.schema Person\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(#"  numberPlate = { "string", unique = true },"#), "\(result)")
        #expect(result.stdout.contains(#"entity("Person", { uniqueness = { { "firstName", "lastName" } } }) {"#), "\(result)")
        let swift = try await sandbox.quarry([store, "-e", "print(Car:swift())"])
        #expect(swift.stdout.contains("@Attribute(.unique) var numberPlate: String"), "\(swift)")
    }
}

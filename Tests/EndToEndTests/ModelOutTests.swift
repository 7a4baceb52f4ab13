import Foundation
import QuarryTestSupport
import Testing

/// The model out of Quarry through the binary: Swift from an entity, `.schema --swift`,
/// and an exported Xcode model that `--model` reads back.
@Suite struct ModelOutEndToEndTests {
    @Test func swiftSchemaAndAnExportedModelThatLoadsBack() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(
            [
                "todo.db", "-e",
                #"""
                entity "Tag" { name = { "string", unique = true } }
                entity "Item" { title = "string?", tags = { many = "Tag", inverse = "items" } }
                entity "Tag" { name = { "string", unique = true }, items = { many = "Item", inverse = "tags" } }
                print(export(entities(), "Todo.xcdatamodel"))
                print(Item:swift("coredata"))
                """#, "-i"
            ], stdin: ".schema --swift\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first == "2", "\(result)")
        #expect(result.stdout.contains("@NSManaged public var tags: NSSet?"), "\(result)")
        #expect(result.stdout.contains("@Attribute(.unique) var name: String"), "\(result)")
        #expect(result.stdout.contains("@Relationship(inverse: \\Tag.items) var tags: [Tag] = []"), "\(result)")
        let contents = try String(contentsOfFile: sandbox.path("Todo.xcdatamodel/contents"), encoding: .utf8)
        #expect(
            contents.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\""))

        let bad = try await sandbox.quarry(["todo.db", "-e", #"export({ Item }, "Part.xcdatamodel")"#])
        #expect(bad.status == 1 && bad.errorLines.count == 1 && bad.stderr.contains("Part.xcdatamodel"), "\(bad)")
    }
}

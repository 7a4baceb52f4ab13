/// The model table's text is read back by hand (`StoredDefinition(text:)`, on
/// `JSONTree`): every field the encoder writes comes back, and text that is not a
/// definition Quarry wrote is refused with an error, never a crash.
import Foundation
import QuarryModel
import QuarrySQLite
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

@Suite struct StoredDefinitionTests {
    /// An entity that uses every field of the stored definition.
    static let everything: EntityDescription = {
        var attributes = AttributeType.allCases.map { AttributeDescription(name: "a_\($0.rawValue)", type: $0, isOptional: true) }
        let defaults: [Value] = [
            .null, .integer(-9_223_372_036_854_775_807), .real(2.0), .real(-0.5e-300), .text("é \"q\" \\ \n \u{1F600}"),
            .blob([0, 1, 255]), .bool(true), .bool(false), .date(-978_307_200.25)
        ]
        for (i, value) in defaults.enumerated() {
            attributes.append(
                AttributeDescription(
                    name: "d\(i)", type: .string, isOptional: i % 2 == 0, defaultValue: value,
                    isIndexed: i % 3 == 0, isUnique: i % 4 == 0))
        }
        attributes[0].renamedFrom = "old name"
        var required = RelationshipDescription(
            name: "owner", destination: "Person", inverse: "cars", isToMany: false,
            deleteRule: .deny, column: "owner_id", targetKey: "code")
        required.isRequired = true
        var implicit = RelationshipDescription(name: "drivers", destination: "Person", inverse: "drives", isToMany: true)
        implicit.isImplicitInverse = true
        var entity = EntityDescription(
            name: "Car", attributes: attributes,
            relationships: [
                required,
                RelationshipDescription(name: "parts", destination: "Part", isToMany: true, deleteRule: .cascade), implicit
            ])
        entity.parent = "Vehicle"
        entity.isAbstract = true
        entity.uniqueness = [["a_string"], ["d1", "d2"]]
        return entity
    }()

    @Test func everyFieldComesBack() throws {
        let text = try StoredDefinition.text(Self.everything)
        let read = try StoredDefinition(text: text).entity
        #expect(read == Self.everything)
        #expect(read.attribute(named: "d4")?.defaultValue == .text("é \"q\" \\ \n \u{1F600}"))
        // The key column is written beside the definition, as older versions read it.
        #expect(text.contains(#""primaryKey":"_pk""#))
        // The flag of an inverse Quarry added is written only where it is true.
        #expect(text.components(separatedBy: "isImplicitInverse").count == 2)
        #expect(read.relationship(named: "parts")?.isImplicitInverse == nil && read.relationship(named: "drivers")?.isImplicitInverse == true)
    }

    @Test func aPlainEntityReadsWithItsDefaults() throws {
        let entity = try StoredDefinition(
            text: #"{"attributes":[{"isIndexed":false,"isOptional":false,"isUnique":false,"name":"x","type":"int64"}],"name":"T"}"#
        ).entity
        #expect(entity == EntityDescription(name: "T", attributes: [AttributeDescription(name: "x", type: .int64)]))
        #expect(entity.parent == nil && !entity.isAbstract && entity.uniqueness.isEmpty && entity.relationships.isEmpty)
    }

    @Test(arguments: [
        "", "{", "[]", "null", #"{"name":"T"}"#, #"{"name":1,"attributes":[]}"#,
        #"{"name":"T","attributes":[],"primaryKey":"id"}"#,
        #"{"name":"T","attributes":[{"name":"x","type":"float128","isOptional":false,"isIndexed":false,"isUnique":false}]}"#,
        #"{"name":"T","attributes":[{"name":"x","type":"string","isOptional":0,"isIndexed":false,"isUnique":false}]}"#,
        #"{"name":"T","attributes":[{"name":"x","type":"binary","isOptional":false,"isIndexed":false,"isUnique":false,"defaultValue":{"type":"blob","value":[256]}}]}"#,
        #"{"name":"T","attributes":[],"relationships":[{"name":"r","destination":"U","isToMany":false,"deleteRule":"explode"}]}"#,
        #"{"name":"T","attributes":[],"uniqueness":[["a",1]]}"#,
        #"{"name":"T","attributes":[]} x"#, #"{"name":"T\u0000","attributes":[] "#, #"{"name":"\ud800","attributes":[]}"#,
        #"{"name":"T","attributes":[],"isAbstract":1e999}"#, #"{"name":"T","attributes":[],"x":01}"#
    ])
    func textThatIsNotADefinitionIsRefused(_ text: String) {
        #expect(throws: (any Error).self) { try StoredDefinition(text: text) }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = #"{"name":"T","attributes":[],"x":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(throws: JSONSyntax.self) { try JSONTree(parsing: deep) }
        let allowed = String(repeating: "[", count: JSONSyntax.maxDepth) + String(repeating: "]", count: JSONSyntax.maxDepth)
        #expect(throws: Never.self) { try JSONTree(parsing: allowed) }
    }

    @Test func jsonTreeReadsWhatJSONSerializationReads() throws {
        let text = #" {"a": [1, -0, 2.5, 1e3, true, false, null, "x\"\u00e9\ud83d\ude00"], "b": {"c": {}}, "b": 7, "n": -9223372036854775808} "#
        let tree = try JSONTree(parsing: text)
        #expect(tree["a"]?.array?.count == 8)
        #expect(tree["a"]?.array?[0].integer == 1)
        #expect(tree["a"]?.array?[2].double == 2.5)
        #expect(tree["a"]?.array?[3].double == 1000)
        #expect(tree["a"]?.array?[7].string == "x\"é😀")
        #expect(tree["b"]?.integer == 7) // a key given twice keeps its last value
        #expect(tree["n"]?.integer == Int64.min)
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect((parsed?["a"] as? [Any])?.count == 8)
    }
}

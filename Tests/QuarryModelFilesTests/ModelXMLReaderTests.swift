import Foundation
/// Xcode's model XML read through libxml2's reader (`XMLReader`): what a well-formed model
/// holds comes through whole (character references, empty and non-empty elements, names
/// beyond ASCII), and a document that is not well-formed is refused in one line naming
/// the file, the line and what is wrong.
import QuarryModel
import QuarryModelFiles
import Testing

@Suite struct ModelXMLReaderTests {
    static let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"

    func refusal(_ xml: String) -> String? {
        do {
            _ = try CoreDataModel.decodeXML(Data(xml.utf8), path: "contents")
            return nil
        } catch let error as ModelFileError {
            #expect(error.kind == .malformedXML, "\(error)")
            return error.description
        } catch {
            return "\(error)"
        }
    }

    @Test func aModelComesThroughWhole() throws {
        let xml =
            Self.header + """
                <model type="com.apple.IDECoreDataModeler.DataModel" userDefinedModelVersionIdentifier="">
                    <entity name="Café" representedClassName="Café" syncable="YES">
                        <attribute name="title" optional="YES" attributeType="String" defaultValueString="Tom &amp; Jerry &#x263A;"/>
                        <attribute name="n" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"></attribute>
                        <relationship name="owner" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Person" inverseName="items" inverseEntity="Person"/>
                    </entity>
                    <entity name="Person">
                        <attribute name="name" attributeType="String"/>
                        <relationship name="items" toMany="YES" deletionRule="Nullify" destinationEntity="Café" inverseName="owner" inverseEntity="Café"/>
                        <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
                    </entity>
                    <!-- a comment <entity name="Ghost"/> -->
                </model>
                """
        let model = try CoreDataModel.decodeXML(Data(xml.utf8), path: "contents")
        #expect(model.entities.map(\.name) == ["Café", "Person"])
        let cafe = try #require(model.entities.first)
        #expect(Set(cafe.attributes.map(\.name)) == ["title", "n"])
        let title = try #require(cafe.attributes.first { $0.name == "title" })
        let n = try #require(cafe.attributes.first { $0.name == "n" })
        #expect(title.defaultValue == "Tom & Jerry \u{263A}" && n.defaultValue == "0")
        #expect(title.isOptional && !n.isOptional)
        #expect(cafe.relationships.first?.deleteRule == .cascade && cafe.relationships.first?.destination == "Person")
        #expect(model.entities.last?.uniquenessConstraints == [["name"]])
        #expect(model.entities.last?.relationships.first?.isToMany == true)
    }

    @Test func aDocumentCutOffMidwayIsNamedAsSuch() {
        let cut = Self.header + "<model><entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\"/></entity>"
        let message = refusal(cut) ?? "accepted"
        #expect(message.hasPrefix("contents: ") && message.contains("the XML ends before its elements are closed"), "\(message)")
    }

    @Test(arguments: [
        ("<model><entity name=\"A\">\n</entiti></model>", "line 3: Opening and ending tag mismatch"),
        ("<model><entity name=\"A\" name=\"B\"/></model>", "line 2: Attribute name redefined"),
        ("<model><entity name=\"A\"/></model>\n<model/>", "line 3: Extra content at the end of the document"),
        ("<model><entity name=\"A &bogus;\"/></model>", "line 2: Entity 'bogus' not defined")
    ])
    func aDocumentThatIsNotWellFormedIsRefusedWithItsLine(body: String, expected: String) {
        let message = refusal(Self.header + body) ?? "accepted"
        #expect(message.hasPrefix("contents: ") && message.contains(expected), "\(message)")
        #expect(!message.contains("\n"), "\(message)")
    }

    @Test func anEmptyFileIsRefused() {
        let message = refusal("") ?? "accepted"
        #expect(message.contains("contents: ") && message.contains("empty"), "\(message)")
    }
}

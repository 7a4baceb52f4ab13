/// Writes a `CoreDataModel` as Xcode writes a model: the `contents` XML of an
/// `.xcdatamodel` folder, with Xcode's header, element names and attribute order (taken
/// from the models Xcode 15 saved in `../shared/data/coredata`), so that Xcode opens the
/// folder and a diff against an Xcode-saved model shows only real differences.
///
/// Like Xcode, a boolean is written only when it is YES, and so is every value that is
/// the default `XCDataModelParser` assumes (a to-one's `maxCount="1"` is the exception:
/// Xcode writes it). Layout (`<elements>`) is left out, as Xcode 14 and later do.
import Foundation
import QuarryModel

public enum XCDataModelWriter {
    /// The header of a model saved by Xcode 15; `sourceLanguage="Swift"` makes Xcode's
    /// code generation write Swift.
    static let header = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" \
        systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        """

    /// The text of `model`'s `contents` file.
    public static func contents(of model: CoreDataModel) -> String {
        var lines = [header]
        for entity in model.entities { lines += self.entity(entity) }
        for request in model.fetchRequests {
            guard let element = fetchRequest(request, name: request.name) else { continue }
            lines.append("    " + element)
        }
        lines.append("</model>")
        return lines.joined(separator: "\n")
    }

    /// Writes `model` as the folder `path` (an `.xcdatamodel`: a folder holding `contents`),
    /// creating the folder when missing and replacing its `contents` when present.
    public static func write(_ model: CoreDataModel, toFolder path: String, operation: String = "export") throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StoreError.cannotWrite(operation: operation, path: path, reason: "a file is in the way of the model folder")
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            } catch {
                throw StoreError.cannotWrite(operation: operation, path: path, reason: "cannot create the folder")
            }
        }
        let file = try OutputFile(path: (path as NSString).appendingPathComponent("contents"), operation: operation)
        try file.write(contents(of: model))
        try file.commit()
    }

    private static func entity(_ entity: CoreDataEntity) -> [String] {
        var head = Attributes()
        head.add("name", entity.name)
        head.add("representedClassName", entity.className)
        head.add("parentEntity", entity.parent)
        head.flag("isAbstract", entity.isAbstract)
        head.add("elementID", entity.renamingIdentifier)
        head.add("syncable", "YES")
        var body: [String] = []
        for attribute in entity.attributes { body.append("<attribute\(self.attribute(attribute).text)/>") }
        for relationship in entity.relationships { body.append("<relationship\(self.relationship(relationship).text)/>") }
        for property in entity.fetchedProperties {
            // A predicate this reader could not render cannot be written back: leaving the
            // property out is better than writing one that fetches every object.
            guard
                let request = fetchRequest(
                    CoreDataFetchRequest(
                        name: "fetchedPropertyFetchRequest", entity: property.entity,
                        predicate: property.predicate), name: "fetchedPropertyFetchRequest")
            else { continue }
            body.append("<fetchedProperty name=\"\(escape(property.name))\" optional=\"YES\">")
            body.append("    " + request)
            body.append("</fetchedProperty>")
        }
        for index in entity.fetchIndexes {
            body.append("<fetchIndex name=\"\(escape(index.name))\">")
            for property in index.properties {
                body.append("    <fetchIndexElement property=\"\(escape(property))\" type=\"Binary\" order=\"ascending\"/>")
            }
            body.append("</fetchIndex>")
        }
        if !entity.uniquenessConstraints.isEmpty {
            body.append("<uniquenessConstraints>")
            for constraint in entity.uniquenessConstraints {
                body.append("    <uniquenessConstraint>")
                for name in constraint { body.append("        <constraint value=\"\(escape(name))\"/>") }
                body.append("    </uniquenessConstraint>")
            }
            body.append("</uniquenessConstraints>")
        }
        guard !body.isEmpty else { return ["    <entity\(head.text)/>"] }
        return ["    <entity\(head.text)>"] + body.map { "        " + $0 } + ["    </entity>"]
    }

    private static func attribute(_ attribute: CoreDataAttribute) -> Attributes {
        var out = Attributes()
        out.add("name", attribute.name)
        out.flag("optional", attribute.isOptional)
        out.flag("transient", attribute.isTransient)
        out.add("attributeType", attribute.type.rawValue)
        out.add("defaultValueString", attribute.defaultValue)
        out.flag("derived", attribute.isDerived)
        out.add("derivationExpression", attribute.derivationExpression)
        out.flag("indexed", attribute.isIndexed)
        out.flag("allowsExternalBinaryDataStorage", attribute.allowsExternalBinaryDataStorage)
        out.add("valueTransformerName", attribute.valueTransformerName)
        // Xcode's code generation reads this: numbers and booleans as Swift scalars, dates
        // and UUIDs as objects. The reader ignores it; Xcode writes it for these types.
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: out.add("usesScalarValueType", "YES")
        case .date, .uuid, .uri: out.add("usesScalarValueType", "NO")
        default: break
        }
        out.flag("preserveAfterDeletion", attribute.preservesValueInHistoryOnDeletion)
        // The renaming identifier, as Xcode writes it, so a model written back still migrates.
        out.add("elementID", attribute.renamingIdentifier)
        return out
    }

    private static func relationship(_ relationship: CoreDataRelationship) -> Attributes {
        var out = Attributes()
        out.add("name", relationship.name)
        out.flag("optional", relationship.isOptional)
        out.flag("transient", relationship.isTransient)
        out.flag("toMany", relationship.isToMany)
        if relationship.minCount != 0 { out.add("minCount", String(relationship.minCount)) }
        // Xcode writes a to-one's maxCount="1"; a to-many's only when bounded (0 is unbounded).
        if !relationship.isToMany || relationship.maxCount != 0 { out.add("maxCount", String(relationship.maxCount)) }
        out.add("deletionRule", relationship.deleteRule.rawValue)
        out.flag("ordered", relationship.isOrdered)
        out.add("elementID", relationship.renamingIdentifier)
        out.add("destinationEntity", relationship.destination)
        out.add("inverseName", relationship.inverse)
        out.add("inverseEntity", relationship.inverse == nil ? nil : relationship.destination)
        return out
    }

    /// A `<fetchRequest>` element; nil for a predicate that cannot be written as text.
    private static func fetchRequest(_ request: CoreDataFetchRequest, name: String) -> String? {
        var out = Attributes()
        out.add("name", name)
        out.add("entity", request.entity)
        switch request.predicate {
        case .format(let text)?: out.add("predicateString", text)
        case .unsupported?: return nil
        case nil: break
        }
        return "<fetchRequest\(out.text)/>"
    }

    /// An element's attributes in the order added.
    private struct Attributes {
        private(set) var text = ""
        package mutating func add(_ key: String, _ value: String?) {
            guard let value else { return }
            text += " \(key)=\"\(escape(value))\""
        }
        package mutating func flag(_ key: String, _ on: Bool) { if on { add(key, "YES") } }
    }

    /// XML attribute text: markup characters as entities, and whitespace other than the
    /// space as character references, which a parser would otherwise fold into spaces.
    package static func escape(_ text: String) -> String {
        escaping(text) { scalar in
            switch scalar {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\"": return "&quot;"
            case "\n": return "&#10;"
            case "\r": return "&#13;"
            case "\t": return "&#9;"
            default: return nil
            }
        }
    }
}

extension CoreDataModel {
    /// This model as Xcode's `contents` XML.
    public var xcdatamodelContents: String { XCDataModelWriter.contents(of: self) }
}

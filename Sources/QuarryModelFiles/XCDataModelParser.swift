import CQuarrySignals
import Foundation
/// Reads Xcode's model XML (the `contents` file of an `.xcdatamodel` folder) into a
/// `CoreDataModel`, through libxml2's reader (`XMLReader`). Xcode writes a boolean only
/// when it is YES, so an absent `optional` means required, as Core Data reads it. Layout
/// elements (`elements`/`element`) and code-generation settings are ignored.
import QuarryModel

final class XCDataModelParser {
    private let path: String
    private var entities: [CoreDataEntity] = []
    private var fetchRequests: [CoreDataFetchRequest] = []
    private var entity: CoreDataEntity?
    private var constraint: [String]?
    private var fetchIndex: CoreDataFetchIndex?
    private var fetchedProperty: CoreDataFetchedProperty?
    private var sawModel = false
    /// Elements opened and not yet closed, so a document cut off mid-way is named as such.
    private var depth = 0
    private var error: ModelFileError?
    private var line = 0
    /// Elements seen, to look for Ctrl-C and `--timeout` every 1,024 of them.
    private var elements = 0
    private var stopped = false

    private init(path: String) { self.path = path }

    /// Parses `data`, the XML of a `contents` file at `path`.
    package static func parse(_ data: Data, path: String) throws -> CoreDataModel {
        // What Xcode never writes (another encoding, processing instructions, a DTD) is
        // refused before libxml2 reads it, each with its line.
        if let problem = notUTF8(data) ?? foreignMarkup(data) { throw ModelFileError(.malformedXML, path: path, problem) }
        guard !data.isEmpty else { throw ModelFileError(.malformedXML, path: path, "line 1: the file is empty") }
        guard let reader = XMLReader(data) else {
            throw ModelFileError(.malformedXML, path: path, "the XML is too large to read (\(data.count) bytes)")
        }
        let delegate = XCDataModelParser(path: path)
        reading: while delegate.error == nil, !delegate.stopped {
            let event = reader.next()
            delegate.line = reader.line
            switch event {
            case .start(let name, let attributes): delegate.start(name, attributes)
            case .end(let name): delegate.end(name)
            case .done: break reading
            case .failed:
                if delegate.depth > 0, reader.errorIsDocumentEnd { break reading }
                let (reason, line) = reader.error ?? ("not well-formed", reader.line)
                throw ModelFileError(.malformedXML, path: path, "line \(line): \(reason)")
            }
        }
        if delegate.stopped {
            try ModelFileError.stopIfAsked(path, at: "line \(delegate.line)")
            throw ModelFileError(.stopped, path: path, "line \(delegate.line): interrupted!")
        }
        if let error = delegate.error { throw error }
        guard delegate.depth == 0 else {
            throw ModelFileError(
                .malformedXML, path: path, "line \(reader.line): the XML ends before its elements are closed (a truncated file?)")
        }
        guard delegate.sawModel else { throw ModelFileError(.notAModel, path: path, "no <model> element") }
        let model = CoreDataModel(entities: delegate.entities, fetchRequests: delegate.fetchRequests)
        try ModelValidation.check(model, path: path)
        return model
    }

    private func fail(_ kind: ModelFileError.Kind, _ detail: String) {
        guard error == nil else { return }
        error = ModelFileError(kind, path: path, "line \(line): \(detail)")
    }

    private func required(_ attributes: [String: String], _ key: String, of element: String) -> String? {
        guard let value = attributes[key], !value.isEmpty else {
            fail(.malformedXML, "<\(element)> has no \(key)")
            return nil
        }
        return value
    }

    private func flag(_ attributes: [String: String], _ key: String) -> Bool { attributes[key] == "YES" }

    /// Xcode keeps a renaming identifier as `elementID`; one equal to the name renames nothing.
    private func renamed(_ attributes: [String: String], from name: String) -> String? {
        guard let id = attributes["elementID"], !id.isEmpty, id != name else { return nil }
        return id
    }

    private func count(_ attributes: [String: String], _ key: String) -> Int? {
        guard let text = attributes[key] else { return nil }
        guard let n = Int(text), n >= 0 else {
            fail(.malformedXML, "\(key)=\"\(text)\" is not a count")
            return nil
        }
        return n
    }

    private func start(_ name: String, _ attributes: [String: String]) {
        depth += 1
        guard error == nil, !stopped else { return }
        elements += 1
        if elements % 1024 == 0, quarry_should_stop() != 0 {
            stopped = true
            return
        }
        if !sawModel {
            guard name == "model" else { return fail(.notAModel, "the root element is <\(name)>, not <model>") }
            sawModel = true
            return
        }
        switch name {
        case "entity":
            guard let entityName = required(attributes, "name", of: name) else { return }
            entity = CoreDataEntity(
                name: entityName, parent: attributes["parentEntity"], isAbstract: flag(attributes, "isAbstract"),
                className: attributes["representedClassName"])
            entity?.renamingIdentifier = renamed(attributes, from: entityName)
        case "attribute":
            guard let attributeName = required(attributes, "name", of: name),
                let typeName = required(attributes, "attributeType", of: name)
            else { return }
            guard let type = CoreDataAttributeType(xmlName: typeName) else {
                return fail(.unknownAttributeType, "attribute \(entity?.name ?? "?").\(attributeName) has attributeType \"\(typeName)\"")
            }
            let expression = attributes["derivationExpression"]
            var attribute = CoreDataAttribute(
                name: attributeName, type: type, isOptional: flag(attributes, "optional"), isTransient: flag(attributes, "transient"),
                isDerived: flag(attributes, "derived") || expression != nil, derivationExpression: expression,
                defaultValue: attributes["defaultValueString"], isIndexed: flag(attributes, "indexed"),
                allowsExternalBinaryDataStorage: flag(attributes, "allowsExternalBinaryDataStorage"),
                valueTransformerName: attributes["valueTransformerName"],
                preservesValueInHistoryOnDeletion: flag(attributes, "preserveAfterDeletion"))
            attribute.renamingIdentifier = renamed(attributes, from: attributeName)
            entity?.attributes.append(attribute)
        case "relationship":
            guard let relationshipName = required(attributes, "name", of: name),
                let destination = required(attributes, "destinationEntity", of: name)
            else { return }
            let toMany = flag(attributes, "toMany")
            let rule: CoreDataDeleteRule
            if let ruleName = attributes["deletionRule"] {
                guard let known = CoreDataDeleteRule(rawValue: ruleName) else {
                    return fail(.malformedXML, "relationship \(entity?.name ?? "?").\(relationshipName) has deletionRule \"\(ruleName)\"")
                }
                rule = known
            } else {
                rule = .nullify
            }
            let minCount = count(attributes, "minCount") ?? 0
            let maxCount = count(attributes, "maxCount") ?? (toMany ? 0 : 1)
            var relationship = CoreDataRelationship(
                name: relationshipName, destination: destination, inverse: attributes["inverseName"], isToMany: toMany,
                isOrdered: flag(attributes, "ordered"), minCount: minCount, maxCount: maxCount, deleteRule: rule,
                isOptional: flag(attributes, "optional"), isTransient: flag(attributes, "transient"))
            relationship.renamingIdentifier = renamed(attributes, from: relationshipName)
            entity?.relationships.append(relationship)
        case "uniquenessConstraint":
            constraint = []
        case "constraint":
            guard let value = required(attributes, "value", of: name) else { return }
            constraint?.append(value)
        case "fetchIndex":
            fetchIndex = CoreDataFetchIndex(name: attributes["name"] ?? "", properties: [])
        case "fetchIndexElement":
            if let property = attributes["property"] { fetchIndex?.properties.append(property) }
        case "fetchedProperty":
            guard let propertyName = required(attributes, "name", of: name) else { return }
            fetchedProperty = CoreDataFetchedProperty(name: propertyName, entity: "")
        case "fetchRequest":
            let predicate = attributes["predicateString"].map(CoreDataPredicate.format)
            let target = attributes["entity"] ?? ""
            if fetchedProperty != nil {
                fetchedProperty?.entity = target
                fetchedProperty?.predicate = predicate
            } else {
                guard let requestName = required(attributes, "name", of: name) else { return }
                fetchRequests.append(CoreDataFetchRequest(name: requestName, entity: target, predicate: predicate))
            }
        default:
            break
        }
    }

    private func end(_ name: String) {
        depth -= 1
        guard error == nil else { return }
        switch name {
        case "entity":
            if let entity {
                var finished = CoreDataEntity(
                    name: entity.name, parent: entity.parent, isAbstract: entity.isAbstract, className: entity.className,
                    attributes: entity.attributes, relationships: entity.relationships, uniquenessConstraints: entity.uniquenessConstraints,
                    fetchIndexes: entity.fetchIndexes, fetchedProperties: entity.fetchedProperties)
                finished.renamingIdentifier = entity.renamingIdentifier
                // Appended as read: the XML's order, which the init sorted away.
                finished.declaredOrder = entity.attributes.map(\.name)
                entities.append(finished)
            }
            entity = nil
        case "uniquenessConstraint":
            if let constraint, !constraint.isEmpty { entity?.uniquenessConstraints.append(constraint) }
            constraint = nil
        case "fetchIndex":
            if let fetchIndex { entity?.fetchIndexes.append(fetchIndex) }
            fetchIndex = nil
        case "fetchedProperty":
            if let fetchedProperty { entity?.fetchedProperties.append(fetchedProperty) }
            fetchedProperty = nil
        default:
            break
        }
    }
}

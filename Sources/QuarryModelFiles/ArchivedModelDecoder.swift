import Foundation
/// Turns a compiled Core Data model (a keyed archive rooted at `NSManagedObjectModel`, as in
/// a `.mom` file or an inflated `Z_MODELCACHE`) into a `CoreDataModel`. The keys are the ones
/// Core Data writes, found by dumping real archives: `NSEntities`, `NSEntityName`,
/// `NSSuperentity`, `NSProperties`, `NSUniqueTuples`, `NSFetchIndexDescriptions`,
/// `NSAttributeType`, `NSIsOptional`, `NSIsTransient`, `NSDefaultValue`,
/// `_NSDestinationEntityName`, `_NSInverseRelationshipName`, `NSMinCount`, `NSMaxCount`,
/// `NSDeleteRule`, a property proxy's `NSUnderlyingProperty`, and a composite's
/// `NSCompositeElements` and `NSUserInfo` `EnumType`. A false flag is left out
/// of the archive, so absent means false.
///
/// The walk follows the model's shape (model → entities → properties) and reads
/// back-references (superentity, destination, inverse) by name only, so the object graph's
/// cycles are never followed; predicates, the one recursive part, carry a depth bound.
import QuarryModel

enum ArchivedModelDecoder {
    /// Decodes the model archived in `data`; `path` names the source in errors.
    package static func decode(_ data: Data, path: String) throws -> CoreDataModel {
        let archive = try KeyedArchive(data: data, path: path)
        let root = try archive.rootObject
        guard root.isKind(of: "NSManagedObjectModel") else {
            throw archive.broken("the root object is \(root.className), not NSManagedObjectModel")
        }
        var decoded: [(entity: CoreDataEntity, propertyNames: Set<String>)] = []
        var seen: Set<String> = []
        for (key, n) in try root.entries("NSEntities") {
            let object = try archive.instance(n)
            guard object.isKind(of: "NSEntityDescription") else {
                throw archive.broken("NSEntities[\(key)] is \(object.className), not NSEntityDescription")
            }
            let entry = try entity(object, key: key)
            guard seen.insert(entry.entity.name).inserted else { throw archive.broken("entity \(entry.entity.name) appears twice") }
            decoded.append(entry)
        }
        // A compiled subentity repeats its parent's properties: keep those it declares.
        // By name, so each entity finds its parent in constant time (linear in entities).
        let byName = Dictionary(decoded.map { ($0.entity.name, $0) }, uniquingKeysWith: { a, _ in a })
        let entities = decoded.map { entry -> CoreDataEntity in
            guard let parent = entry.entity.parent, let inherited = byName[parent]?.propertyNames else { return entry.entity }
            var own = entry.entity
            own.attributes.removeAll { inherited.contains($0.name) }
            own.relationships.removeAll { inherited.contains($0.name) }
            own.fetchedProperties.removeAll { inherited.contains($0.name) }
            let parentConstraints = byName[parent]?.entity.uniquenessConstraints ?? []
            own.uniquenessConstraints.removeAll { parentConstraints.contains($0) }
            return own
        }
        let templates = try root.entries("NSFetchRequestTemplates").map { name, n in
            try fetchRequest(archive.instance(n), name: name)
        }
        let model = CoreDataModel(entities: entities, fetchRequests: templates)
        try ModelValidation.check(model, path: path)
        return model
    }

    private static func entity(_ object: ArchivedObject, key: String) throws -> (entity: CoreDataEntity, propertyNames: Set<String>) {
        let name = try object.string("NSEntityName") ?? key
        let parent = try object.object("NSSuperentity").map { superentity -> String in
            guard let parentName = try superentity.string("NSEntityName") else {
                throw object.archive.broken("entity \(name): its superentity has no name")
            }
            return parentName
        }
        var attributes: [CoreDataAttribute] = []
        var relationships: [CoreDataRelationship] = []
        var fetched: [CoreDataFetchedProperty] = []
        var names: Set<String> = []
        for (propertyKey, n) in try object.entries("NSProperties") {
            let property = try resolvingProxies(object.archive.instance(n), entity: name, key: propertyKey)
            let propertyName = try property.string("NSPropertyName") ?? propertyKey
            names.insert(propertyName)
            if property.isKind(of: "NSRelationshipDescription") {
                var found = try relationship(property, name: propertyName, entity: name)
                found.renamingIdentifier = try renamingIdentifier(property, name: propertyName)
                relationships.append(found)
            } else if property.isKind(of: "NSFetchedPropertyDescription") {
                let request = try property.object("NSFetchRequest").map { try fetchRequest($0, name: propertyName) }
                fetched.append(CoreDataFetchedProperty(name: propertyName, entity: request?.entity ?? "", predicate: request?.predicate))
            } else if property.isKind(of: "NSAttributeDescription") {
                var found = try attribute(property, name: propertyName, entity: name)
                found.renamingIdentifier = try renamingIdentifier(property, name: propertyName)
                attributes.append(found)
            } else {
                throw object.archive.broken("entity \(name) property \(propertyName) is \(property.className)")
            }
        }
        let constraints = try object.elements("NSUniqueTuples").map { n in
            try object.archive.instance(n).elements().map { m -> String in
                guard let s = try object.archive.string(at: m, context: "entity \(name) NSUniqueTuples") else {
                    throw object.archive.broken("entity \(name): a uniqueness constraint holds $null")
                }
                return s
            }
        }
        let indexes = try object.elements("NSFetchIndexDescriptions").map { n in try fetchIndex(object.archive.instance(n), entity: name) }
        var entity = CoreDataEntity(
            name: name, parent: parent, isAbstract: try object.bool("NSIsAbstract"),
            className: try object.string("NSClassNameForEntity"),
            attributes: attributes, relationships: relationships, uniquenessConstraints: constraints,
            fetchIndexes: indexes, fetchedProperties: fetched)
        entity.renamingIdentifier = try renamingIdentifier(object, name: name)
        return (entity, names)
    }

    /// A compiled model writes every element's `NSRenamingIdentifier`, its own name when
    /// nothing was renamed: only another name is kept, as Xcode's XML keeps it.
    private static func renamingIdentifier(_ object: ArchivedObject, name: String) throws -> String? {
        guard let id = try object.string("NSRenamingIdentifier"), !id.isEmpty, id != name else { return nil }
        return id
    }

    /// Some models (Photos.app's on macOS 13; an app's with an abstract parent) archive a
    /// sub-entity's inherited properties as `_NSPropertyDescriptionProxy` objects, whose
    /// `NSUnderlyingProperty` is the parent's property (Core Data's `encodeWithCoder:`
    /// writes it with `NSReferenceID` and `NSEntityDescription`, the sub-entity): read
    /// the property it stands for. A proxy of a proxy is followed a few steps, so a cycle
    /// of proxies is a broken archive, not a hang.
    private static func resolvingProxies(_ object: ArchivedObject, entity: String, key: String) throws -> ArchivedObject {
        var property = object
        var steps = 0
        while property.isKind(of: "_NSPropertyDescriptionProxy") {
            guard steps < 8 else { throw object.archive.broken("entity \(entity) property \(key): a chain of property proxies that does not end") }
            guard let underlying = try property.object("NSUnderlyingProperty") else {
                throw object.archive.broken("entity \(entity) property \(key): a property proxy with no NSUnderlyingProperty")
            }
            property = underlying
            steps += 1
        }
        return property
    }

    /// Composites nest no deeper than this: a struct of structs is a few levels in a real
    /// model, and an archive whose elements hold themselves is broken, not endless.
    static let compositeDepthLimit = 8

    private static func attribute(_ p: ArchivedObject, name: String, entity: String, depth: Int = 0) throws -> CoreDataAttribute {
        guard let code = try p.int("NSAttributeType") else { throw p.archive.broken("\(entity).\(name) has no NSAttributeType") }
        guard let type = CoreDataAttributeType(code: code) else {
            throw ModelFileError(.unknownAttributeType, path: p.archive.path, "\(entity).\(name) has NSAttributeType \(code)")
        }
        // A composite (`NSCompositeAttributeDescription`, iOS 17) lists its elements under
        // `NSCompositeElements`, each an `NSAttributeDescription` (a composite too where the
        // struct holds a struct); SwiftData marks one made of an enum with `NSUserInfo`
        // `EnumType` (found by dumping a real SwiftData store's model cache).
        var elements: [CoreDataAttribute] = []
        var isEnum = false
        if type == .composite {
            guard depth < compositeDepthLimit else {
                throw p.archive.broken("\(entity).\(name): composites nested more than \(compositeDepthLimit) deep")
            }
            var names: Set<String> = []
            for n in try p.elements("NSCompositeElements") {
                let element = try p.archive.instance(n)
                guard element.isKind(of: "NSAttributeDescription") else {
                    throw p.archive.broken("\(entity).\(name): a composite element is \(element.className), not NSAttributeDescription")
                }
                guard let elementName = try element.string("NSPropertyName"), !elementName.isEmpty else {
                    throw p.archive.broken("\(entity).\(name): a composite element has no name")
                }
                // An element is named by its path (`author.person`): a dot in a name would
                // make two elements one path.
                guard !elementName.contains(".") else {
                    throw p.archive.broken("\(entity).\(name): a composite element is named \(elementName), with a dot")
                }
                guard names.insert(elementName).inserted else { throw p.archive.broken("\(entity).\(name): two elements named \(elementName)") }
                elements.append(try attribute(element, name: elementName, entity: "\(entity).\(name)", depth: depth + 1))
            }
            for (key, n) in try p.entries("NSUserInfo") where key == "EnumType" {
                isEnum = p.archive.objects[n].bool ?? (p.archive.objects[n].int.map { $0 != 0 } ?? false)
            }
        }
        let derived = p.isKind(of: "NSDerivedAttributeDescription")
        let derivation = try p.object("NSDerivationExpression").map { try PredicateRenderer(archive: p.archive).expression($0) }
        return CoreDataAttribute(
            name: name, type: type, isOptional: try p.bool("NSIsOptional"), isTransient: try p.bool("NSIsTransient"),
            isDerived: derived || derivation != nil, derivationExpression: derivation,
            defaultValue: try defaultValue(p.referenced("NSDefaultValue"), archive: p.archive),
            isIndexed: try p.bool("NSIsIndexed"),
            allowsExternalBinaryDataStorage: try p.bool("NSAllowsExternalBinaryDataStorage"),
            valueTransformerName: try p.string("NSValueTransformerName"),
            // Bit 0x10 of NSFlagsKey: set on the one attribute marked "Preserve After
            // Deletion" in the compiled cars model (coredata/cars), on no other.
            preservesValueInHistoryOnDeletion: ((try p.int("NSFlagsKey")) ?? 0) & 0x10 != 0,
            elements: elements, isEnum: isEnum)
    }

    /// A default value written as Xcode's `defaultValueString` would be.
    private static func defaultValue(_ value: Plist?, archive: KeyedArchive) throws -> String? {
        switch value {
        case .string(let s)?: return s
        case .bool(let b)?: return b ? "YES" : "NO"
        case .integer(let n)?: return String(n)
        case .real(let d)?: return String(d)
        case .dictionary(let fields)?:
            if let time = fields["NS.time"]?.double { return String(time) }
            if let s = fields["NS.string"]?.string { return s }
        default: break
        }
        return nil // data, decimals and other objects: no text form
    }

    private static func relationship(_ p: ArchivedObject, name: String, entity: String) throws -> CoreDataRelationship {
        let destination: String
        if let d = try p.string("_NSDestinationEntityName") {
            destination = d
        } else if let d = try p.object("NSDestinationEntity")?.string("NSEntityName") {
            destination = d
        } else {
            throw p.archive.broken("relationship \(entity).\(name) has no destination entity")
        }
        let inverse = try p.string("_NSInverseRelationshipName") ?? p.object("NSInverseRelationship")?.string("NSPropertyName")
        let minCount = try p.int("NSMinCount") ?? 0
        // A model built in code archives a to-many with no maximum as NSMaxCount -1 (Core
        // Data writes it so): that is no maximum, as 0 is, not a broken archive.
        let archivedMax = try p.int("NSMaxCount") ?? 0
        let maxCount = archivedMax == -1 ? 0 : archivedMax
        guard minCount >= 0, maxCount >= 0 else { throw p.archive.broken("relationship \(entity).\(name) has a negative count") }
        let code = try p.int("NSDeleteRule") ?? 1
        guard let rule = CoreDataDeleteRule(code: code) else { throw p.archive.broken("relationship \(entity).\(name) has NSDeleteRule \(code)") }
        return CoreDataRelationship(
            name: name, destination: destination, inverse: inverse, isToMany: maxCount != 1, isOrdered: try p.bool("NSIsOrdered"),
            minCount: minCount, maxCount: maxCount, deleteRule: rule,
            isOptional: try p.bool("NSIsOptional"), isTransient: try p.bool("NSIsTransient"))
    }

    private static func fetchIndex(_ index: ArchivedObject, entity: String) throws -> CoreDataFetchIndex {
        let name = try index.string("NSIndexName") ?? ""
        let properties = try index.elements("NSIndexElements").map { n -> String in
            let element = try index.archive.instance(n)
            if let s = try element.string("NSPropertyName") { return s }
            if let s = try element.object("NSProperty")?.string("NSPropertyName") { return s }
            throw index.archive.broken("fetch index \(entity).\(name): an element names no property")
        }
        return CoreDataFetchIndex(name: name, properties: properties)
    }

    private static func fetchRequest(_ request: ArchivedObject, name: String) throws -> CoreDataFetchRequest {
        let entity = try request.string("NSEntityName") ?? request.object("NSEntity")?.string("NSEntityName") ?? ""
        let predicate = try request.object("NSPredicate").map { try PredicateRenderer(archive: request.archive).predicate($0) }
        return CoreDataFetchRequest(name: name, entity: entity, predicate: predicate)
    }
}

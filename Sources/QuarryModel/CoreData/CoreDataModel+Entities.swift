/// Between Quarry's schema (`EntityDescription`) and a Core Data model, both ways: so that
/// entities prototyped in Quarry can be written as an Xcode model or as Swift, and a model
/// read from a file can be defined in a store.
///
/// Inheritance: an entity lists only the attributes and relationships it declares itself,
/// as `entity("SportCar", { parent = "Car" }) { ... }` is written and as Core Data's model
/// holds them; the inherited ones are the parent's (`CoreDataModel.allAttributes(of:)`).
/// Going to Core Data, a sub-entity that repeats an ancestor's attribute or relationship
/// (as a store's flattened views do) has the repetition dropped.
import Foundation

extension CoreDataModel {
    /// Quarry's entities as a Core Data model. Every entity is its own class, named after it.
    public init(entities: [EntityDescription]) {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func ancestors(of entity: EntityDescription) -> [EntityDescription] {
            var result: [EntityDescription] = []
            var seen: Set<String> = [entity.name]
            var next = entity.parent
            while let name = next, seen.insert(name).inserted, let parent = byName[name] {
                result.append(parent)
                next = parent.parent
            }
            return result
        }
        self.init(
            entities: entities.map { entity in
                let inherited = Set(ancestors(of: entity).flatMap(\.keyNames))
                let attributes = entity.attributes.filter { !inherited.contains($0.name) }
                var constraints = attributes.filter(\.isUnique).map { [$0.name] }
                for constraint in entity.uniqueness where !constraints.contains(constraint) { constraints.append(constraint) }
                return CoreDataEntity(
                    name: entity.name, parent: entity.parent, isAbstract: entity.isAbstract, className: entity.name,
                    attributes: attributes.map(CoreDataAttribute.init(quarry:)),
                    relationships: entity.relationships.filter { !inherited.contains($0.name) }.map(CoreDataRelationship.init(quarry:)),
                    uniquenessConstraints: constraints)
            })
    }

    /// The model as Quarry entities: transient attributes left out (they have no storage),
    /// and attributes of a type Quarry has no column for (undefined, object IDs, composites).
    /// A one-attribute uniqueness constraint on an attribute the entity declares becomes the
    /// attribute's `isUnique`; the others stay in `uniqueness`. Ordered and min/max counts of
    /// relationships, fetch indexes and fetched properties have no place in Quarry's schema.
    public func quarryEntities() -> [EntityDescription] {
        entities.map { source in
            // In the order the file declares them where it keeps one (columns print so).
            let place = Dictionary((source.declaredOrder ?? []).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let inOrder = source.attributes.enumerated().sorted {
                (place[$0.element.name] ?? Int.max, $0.offset) < (place[$1.element.name] ?? Int.max, $1.offset)
            }
            let attributes = inOrder.map(\.element).compactMap { attribute -> AttributeDescription? in
                guard !attribute.isTransient, let type = attribute.type.quarryType else { return nil }
                var result = AttributeDescription(
                    name: attribute.name, type: type, isOptional: attribute.isOptional,
                    defaultValue: attribute.defaultValue.flatMap { Self.quarryDefault($0, type: type) },
                    isIndexed: attribute.isIndexed)
                result.isUnique = source.uniquenessConstraints.contains([attribute.name])
                return result
            }
            let relationships = source.relationships.filter { !$0.isTransient }.map {
                var relationship = RelationshipDescription(
                    name: $0.name, destination: $0.destination, inverse: $0.inverse,
                    isToMany: $0.isToMany, deleteRule: DeleteRule($0.deleteRule))
                if !$0.isToMany, !$0.isOptional { relationship.isRequired = true }
                return relationship
            }
            var entity = EntityDescription(name: source.name, attributes: attributes, relationships: relationships)
            entity.parent = source.parent
            entity.isAbstract = source.isAbstract
            let declared = Set(attributes.map(\.name))
            entity.uniqueness = source.uniquenessConstraints.filter { $0.count != 1 || !declared.contains($0[0]) }
            return entity
        }
    }

    /// Xcode's `defaultValueString` as a Quarry value of `type`; nil when it does not read as one.
    package static func quarryDefault(_ text: String, type: AttributeType) -> Value? {
        let value: Value
        switch type {
        case .int16, .int32, .int64:
            guard let n = Int64(text) ?? Double(text).flatMap({ $0 == $0.rounded() && abs($0) < 9e18 ? Int64($0) : nil }) else { return nil }
            value = .integer(n)
        case .double:
            guard let d = Double(text), d.isFinite else { return nil }
            value = .real(d)
        // Exactly as written (`2` stays 2, not the double's 2.0).
        case .decimal:
            guard DecimalText.isDecimal(text) else { return nil }
            value = .decimal(text)
        case .bool:
            switch text.lowercased() {
            case "yes", "true", "1": value = .bool(true)
            case "no", "false", "0": value = .bool(false)
            default: return nil
            }
        case .date:
            guard let seconds = Double(text), seconds.isFinite else { return nil }
            value = .date(seconds + ReferenceDate.secondsSince1970)
        case .string, .uuid, .json:
            value = .text(text)
        case .binary:
            return nil
        }
        if case .success(let coerced) = type.coerce(value) { return coerced }
        return nil
    }
}

extension CoreDataAttribute {
    /// A Quarry attribute as Core Data's. `json` becomes `String`: Core Data has no JSON
    /// type, and Quarry keeps JSON as its text, so the value crosses unchanged (a
    /// `Transformable` would need a transformer the app does not have).
    package init(quarry attribute: AttributeDescription) {
        let type: CoreDataAttributeType
        switch attribute.type {
        case .string, .json: type = .string
        case .int16: type = .integer16
        case .int32: type = .integer32
        case .int64: type = .integer64
        case .double: type = .double
        case .decimal: type = .decimal
        case .bool: type = .boolean
        case .date: type = .date
        case .uuid: type = .uuid
        case .binary: type = .binary
        }
        self.init(
            name: attribute.name, type: type, isOptional: attribute.isOptional,
            defaultValue: attribute.defaultValue.flatMap(Self.defaultValueString), isIndexed: attribute.isIndexed)
    }

    /// A Quarry value as Xcode writes a default: booleans YES/NO, dates in seconds since
    /// 2001, numbers as decimal text. Binary defaults have no text form in Xcode's model,
    /// nor has text that is not UTF-8 (an XML file's text is).
    package static func defaultValueString(_ value: Value) -> String? {
        switch value {
        case .null, .blob, .textBytes: return nil
        case .integer(let n): return String(n)
        case .real(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .bool(let b): return b ? "YES" : "NO"
        case .date(let seconds):
            let since2001 = seconds - ReferenceDate.secondsSince1970
            return since2001 == since2001.rounded() && abs(since2001) < 1e15 ? String(Int64(since2001)) : String(since2001)
        case .text(let text), .decimal(let text): return text
        }
    }
}

extension CoreDataRelationship {
    /// A Quarry relationship as Core Data's: optional unless required, unordered.
    package init(quarry relationship: RelationshipDescription) {
        let rule: CoreDataDeleteRule
        switch relationship.deleteRule {
        // Core Data has no column defaults for links: the nearest is clearing them.
        case .nullify, .setdefault: rule = .nullify
        case .cascade: rule = .cascade
        case .deny: rule = .deny
        case .noaction: rule = .noAction
        }
        self.init(
            name: relationship.name, destination: relationship.destination, inverse: relationship.inverse,
            isToMany: relationship.isToMany, deleteRule: rule)
        isOptional = relationship.isRequired != true
    }
}

extension DeleteRule {
    package init(_ rule: CoreDataDeleteRule) {
        switch rule {
        case .cascade: self = .cascade
        case .deny: self = .deny
        case .noAction: self = .noaction
        case .nullify: self = .nullify
        }
    }
}

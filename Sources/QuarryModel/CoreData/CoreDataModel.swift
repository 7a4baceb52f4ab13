/// A Core Data model as Quarry reads it, whatever it came from: a store's `Z_MODELCACHE`, a
/// compiled `.mom`/`.momd`, or Xcode's `.xcdatamodel`/`.xcdatamodeld` XML. One plain-value
/// representation, so that the sources can be compared and so that what turns a model into
/// Quarry entities is written once. Kept apart from Quarry's own `EntityDescription`: it says
/// what Core Data says (inheritance, transient and derived attributes, delete rules), and
/// `CoreDataAttributeType.quarryType` maps it.
///
/// Normalized: entities, attributes and relationships are sorted by name, and each entity
/// lists only the properties it declares (a compiled model repeats inherited ones in every
/// subentity; they are dropped there, and `allAttributes(of:)` puts them back).
public struct CoreDataModel: Equatable, Sendable {
    public var entities: [CoreDataEntity] { didSet { positions = Self.positions(of: entities) } }
    /// The model's fetch request templates (Xcode's "Fetch Requests"), by name.
    public var fetchRequests: [CoreDataFetchRequest]
    /// Where each entity is in `entities`: mapping a model looks entities up by name for each
    /// attribute of each entity, and scanning Photos.app's 61 each time was a tenth of
    /// opening its store.
    private var positions: [String: Int]

    public init(entities: [CoreDataEntity], fetchRequests: [CoreDataFetchRequest] = []) {
        self.entities = entities.sorted { $0.name < $1.name }
        self.fetchRequests = fetchRequests.sorted { $0.name < $1.name }
        positions = Self.positions(of: self.entities)
    }

    private static func positions(of entities: [CoreDataEntity]) -> [String: Int] {
        Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entity named `name`.
    public func entity(named name: String) -> CoreDataEntity? { positions[name].map { entities[$0] } }

    /// The entities whose parent is `name`, sorted by name.
    public func subentities(of name: String) -> [CoreDataEntity] { entities.filter { $0.parent == name } }

    /// `name` and every entity below it, depth first (a table of Core Data's holds them all).
    public func descendants(of name: String) -> [CoreDataEntity] {
        guard let entity = entity(named: name) else { return [] }
        var result = [entity]
        var visited: Set<String> = [name]
        var queue = [name]
        while let next = queue.popLast() {
            for sub in subentities(of: next) where visited.insert(sub.name).inserted {
                result.append(sub)
                queue.append(sub.name)
            }
        }
        return result
    }

    /// The parent chain of `name`, nearest first (stops at a cycle or a missing parent).
    public func ancestors(of name: String) -> [CoreDataEntity] {
        var result: [CoreDataEntity] = []
        var visited: Set<String> = [name]
        var current = entity(named: name)?.parent
        while let parentName = current, visited.insert(parentName).inserted, let parent = entity(named: parentName) {
            result.append(parent)
            current = parent.parent
        }
        return result
    }

    /// The top of `name`'s hierarchy: the entity whose table holds its rows.
    public func rootEntity(of name: String) -> CoreDataEntity? { ancestors(of: name).last ?? entity(named: name) }

    /// The attributes `name` declares and inherits, inherited first.
    public func allAttributes(of name: String) -> [CoreDataAttribute] {
        (ancestors(of: name).reversed() + [entity(named: name)].compactMap { $0 }).flatMap(\.attributes)
    }

    /// The relationships `name` declares and inherits, inherited first.
    public func allRelationships(of name: String) -> [CoreDataRelationship] {
        (ancestors(of: name).reversed() + [entity(named: name)].compactMap { $0 }).flatMap(\.relationships)
    }
}

/// One entity of a Core Data model.
public struct CoreDataEntity: Equatable, Sendable {
    public var name: String
    /// The parent entity's name (`parentEntity`, `NSSuperentity`).
    public var parent: String?
    public var isAbstract: Bool
    /// The class Core Data instantiates (`representedClassName`, `NSClassNameForEntity`).
    public var className: String?
    public var attributes: [CoreDataAttribute]
    public var relationships: [CoreDataRelationship]
    /// Uniqueness constraints, each a list of property names.
    public var uniquenessConstraints: [[String]]
    /// Fetch indexes: name and the property names, in order.
    public var fetchIndexes: [CoreDataFetchIndex]
    public var fetchedProperties: [CoreDataFetchedProperty]
    /// Core Data's renaming identifier (Xcode's `elementID`, an archive's
    /// `NSRenamingIdentifier`): the name this entity had in the model a migration starts
    /// from. Nil when it is the entity's own name, as a compiled model writes it.
    public var renamingIdentifier: String?
    /// The attributes' names in the order the source declares them (Xcode's XML), which
    /// the entity's columns print in; nil where the source keeps none (a compiled model's
    /// attributes are a dictionary). Not part of equality: the same model from its XML
    /// and compiled compares equal.
    public var declaredOrder: [String]?

    /// Every field but `declaredOrder` (a field added here is added here too).
    public static func == (a: CoreDataEntity, b: CoreDataEntity) -> Bool {
        a.name == b.name && a.parent == b.parent && a.isAbstract == b.isAbstract && a.className == b.className
            && a.attributes == b.attributes && a.relationships == b.relationships && a.uniquenessConstraints == b.uniquenessConstraints
            && a.fetchIndexes == b.fetchIndexes && a.fetchedProperties == b.fetchedProperties && a.renamingIdentifier == b.renamingIdentifier
    }

    public init(
        name: String, parent: String? = nil, isAbstract: Bool = false, className: String? = nil,
        attributes: [CoreDataAttribute] = [], relationships: [CoreDataRelationship] = [],
        uniquenessConstraints: [[String]] = [], fetchIndexes: [CoreDataFetchIndex] = [],
        fetchedProperties: [CoreDataFetchedProperty] = []
    ) {
        self.name = name
        self.parent = parent
        self.isAbstract = isAbstract
        self.className = className
        self.attributes = attributes.sorted { $0.name < $1.name }
        self.relationships = relationships.sorted { $0.name < $1.name }
        self.uniquenessConstraints = uniquenessConstraints
        self.fetchIndexes = fetchIndexes
        self.fetchedProperties = fetchedProperties.sorted { $0.name < $1.name }
    }

    public func attribute(named name: String) -> CoreDataAttribute? { attributes.first { $0.name == name } }
    public func relationship(named name: String) -> CoreDataRelationship? { relationships.first { $0.name == name } }
}

/// One attribute of an entity.
public struct CoreDataAttribute: Equatable, Sendable {
    public var name: String
    public var type: CoreDataAttributeType
    public var isOptional: Bool
    /// Kept in memory only: no column in the store.
    public var isTransient: Bool
    /// Computed by the store from `derivationExpression` (iOS 13's derived attributes).
    public var isDerived: Bool
    public var derivationExpression: String?
    /// The default as Xcode writes it (`defaultValueString`): `"NO"`/`"YES"` for booleans,
    /// decimal text for numbers, seconds since 2001 for dates, the text for strings.
    public var defaultValue: String?
    public var isIndexed: Bool
    public var allowsExternalBinaryDataStorage: Bool
    /// For transformable attributes: the `NSValueTransformer` name, if any.
    public var valueTransformerName: String?
    /// Xcode's "Preserve After Deletion": a deleted object's value is kept in the store's
    /// persistent history (a tombstone, `ACHANGE.ZTOMBSTONE<n>`).
    public var preservesValueInHistoryOnDeletion: Bool
    /// A composite's elements (`NSCompositeElements`), in the order declared (the order of
    /// the struct's stored properties), each an attribute and possibly a composite itself.
    /// Empty for every other type.
    public var elements: [CoreDataAttribute]
    /// A composite SwiftData made of an enum (`NSUserInfo` `EnumType`): one with a raw value
    /// has a single element named like the composite, holding the raw value.
    public var isEnum: Bool
    /// The attribute's name in the model a migration starts from (its renaming
    /// identifier); nil when it is its own name.
    public var renamingIdentifier: String?

    public init(
        name: String, type: CoreDataAttributeType, isOptional: Bool = true, isTransient: Bool = false,
        isDerived: Bool = false, derivationExpression: String? = nil, defaultValue: String? = nil,
        isIndexed: Bool = false, allowsExternalBinaryDataStorage: Bool = false, valueTransformerName: String? = nil,
        preservesValueInHistoryOnDeletion: Bool = false, elements: [CoreDataAttribute] = [], isEnum: Bool = false
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isDerived = isDerived
        self.derivationExpression = derivationExpression
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.valueTransformerName = valueTransformerName
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.elements = elements
        self.isEnum = isEnum
    }
}

/// What Core Data does to a relationship's destination when the source is deleted.
public enum CoreDataDeleteRule: String, Equatable, Sendable {
    case noAction = "No Action", nullify = "Nullify", cascade = "Cascade", deny = "Deny"

    /// From `NSDeleteRule` (the `NSDeleteRule` enum's raw values).
    public init?(code: Int) {
        switch code {
        case 0: self = .noAction
        case 1: self = .nullify
        case 2: self = .cascade
        case 3: self = .deny
        default: return nil
        }
    }
}

/// One relationship of an entity.
public struct CoreDataRelationship: Equatable, Sendable {
    public var name: String
    public var destination: String
    public var inverse: String?
    public var isToMany: Bool
    public var isOrdered: Bool
    /// 0 when unbounded.
    public var minCount: Int
    /// 0 when unbounded (to-many); 1 for to-one.
    public var maxCount: Int
    public var deleteRule: CoreDataDeleteRule
    public var isOptional: Bool
    public var isTransient: Bool
    /// The relationship's name in the model a migration starts from (its renaming
    /// identifier); nil when it is its own name.
    public var renamingIdentifier: String?

    public init(
        name: String, destination: String, inverse: String? = nil, isToMany: Bool = false, isOrdered: Bool = false,
        minCount: Int = 0, maxCount: Int? = nil, deleteRule: CoreDataDeleteRule = .nullify,
        isOptional: Bool = true, isTransient: Bool = false
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.minCount = minCount
        self.maxCount = maxCount ?? (isToMany ? 0 : 1)
        self.deleteRule = deleteRule
        self.isOptional = isOptional
        self.isTransient = isTransient
    }
}

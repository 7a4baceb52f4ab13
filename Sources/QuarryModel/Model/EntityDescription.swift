/// One attribute of an entity.
public struct AttributeDescription: Encodable, Equatable, Sendable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var defaultValue: Value?
    public var isIndexed: Bool
    public var isUnique: Bool
    /// The attribute's name in the stored model before this definition (Core Data's
    /// renaming identifier): a migration renames that column, keeping its values.
    public var renamedFrom: String?
    /// The labels of the server's enum type its column is of, in the type's order: a
    /// string attribute whose values are ordered by label, not as text (`EnumLabels`).
    public var enumeration: EnumLabels?

    public init(
        name: String, type: AttributeType, isOptional: Bool = false, defaultValue: Value? = nil,
        isIndexed: Bool = false, isUnique: Bool = false, enumeration: EnumLabels? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
        self.isUnique = isUnique
        self.enumeration = enumeration
    }
}

/// An entity: a kind of object, with its attributes, relationships and place in a
/// hierarchy. Where its rows are kept is the store mapping's business (`EntityStorage`).
public struct EntityDescription: Encodable, Equatable, Sendable {
    /// What a description holds, in one box shared by its copies: a description is copied
    /// wherever an object, a request or a step of a save asks for its entity (a save of
    /// 20,000 new objects copied one six times an object, each copy a dozen retains and
    /// releases), and changed only while a model is made.
    private struct Fields: Equatable, Sendable {
        var name: String
        var attributes: [AttributeDescription]
        var storedRelationships: [RelationshipDescription]
        var rowIndex: [String: Int] = [:]
        var toOneCount = 0
        var relationshipPosition: [String: Int] = [:]
        var foldedKeySet: Set<String> = []
        var compositeNames: Set<String> = []
        var parent: String?
        var isAbstract = false
        var uniqueness: [[String]] = []
        var subentityKeys: Set<String> = []
        var relationshipAliases: [String: String] = [:]
    }
    private var box: SharedBox<Fields>
    /// The fields to change: taken out of the box and boxed again (copied first when
    /// another description shares them).
    private var fields: Fields {
        get { box.value }
        _modify {
            var value = SharedBox.take(&box, leaving: SharedBox(Fields(name: "", attributes: [], storedRelationships: [])))
            defer { box = SharedBox(value) }
            yield &value
        }
    }

    public static func == (a: EntityDescription, b: EntityDescription) -> Bool { a.box === b.box || a.box.value == b.box.value }

    public var name: String {
        get { box.value.name }
        set { fields.name = newValue }
    }
    /// Attributes in the order given (a CSV's column order; by name from Lua), which is
    /// also the order tables print in.
    public private(set) var attributes: [AttributeDescription] {
        get { box.value.attributes }
        _modify { yield &fields.attributes }
    }
    /// Any change rebuilds the lookups below; `appendRelationship` adds one to them
    /// instead, as a table named by thousands of others gains an inverse for each (a
    /// rebuild at each made opening such a file quadratic, issue 61 item 5).
    public var relationships: [RelationshipDescription] {
        get { box.value.storedRelationships }
        set {
            fields.storedRelationships = newValue
            reindex()
        }
        _modify {
            yield &fields.storedRelationships
            reindex()
        }
    }
    private var storedRelationships: [RelationshipDescription] { box.value.storedRelationships }
    /// Where each attribute and to-one relationship sits in a fetched row (after the key),
    /// so reading a key is a lookup, not a scan.
    package var rowIndex: [String: Int] { box.value.rowIndex }
    /// Where each relationship sits in `relationships` (the first of a name), and every
    /// key's name in lower case, so finding a relationship or asking whether a name is
    /// taken is a lookup (`relationship(named:)`, `hasKey`).
    private var relationshipPosition: [String: Int] { box.value.relationshipPosition }
    private var foldedKeySet: Set<String> { box.value.foldedKeySet }
    /// The composites whose elements are attributes keyed by path (a SwiftData store's
    /// `author`, kept as `author.person`, `author.place`): the first part of each dotted
    /// attribute name, so `o.author` finds them without scanning. No other attribute name
    /// has a dot (Core Data's and Quarry's names cannot).
    public var compositeNames: Set<String> { box.value.compositeNames }
    /// The entity this one inherits from (Core Data's super-entity), and whether it makes
    /// objects of its own.
    public var parent: String? {
        get { box.value.parent }
        set { fields.parent = newValue }
    }
    public var isAbstract: Bool {
        get { box.value.isAbstract }
        set { fields.isAbstract = newValue }
    }
    /// Uniqueness constraints, compound ones included (Core Data's `uniquenessConstraints`):
    /// each a list of attribute names whose values together are unique.
    public var uniqueness: [[String]] {
        get { box.value.uniqueness }
        _modify { yield &fields.uniqueness }
    }
    /// Keys only sub-entities declare: a parent's description carries them so predicates,
    /// sorts and sections over it may name them (nil on its own rows), but its own
    /// objects take no value for them, as Core Data's would not. Not stored: it follows
    /// from the hierarchy.
    public var subentityKeys: Set<String> {
        get { box.value.subentityKeys }
        _modify { yield &fields.subentityKeys }
    }
    /// Names a relationship also answers to, by name (relationships under the names
    /// earlier naming rules gave them: `book_set`, `flight_set`): looked up after the keys,
    /// never suggested; `.schema` shows them beside the relationship, and a model Quarry
    /// keeps stores them (`otherNames`), so a relationship `relate()` made answers to them
    /// after a reopening as well.
    public var relationshipAliases: [String: String] {
        get { box.value.relationshipAliases }
        _modify { yield &fields.relationshipAliases }
    }

    /// Replaces the attribute of the same name in its place (its type or optionality
    /// changed: a number column declared to hold times), so rows read as before.
    public mutating func replaceAttribute(_ attribute: AttributeDescription) {
        guard let i = attributes.firstIndex(where: { $0.name == attribute.name }) else { return }
        attributes[i] = attribute
    }

    /// Puts `attributes` in place of the entity's own (another program's table as `entity`
    /// adds, renames or drops its columns), its relationships and the rest kept.
    public mutating func setAttributes(_ attributes: [AttributeDescription]) { self.attributes = attributes }

    /// The key `name` as something an object of this very entity may be given: nil when
    /// the entity has no such attribute, or only its sub-entities have.
    public func writableAttribute(named name: String) -> AttributeDescription? {
        // An empty set is asked first: `contains` hashes the name even when it holds nothing.
        !subentityKeys.isEmpty && subentityKeys.contains(name) ? nil : attribute(named: name)
    }

    public init(name: String, attributes: [AttributeDescription], relationships: [RelationshipDescription] = []) {
        box = SharedBox(Fields(name: name, attributes: attributes, storedRelationships: relationships))
        reindex()
        // Only names with a "." byte are searched by Character: a Character search walks
        // grapheme clusters (5,600 instructions a name, 3.5% of a first open of Photos.app's store).
        fields.compositeNames = Set(
            attributes.compactMap { a in
                a.name.utf8.contains(UInt8(ascii: ".")) ? a.name.firstIndex(of: ".").map { String(a.name[..<$0]) } : nil
            })
    }

    /// The attributes that are elements of composite `name`, at any depth, in order.
    public func compositeElements(of name: String) -> [AttributeDescription] {
        guard compositeNames.contains(name) else { return [] }
        let prefix = name + "."
        return attributes.filter { $0.name.hasPrefix(prefix) }
    }

    private mutating func reindex() {
        Self.reindex(&fields)
    }

    private static func reindex(_ fields: inout Fields) {
        // Sized once: grown a key at a time, each index hashed its keys again at every
        // doubling (Photos.app's 61 entities and 1,550 keys: 5.3M instructions of an open).
        let (attributes, relationships) = (fields.attributes.count, fields.storedRelationships.count)
        fields.rowIndex = Dictionary(minimumCapacity: attributes + relationships)
        fields.toOneCount = 0
        fields.relationshipPosition = Dictionary(minimumCapacity: relationships)
        fields.foldedKeySet = Set(minimumCapacity: attributes + relationships)
        for (i, a) in fields.attributes.enumerated() {
            fields.rowIndex[a.name] = i + 1
            fields.foldedKeySet.insert(a.name.lowercased())
        }
        for (i, r) in fields.storedRelationships.enumerated() { index(r, at: i, in: &fields) }
    }

    private static func index(_ r: RelationshipDescription, at position: Int, in fields: inout Fields) {
        if !r.isToMany {
            fields.toOneCount += 1
            fields.rowIndex[r.name] = fields.attributes.count + fields.toOneCount
        }
        if fields.relationshipPosition[r.name] == nil { fields.relationshipPosition[r.name] = position }
        fields.foldedKeySet.insert(r.name.lowercased())
    }

    /// Adds `relationship` at the end, as `relationships.append` does, the lookups updated
    /// rather than rebuilt.
    public mutating func appendRelationship(_ relationship: RelationshipDescription) {
        fields.storedRelationships.append(relationship)
        Self.index(relationship, at: box.value.storedRelationships.count - 1, in: &fields)
    }

    /// Whether `name` is one of the entity's keys (`keyNames`); `ignoringCase`: in any case.
    public func hasKey(_ name: String, ignoringCase: Bool = false) -> Bool {
        guard !ignoringCase else { return foldedKeySet.contains(name.lowercased()) }
        return relationshipPosition[name] != nil || attribute(named: name) != nil
    }

    /// The relationship named `name` itself (not by another name), found without a scan.
    func ownRelationship(named name: String) -> RelationshipDescription? {
        relationshipPosition[name].map { storedRelationships[$0] }
    }

    private enum CodingKeys: String, CodingKey { case name, attributes, relationships, parent, isAbstract, uniqueness, otherNames }

    /// What is stored in the file's model: the defaults are left out, so entities without
    /// inheritance or constraints are stored as they always were.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(attributes, forKey: .attributes)
        try c.encode(relationships, forKey: .relationships)
        try c.encodeIfPresent(parent, forKey: .parent)
        if isAbstract { try c.encode(isAbstract, forKey: .isAbstract) }
        if !uniqueness.isEmpty { try c.encode(uniqueness, forKey: .uniqueness) }
        if !relationshipAliases.isEmpty { try c.encode(relationshipAliases, forKey: .otherNames) }
    }

    public func attribute(named name: String) -> AttributeDescription? {
        guard let i = rowIndex[name], i <= attributes.count else { return nil }
        return attributes[i - 1]
    }

    public var attributeNames: [String] { attributes.map(\.name) }

    /// Where attribute `name` sits in an object's row: after the key (0), the attributes in
    /// order, then the to-one relationships (the order `EntityStorage.selection` reads).
    public func rowColumn(of name: String) -> Int? {
        attribute(named: name) == nil ? nil : rowIndex[name]
    }

    /// The error for a key this entity does not have, with the closest name as a hint.
    /// (A key only sub-entities have gets no hint: the closest name would be itself.)
    public func unknownKey(_ key: String) -> StoreError {
        .unknownKey(entity: name, key: key, suggestion: closestMatch(to: key, in: keyNames.filter { !subentityKeys.contains($0) }))
    }
}

/// How the file's model writes a default value (`StoredDefinition` reads it back).
extension Value: Encodable {
    private enum Tag: String, Encodable { case null, integer, real, text, textBytes, blob, bool, date }
    private enum Keys: String, CodingKey { case type, value }

    public func encode(to encoder: Encoder) throws {
        // Another process's form (`Value+ExactCoding`), when the coder asks for it.
        if Self.codesExactly(encoder.userInfo) { return try encodeExactly(to: encoder) }
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .null: try c.encode(Tag.null, forKey: .type)
        case .integer(let i):
            try c.encode(Tag.integer, forKey: .type)
            try c.encode(i, forKey: .value)
        case .real(let d):
            try c.encode(Tag.real, forKey: .type)
            try c.encode(d, forKey: .value)
        case .text(let s):
            try c.encode(Tag.text, forKey: .type)
            try c.encode(s, forKey: .value)
        // Its bytes, as a blob's: JSON's strings are UTF-8, and these are not.
        case .textBytes(let b):
            try c.encode(Tag.textBytes, forKey: .type)
            try c.encode(b, forKey: .value)
        case .blob(let b):
            try c.encode(Tag.blob, forKey: .type)
            try c.encode(b, forKey: .value)
        case .bool(let b):
            try c.encode(Tag.bool, forKey: .type)
            try c.encode(b, forKey: .value)
        case .date(let d):
            try c.encode(Tag.date, forKey: .type)
            try c.encode(d, forKey: .value)
        // A default as the number it is, as a decimal attribute's default has always been kept.
        case .decimal(let s):
            try c.encode(Tag.real, forKey: .type)
            try c.encode(Double(s) ?? 0, forKey: .value)
        }
    }
}

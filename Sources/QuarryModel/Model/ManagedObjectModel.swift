/// Core Data's managed object model: the entities a store holds, as objects and queries
/// see them and as they were declared, and the inheritance between them. It says what
/// objects there are and knows nothing of where their rows are (see `StoreMapping`).
public struct ManagedObjectModel {
    /// What a model holds, in one box shared by its copies: a store hands out a copy each
    /// time the context asks for an entity (every `new`, every step of a save), which
    /// retained and released each of these six collections.
    private struct Fields {
        var entitiesByName: [String: EntityDescription] = [:]
        var declaredByName: [String: EntityDescription] = [:]
        var entityOrder: [String] = []
        var position: [String: Int] = [:]
        var links = ModelLinks()
        /// Each effective entity's parent, kept with `entitiesByName` (`setEntity`): the
        /// hierarchy is walked for every object made (`root(of:)`), and reading a parent
        /// from `entitiesByName` copied the whole description each step.
        var parents: [String: String] = [:]
        var definitionIndex: DefinitionIndex?
    }
    private var box = SharedBox(Fields())
    /// The fields to change: taken out of the box and boxed again (copied first when
    /// another model shares them).
    private var fields: Fields {
        get { box.value }
        _modify {
            var value = SharedBox.take(&box, leaving: SharedBox(Fields()))
            defer { box = SharedBox(value) }
            yield &value
        }
    }

    /// Each entity as objects and queries see it (a hierarchy's inherited and sub-entities'
    /// keys included, see `effective`).
    /// Changed only through `setEntity`, which keeps `links` in step.
    package var entitiesByName: [String: EntityDescription] { box.value.entitiesByName }
    /// Quarry's own entities as declared (their own keys only), for entities in a
    /// hierarchy; `entitiesByName` holds them as objects see them. Changed only through
    /// `setDeclared`.
    package var declaredByName: [String: EntityDescription] { box.value.declaredByName }
    /// Entity names in the order they were defined or found (`appendToOrder`).
    package var entityOrder: [String] { box.value.entityOrder }
    /// Each name's place in `entityOrder`.
    private var position: [String: Int] { box.value.position }
    /// Who relates to whom, and who has sub-entities, without scanning every entity.
    private var links: ModelLinks { box.value.links }
    /// Set while a batch of definitions is defined (`ObjectContext.withDefinitionIndex`).
    package var definitionIndex: DefinitionIndex? {
        get { box.value.definitionIndex }
        _modify { yield &fields.definitionIndex }
    }

    public init() {}

    /// Puts `entity` as objects see it under `name` (nil removes it).
    package mutating func setEntity(_ entity: EntityDescription?, named name: String) {
        fields.links.replace(box.value.entitiesByName[name], with: entity, effective: true)
        fields.entitiesByName[name] = entity
        fields.parents[name] = entity?.parent
    }

    /// Puts `entity` as declared under `name` (nil removes it).
    package mutating func setDeclared(_ entity: EntityDescription?, named name: String) {
        fields.links.replace(box.value.declaredByName[name], with: entity, effective: false)
        fields.declaredByName[name] = entity
    }

    /// Adds `name` at the end of the definition order.
    package mutating func appendToOrder(_ name: String) {
        if box.value.position[name] == nil { fields.position[name] = box.value.entityOrder.count }
        fields.entityOrder.append(name)
    }

    /// The entities in `entityOrder` whose description (as objects see it, or as declared)
    /// has a relationship toward `name`, in that order; a superset of those that matter
    /// to a caller that still reads their relationships.
    package func entityNames(relatedTo name: String) -> [String] {
        guard let sources = links.sources(relatedTo: name) else { return [] }
        return sources.compactMap { s in position[s].map { (s, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    public var entities: [EntityDescription] { entityOrder.compactMap { entitiesByName[$0] } }

    public subscript(name: String) -> EntityDescription? { entitiesByName[name] }

    // MARK: Inheritance

    /// The top of `name`'s hierarchy (itself when it has no parent).
    public func root(of name: String) -> String {
        let parents = box.value.parents
        // No set of names seen unless the walk is longer than the entities with parents,
        // which only a cycle makes: then it ends where a name comes round again.
        var current = name
        for _ in 0...parents.count {
            guard let parent = parents[current] else { return current }
            current = parent
        }
        current = name
        var seen: Set<String> = [name]
        while let parent = parents[current], seen.insert(parent).inserted { current = parent }
        return current
    }

    /// Whether `name` is `ancestor` or one of its sub-entities at any depth.
    public func isKind(_ name: String, of ancestor: String) -> Bool {
        let parents = box.value.parents
        var current: String? = name
        // Each name of a hierarchy once at most, a cycle's included.
        for _ in 0...parents.count {
            guard let c = current else { return false }
            if c == ancestor { return true }
            current = parents[c]
        }
        return false
    }

    /// The entities that inherit from `name`, at every depth, in definition order.
    public func subentities(of name: String, includingSelf: Bool = false) -> [EntityDescription] {
        entities.filter { (includingSelf || $0.name != name) && isKind($0.name, of: name) }
    }

    /// Asked whenever an object is made: no array of entities is built for it.
    package func hasSubentities(_ name: String) -> Bool {
        if let definitionIndex { return definitionIndex.hasSubentities(name) }
        return links.hasChildren(name)
    }

    /// Whether `name` has a parent or sub-entities.
    public func isInHierarchy(_ name: String) -> Bool {
        entitiesByName[name]?.parent != nil || hasSubentities(name)
    }

    // MARK: Declarations

    /// An entity as declared: its own attributes and relationships, with its parent.
    public func declaredEntity(_ name: String) -> EntityDescription? { declaredByName[name] ?? entitiesByName[name] }

    /// Every entity as declared, in definition order (what export and Swift write).
    public var declaredEntities: [EntityDescription] { entityOrder.compactMap { declaredEntity($0) } }

    /// The declared entities by name.
    package var declaredMap: [String: EntityDescription] {
        var map = entitiesByName
        for (name, entity) in declaredByName { map[name] = entity }
        return map
    }

    /// The top of `name`'s hierarchy in `declared` (stops at a cycle or a missing parent).
    package static func root(of name: String, in declared: [String: EntityDescription]) -> String {
        var current = name
        var seen: Set<String> = [name]
        while let parent = declared[current]?.parent, declared[parent] != nil, seen.insert(parent).inserted { current = parent }
        return current
    }

    /// The ancestors of `name` in `declared`, root first.
    package static func ancestors(of name: String, in declared: [String: EntityDescription]) -> [EntityDescription] {
        var result: [EntityDescription] = []
        var seen: Set<String> = [name]
        var next = declared[name]?.parent
        while let parent = next, seen.insert(parent).inserted, let entity = declared[parent] {
            result.insert(entity, at: 0)
            next = entity.parent
        }
        return result
    }

    /// `name`'s sub-entities at every depth, in `order`.
    package static func below(_ name: String, in declared: [String: EntityDescription], order: [String]) -> [EntityDescription] {
        order.compactMap { declared[$0] }.filter { $0.name != name && ancestors(of: $0.name, in: declared).contains { $0.name == name } }
    }

    /// `name` as objects and queries see it: its inherited attributes and relationships
    /// first, then its own, then its sub-entities' (optional, without defaults: nil on rows
    /// that lack them), so that a predicate over a parent may name any of them. A root's is
    /// also its table's columns.
    package static func effective(_ name: String, in declared: [String: EntityDescription], order: [String]) -> EntityDescription? {
        guard let own = declared[name] else { return nil }
        let above = ancestors(of: name, in: declared)
        let under = below(name, in: declared, order: order)
        if above.isEmpty && under.isEmpty { return own }
        var seen: Set<String> = []
        var attributes: [AttributeDescription] = []
        var relationships: [RelationshipDescription] = []
        for entity in above + [own] {
            for a in entity.attributes where seen.insert(a.name.lowercased()).inserted { attributes.append(a) }
            for r in entity.relationships where seen.insert(r.name.lowercased()).inserted { relationships.append(r) }
        }
        var subentityKeys: Set<String> = []
        for entity in under {
            for var a in entity.attributes where seen.insert(a.name.lowercased()).inserted {
                // A rename stays: the root's table holds the column (cleared, the column
                // was dropped and another made, and the values went; found by review).
                a.isOptional = true
                a.defaultValue = nil
                attributes.append(a)
                subentityKeys.insert(a.name)
            }
            for r in entity.relationships where seen.insert(r.name.lowercased()).inserted {
                relationships.append(r)
                subentityKeys.insert(r.name)
            }
        }
        var result = EntityDescription(name: name, attributes: attributes, relationships: relationships)
        result.subentityKeys = subentityKeys
        result.parent = own.parent
        result.isAbstract = own.isAbstract
        result.uniqueness = own.uniqueness
        return result
    }
}

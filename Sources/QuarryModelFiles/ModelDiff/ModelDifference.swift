import QuarryModel
/// What changes between two Core Data models, as a migration from `old` to `new` would
/// meet it: entities, attributes and relationships added, removed or renamed (matched by
/// Core Data's renaming identifiers where the new model has them, else by name), and each
/// kept one's type, optionality, default, kind, inverse, destination and delete rule.
/// Every change says whether Core Data's lightweight migration infers it
/// (`NSMappingModel.inferredMappingModel`), and when not, why: the rules are Apple's
/// ("Lightweight Migration" in the Core Data Model Versioning and Data Migration guide).
///
/// Models, not stores: a store's model is read into a `CoreDataModel` first (its model
/// cache, or Quarry's entities converted), so this compares any two stores' models alike.
public struct ModelDifference: Equatable, Sendable {
    public var changes: [ModelChange]

    public var isEmpty: Bool { changes.isEmpty }

    public init(from old: CoreDataModel, to new: CoreDataModel) {
        var changes: [ModelChange] = []
        let matches = Self.matchEntities(old, new)
        let matchedOld = Set(matches.map(\.old.name))
        let matchedNew = Set(matches.map(\.new.name))
        for entity in old.entities where !matchedOld.contains(entity.name) {
            changes.append(
                ModelChange(
                    .removed, entity: entity.name, old: Self.describe(entity), inferable: true,
                    note: "its rows are dropped"))
        }
        for entity in new.entities where !matchedNew.contains(entity.name) {
            changes.append(ModelChange(.added, entity: entity.name, new: Self.describe(entity), inferable: true))
        }
        for (was, now) in matches {
            if was.name != now.name {
                changes.append(
                    ModelChange(
                        .renamed, entity: now.name, what: "name", old: was.name, new: now.name, inferable: true,
                        note: "renaming identifier \(now.renamingIdentifier ?? was.name)"))
            }
            changes += Self.entityChanges(was, now)
            changes += Self.attributeChanges(was, now)
            changes += Self.relationshipChanges(was, now, old: old, new: new)
        }
        self.changes = changes.sorted { ($0.entity, $0.property ?? "", $0.order) < ($1.entity, $1.property ?? "", $1.order) }
    }

    /// The changes Core Data's lightweight migration cannot infer.
    public var notInferable: [ModelChange] { changes.filter { !$0.inferable } }

    // MARK: Matching

    /// Entities of both models that are one: the new one's renaming identifier names the
    /// old one, else the names are equal (an old entity is taken once).
    static func matchEntities(_ old: CoreDataModel, _ new: CoreDataModel) -> [(old: CoreDataEntity, new: CoreDataEntity)] {
        pairs(old.entities, new.entities, name: \.name, renamed: \.renamingIdentifier)
    }

    /// Pairs of `old` and `new` elements: by the new one's renaming identifier first, then
    /// by name among those left.
    static func pairs<Element>(
        _ old: [Element], _ new: [Element], name: KeyPath<Element, String>, renamed: KeyPath<Element, String?>
    ) -> [(old: Element, new: Element)] {
        var byName: [String: Int] = [:]
        for (i, element) in old.enumerated() where byName[element[keyPath: name]] == nil { byName[element[keyPath: name]] = i }
        var taken = Set<Int>()
        var result: [(old: Element, new: Element)] = []
        var left: [Element] = []
        for element in new {
            if let id = element[keyPath: renamed], let i = byName[id], taken.insert(i).inserted {
                result.append((old[i], element))
            } else {
                left.append(element)
            }
        }
        for element in left {
            if let i = byName[element[keyPath: name]], taken.insert(i).inserted { result.append((old[i], element)) }
        }
        return result
    }

    // MARK: Entities

    static func entityChanges(_ was: CoreDataEntity, _ now: CoreDataEntity) -> [ModelChange] {
        var changes: [ModelChange] = []
        if was.parent != now.parent {
            changes.append(
                ModelChange(
                    .changed, entity: now.name, what: "parent", old: was.parent ?? "none", new: now.parent ?? "none",
                    inferable: false, note: "an entity moved to another hierarchy changes the table its rows are in"))
        }
        if was.isAbstract != now.isAbstract {
            changes.append(
                ModelChange(
                    .changed, entity: now.name, what: "abstract", old: String(was.isAbstract), new: String(now.isAbstract),
                    inferable: !now.isAbstract, note: now.isAbstract ? "an entity made abstract cannot keep its own rows" : nil))
        }
        let oldUnique = Set(was.uniquenessConstraints.map { $0.joined(separator: ", ") })
        let newUnique = Set(now.uniquenessConstraints.map { $0.joined(separator: ", ") })
        if oldUnique != newUnique {
            changes.append(
                ModelChange(
                    .changed, entity: now.name, what: "uniqueness", old: oldUnique.sorted().joined(separator: "; "),
                    new: newUnique.sorted().joined(separator: "; "), inferable: true,
                    note: newUnique.isSubset(of: oldUnique) ? nil : "rows that break a new constraint fail the migration"))
        }
        return changes
    }

    // MARK: Attributes

    static func attributeChanges(_ was: CoreDataEntity, _ now: CoreDataEntity) -> [ModelChange] {
        var changes: [ModelChange] = []
        let matches = pairs(was.attributes, now.attributes, name: \.name, renamed: \.renamingIdentifier)
        let matchedOld = Set(matches.map(\.old.name))
        let matchedNew = Set(matches.map(\.new.name))
        for attribute in was.attributes where !matchedOld.contains(attribute.name) {
            changes.append(
                ModelChange(
                    .removed, entity: now.name, property: attribute.name, old: describe(attribute), inferable: true,
                    note: attribute.isTransient ? "transient: no column" : "its values are dropped"))
        }
        for attribute in now.attributes where !matchedNew.contains(attribute.name) {
            // A required attribute needs a value for the rows already there.
            let needsDefault = !attribute.isOptional && !attribute.isTransient && attribute.defaultValue == nil
            changes.append(
                ModelChange(
                    .added, entity: now.name, property: attribute.name, new: describe(attribute), inferable: !needsDefault,
                    note: needsDefault
                        ? "a required attribute without a default value has no value for the rows already there"
                        : attribute.isTransient ? "transient: no column" : nil))
        }
        for (a, b) in matches {
            if a.name != b.name {
                changes.append(
                    ModelChange(
                        .renamed, entity: now.name, property: b.name, what: "name", old: a.name, new: b.name, inferable: true,
                        note: "renaming identifier \(b.renamingIdentifier ?? a.name)"))
            }
            if a.isTransient != b.isTransient {
                changes.append(
                    ModelChange(
                        .changed, entity: now.name, property: b.name, what: "transient", old: String(a.isTransient),
                        new: String(b.isTransient), inferable: b.isTransient || b.isOptional || b.defaultValue != nil,
                        note: b.isTransient ? "its column and values are dropped" : "a new column, empty for the rows already there"))
            }
            if a.type != b.type {
                changes.append(
                    ModelChange(
                        .changed, entity: now.name, property: b.name, what: "type", old: a.type.rawValue, new: b.type.rawValue,
                        inferable: false, note: "lightweight migration does not convert an attribute's values to another type"))
            }
            if a.isOptional != b.isOptional {
                let needsDefault = !b.isOptional && b.defaultValue == nil && !b.isTransient
                changes.append(
                    ModelChange(
                        .changed, entity: now.name, property: b.name, what: "optional", old: String(a.isOptional),
                        new: String(b.isOptional), inferable: !needsDefault,
                        note: needsDefault ? "made required without a default value: rows holding nil fail the migration" : nil))
            }
            if !sameDefault(a.defaultValue, b.defaultValue, type: b.type) {
                changes.append(
                    ModelChange(
                        .changed, entity: now.name, property: b.name, what: "default", old: a.defaultValue ?? "none",
                        new: b.defaultValue ?? "none", inferable: true, note: "rows already there keep their values"))
            }
            if a.valueTransformerName != b.valueTransformerName, a.type == b.type, a.type == .transformable {
                changes.append(
                    ModelChange(
                        .changed, entity: now.name, property: b.name, what: "transformer", old: a.valueTransformerName ?? "none",
                        new: b.valueTransformerName ?? "none", inferable: true,
                        note: "the stored bytes are kept as they are; the new transformer must read them"))
            }
        }
        return changes
    }

    /// Defaults as Xcode writes them: numbers compare by value (`0` and `0.0`), text as text.
    static func sameDefault(_ a: String?, _ b: String?, type: CoreDataAttributeType) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal, .date:
            if let x = Double(a), let y = Double(b) { return x == y }
        case .boolean:
            let truth = ["YES": true, "NO": false, "1": true, "0": false, "true": true, "false": false]
            if let x = truth[a], let y = truth[b] { return x == y }
        default: break
        }
        return a == b
    }

    // MARK: Relationships

    static func relationshipChanges(
        _ was: CoreDataEntity, _ now: CoreDataEntity, old: CoreDataModel, new: CoreDataModel
    ) -> [ModelChange] {
        var changes: [ModelChange] = []
        let matches = pairs(was.relationships, now.relationships, name: \.name, renamed: \.renamingIdentifier)
        let matchedOld = Set(matches.map(\.old.name))
        let matchedNew = Set(matches.map(\.new.name))
        for relationship in was.relationships where !matchedOld.contains(relationship.name) {
            changes.append(
                ModelChange(
                    .removed, entity: now.name, property: relationship.name, old: describe(relationship), inferable: true,
                    note: "its links are dropped"))
        }
        for relationship in now.relationships where !matchedNew.contains(relationship.name) {
            let required = !relationship.isOptional && !relationship.isTransient
            changes.append(
                ModelChange(
                    .added, entity: now.name, property: relationship.name, new: describe(relationship), inferable: !required,
                    note: required ? "a required relationship has no target for the rows already there" : nil))
        }
        // The old model's entity names as the new model calls them, so a destination that
        // was renamed is the same destination.
        let renamedEntities = Dictionary(
            matchEntities(old, new).map { ($0.old.name, $0.new.name) }, uniquingKeysWith: { first, _ in first })
        for (a, b) in matches {
            if a.name != b.name {
                changes.append(
                    ModelChange(
                        .renamed, entity: now.name, property: b.name, what: "name", old: a.name, new: b.name, inferable: true,
                        note: "renaming identifier \(b.renamingIdentifier ?? a.name)"))
            }
            if (renamedEntities[a.destination] ?? a.destination) != b.destination {
                changes.append(
                    ModelChange(
                        .changed, entity: now.name, property: b.name, what: "destination", old: a.destination, new: b.destination,
                        inferable: false, note: "links cannot be carried to another entity"))
            }
            if kind(a) != kind(b) {
                // To-one → to-many and ordered ↔ unordered are inferred; to-many → to-one is not.
                let narrows = a.isToMany && !b.isToMany
                changes.append(
                    ModelChange(
                        .changed, entity: now.name, property: b.name, what: "kind", old: kind(a), new: kind(b), inferable: !narrows,
                        note: narrows ? "a to-many made to-one would have to drop members" : nil))
            }
            let oldInverse = a.inverse.flatMap { inverseName($0, of: a.destination, in: old, as: new) }
            if oldInverse != b.inverse {
                changes.append(
                    ModelChange(
                        .changed, entity: now.name, property: b.name, what: "inverse", old: a.inverse ?? "none", new: b.inverse ?? "none",
                        inferable: false, note: "links are kept by the pair of relationships that holds them"))
            }
            if a.deleteRule != b.deleteRule {
                changes.append(
                    ModelChange(
                        .changed, entity: now.name, property: b.name, what: "delete rule", old: a.deleteRule.rawValue,
                        new: b.deleteRule.rawValue, inferable: true))
            }
            if a.isOptional != b.isOptional, !b.isToMany {
                changes.append(
                    ModelChange(
                        .changed, entity: now.name, property: b.name, what: "optional", old: String(a.isOptional),
                        new: String(b.isOptional), inferable: b.isOptional,
                        note: b.isOptional ? nil : "made required: rows without a target fail the migration"))
            }
        }
        return changes
    }

    /// The inverse `name` of a relationship to `destination` in `old`, as `new` names it
    /// (renamed by the new model's renaming identifier), so a renamed inverse is the same.
    static func inverseName(_ name: String, of destination: String, in old: CoreDataModel, as new: CoreDataModel) -> String {
        guard let was = old.entity(named: destination),
            let now = matchEntities(old, new).first(where: { $0.old.name == was.name })?.new
        else { return name }
        let matched = pairs(was.relationships, now.relationships, name: \.name, renamed: \.renamingIdentifier)
        return matched.first { $0.old.name == name }?.new.name ?? name
    }

    static func kind(_ r: CoreDataRelationship) -> String { r.isToMany ? (r.isOrdered ? "ordered to-many" : "to-many") : "to-one" }

    // MARK: Descriptions

    static func describe(_ entity: CoreDataEntity) -> String {
        var parts = ["\(entity.attributes.count) attributes, \(entity.relationships.count) relationships"]
        if let parent = entity.parent { parts.insert("parent \(parent)", at: 0) }
        if entity.isAbstract { parts.insert("abstract", at: 0) }
        return parts.joined(separator: ", ")
    }

    static func describe(_ attribute: CoreDataAttribute) -> String {
        var text = attribute.type.rawValue + (attribute.isOptional ? "?" : "")
        if let value = attribute.defaultValue { text += " = \(value)" }
        if attribute.isTransient { text += " (transient)" }
        return text
    }

    static func describe(_ relationship: CoreDataRelationship) -> String {
        "\(kind(relationship)) \(relationship.destination)" + (relationship.inverse.map { " (inverse \($0))" } ?? "")
    }
}

/// One difference between two models: what changed (`kind`), where (an entity, and a
/// property of it unless the entity itself changed), which aspect (`what`: "type",
/// "optional", ...) from which value to which, and whether lightweight migration infers
/// it, with a note saying why not or what happens to the data.
public struct ModelChange: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case added, removed, renamed, changed

        /// The mark a row of this kind prints with, as `watch` marks rows.
        public var mark: String {
            switch self {
            case .added: return "+"
            case .removed: return "-"
            case .renamed, .changed: return "~"
            }
        }
    }

    public var kind: Kind
    public var entity: String
    public var property: String?
    public var what: String?
    public var old: String?
    public var new: String?
    public var inferable: Bool
    public var note: String?

    public init(
        _ kind: Kind, entity: String, property: String? = nil, what: String? = nil, old: String? = nil, new: String? = nil,
        inferable: Bool, note: String? = nil
    ) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.what = what
        self.old = old
        self.new = new
        self.inferable = inferable
        self.note = note
    }

    /// Removals first, then additions, renames and changes, so each entity reads in order.
    var order: Int {
        switch kind {
        case .removed: return 0
        case .added: return 1
        case .renamed: return 2
        case .changed: return 3
        }
    }
}

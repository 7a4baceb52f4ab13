import QuarryModel
/// The Swift property names of a model's attributes and relationships, the same in every
/// piece of Swift Quarry writes for it (its classes, `#Predicate`s, sorts, requests).
///
/// A name that is a Swift identifier is itself (a keyword in backticks, as Swift escapes
/// one). Any other (`first name`, `$0`, `cafés!`) becomes one: each run of characters an
/// identifier cannot hold is `_`, and a leading digit gets a `_` before it, so it parses
/// with any Swift and needs no raw identifier (which `_name`, a property wrapper's storage,
/// cannot be written as). The name the store keeps then goes beside it where Swift needs
/// it: `@Attribute(originalName:)`, `@objc(...)`. Two names of one class made the same
/// (`first name` beside `first_name`) are told apart by a number (`first_name_2`): every
/// class of a hierarchy shares one set of names, as its properties are inherited. Class
/// names are made so too: two entities whose names Swift cannot spell and that would make
/// one class (`order items`, `order_items`) are numbered.
public struct SwiftNames: Sendable {
    /// Per hierarchy (its root entity's name): each name to its property name.
    private let byRoot: [String: [String: String]]
    private let roots: [String: String]
    /// Each entity's class name.
    private let types: [String: String]
    /// Per hierarchy: the attributes the model declares as Float, which Quarry keeps as
    /// doubles; the classes declare them `Float`, and so must what is compared with them.
    private let floats: [String: Set<String>]

    public init(model: CoreDataModel) {
        var members: [String: [CoreDataEntity]] = [:]
        var roots: [String: String] = [:]
        for entity in model.entities {
            let root = model.rootEntity(of: entity.name)?.name ?? entity.name
            roots[entity.name] = root
            members[root, default: []].append(entity)
        }
        var floats: [String: Set<String>] = [:]
        for (root, entities) in members {
            floats[root] = Set(entities.flatMap { $0.attributes.filter { $0.type == .float }.map(\.name) })
        }
        self.floats = floats
        var byRoot: [String: [String: String]] = [:]
        for (root, entities) in members {
            var names: [String] = []
            var seen = Set<String>()
            for entity in entities {
                for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) where seen.insert(name).inserted { names.append(name) }
            }
            byRoot[root] = Self.assign(names)
        }
        self.byRoot = byRoot
        self.roots = roots
        // Class names: one Swift spells keeps itself (as before, even when two entities
        // share a class); the others take theirs or the first numbered one free.
        var types: [String: String] = [:]
        var used = Set<String>()
        for entity in model.entities where SwiftModelSource.isIdentifier(SwiftModelSource.typeName(entity)) {
            types[entity.name] = SwiftModelSource.className(entity)
            used.insert(SwiftModelSource.className(entity))
        }
        for entity in model.entities.sorted(by: { $0.name < $1.name }) where types[entity.name] == nil {
            let base = SwiftModelSource.className(entity)
            var written = base
            var n = 2
            while used.contains(written) {
                written = base + "_\(n)"
                n += 1
            }
            types[entity.name] = written
            used.insert(written)
        }
        self.types = types
    }

    /// The Swift class of `entity`; an entity the model does not hold is made an
    /// identifier on its own.
    public func type(of entity: String) -> String {
        types[entity] ?? SwiftModelSource.identifier(entity)
    }

    /// Names that are identifiers keep themselves; the others, in order, take theirs or the
    /// first numbered one no other name holds.
    package static func assign(_ names: [String]) -> [String: String] {
        var result: [String: String] = [:]
        var used = Set<String>()
        for name in names where SwiftModelSource.isIdentifier(name) {
            let written = SwiftModelSource.identifier(name)
            result[name] = written
            used.insert(written)
        }
        for name in names.sorted() where result[name] == nil {
            let base = SwiftModelSource.identifier(name)
            var written = base
            var n = 2
            while used.contains(written) {
                written = base + "_\(n)"
                n += 1
            }
            result[name] = written
            used.insert(written)
        }
        return result
    }

    /// The property of `name` in the class of `entity`; a name the model does not hold is
    /// made an identifier on its own.
    public func property(_ name: String, of entity: String) -> String {
        roots[entity].flatMap { byRoot[$0]?[name] } ?? SwiftModelSource.identifier(name)
    }

    /// Whether the model declares `entity`'s attribute `name` as Float (`Float` in Swift).
    public func isFloat(_ name: String, of entity: String) -> Bool {
        roots[entity].flatMap { floats[$0]?.contains(name) } ?? false
    }

    /// The name the store keeps for `name`'s property, when the property is not spelled
    /// so: what `@Attribute(originalName:)` and `@objc(...)` say. Nil when they are the same.
    public func original(_ name: String, of entity: String) -> String? {
        let written = property(name, of: entity)
        return written == name || written == "`\(name)`" ? nil : name
    }
}

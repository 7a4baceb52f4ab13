/// What `define` asks of every other entity, by name, while a batch of definitions is
/// defined one after another (`define(model:from:)`, whose models may hold thousands of
/// entities): which entities inherit from a name, and which declare a relationship to
/// it. Without it each `define` scanned every entity already defined for both, so a model
/// of N entities took time in N² (4,000 entities: 28.7 s). Built once at the start of the
/// batch from the declarations, kept in step by `didDefine` (the one place a `define`
/// changes them), and dropped at its end, so nothing outside a batch can see it stale.
package final class DefinitionIndex {
    private var subentities: [String: Set<String>] = [:]
    private var incoming: [String: Set<String>] = [:]
    /// Each entity's place in definition order (`managedObjectModel.entityOrder`).
    private var position: [String: Int] = [:]
    /// Other programs' tables that take a Quarry entity's inverses, in definition order:
    /// found once for the batch by the store's layer (which knows which they are), since
    /// asking each table at every `define` was quadratic again (4,000 entities: 20.5 s).
    /// A batch of definitions makes Quarry's tables only, so the list can only shrink;
    /// whoever reads it still asks each table it names.
    package var tablesTakingInverses: [String]?

    package init(_ declared: [String: EntityDescription], order: [String]) {
        for (i, name) in order.enumerated() { position[name] = i }
        for entity in declared.values { add(entity) }
    }

    /// `names` in definition order.
    func inOrder(_ names: Set<String>) -> [String] {
        names.sorted { (position[$0] ?? Int.max, $0) < (position[$1] ?? Int.max, $1) }
    }

    /// Whether some entity names `name` as its parent.
    package func hasSubentities(_ name: String) -> Bool { !(subentities[name]?.isEmpty ?? true) }

    /// The entities that declare a relationship whose destination is `name`.
    package func entities(relatedTo name: String) -> Set<String> { incoming[name] ?? [] }

    /// `old` (the previous declaration, if any) became `new`.
    package func replace(_ old: EntityDescription?, with new: EntityDescription) {
        if let old { remove(old) }
        if position[new.name] == nil { position[new.name] = position.count }
        add(new)
    }

    private func add(_ entity: EntityDescription) {
        if let parent = entity.parent { subentities[parent, default: []].insert(entity.name) }
        for r in entity.relationships { incoming[r.destination, default: []].insert(entity.name) }
    }

    private func remove(_ entity: EntityDescription) {
        if let parent = entity.parent { subentities[parent]?.remove(entity.name) }
        for r in entity.relationships { incoming[r.destination]?.remove(entity.name) }
    }
}

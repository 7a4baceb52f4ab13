/// Which entities name which: for each entity, the entities with a relationship toward it
/// and those that name it as their parent, kept up to date as `ManagedObjectModel`'s maps
/// change (`setEntity`, `setDeclared`). Defining an entity asks who relates to it
/// (`withInversesDeclaredElsewhere`, other programs' tables' stale inverses) and whether
/// it has sub-entities; scanning every entity for that at each `entity` call made a script
/// of N calls quadratic (3,000 entities: over a minute in a debug build). Counts, not sets:
/// an entity is counted once for its effective description and once for its declared one,
/// and stays related while either names the other.
struct ModelLinks {
    private var incoming: [String: [String: Int]] = [:]
    private var children: [String: [String: Int]] = [:]

    /// The entities with a relationship toward `name`, in no order; nil when there are none.
    func sources(relatedTo name: String) -> Dictionary<String, Int>.Keys? { incoming[name]?.keys }

    /// Whether some effective description names `name` as its parent.
    func hasChildren(_ name: String) -> Bool { !(children[name]?.isEmpty ?? true) }

    /// `old` was replaced by `new` in one of the maps; `effective` when the map is
    /// `entitiesByName`, which alone says what is a sub-entity (as `hasSubentities` reads it).
    mutating func replace(_ old: EntityDescription?, with new: EntityDescription?, effective: Bool) {
        let before = old?.relationships ?? []
        let after = new?.relationships ?? []
        // Most replacements keep the relationships or add one at the end (a foreign file's
        // table gains an inverse for each table naming it): only what follows the common
        // start is counted again, or a table named by N others cost N² here.
        var same = 0
        if old?.name == new?.name {
            while same < Swift.min(before.count, after.count), before[same].destination == after[same].destination { same += 1 }
        }
        if let old {
            for r in before[same...] { Self.add(-1, from: old.name, to: r.destination, in: &incoming) }
            if effective, let parent = old.parent { Self.add(-1, from: old.name, to: parent, in: &children) }
        }
        if let new {
            for r in after[same...] { Self.add(1, from: new.name, to: r.destination, in: &incoming) }
            if effective, let parent = new.parent { Self.add(1, from: new.name, to: parent, in: &children) }
        }
    }

    private static func add(_ step: Int, from source: String, to target: String, in map: inout [String: [String: Int]]) {
        let n = (map[target]?[source] ?? 0) + step
        if n > 0 {
            map[target, default: [:]][source] = n
        } else {
            map[target]?[source] = nil
            if map[target]?.isEmpty == true { map[target] = nil }
        }
    }
}

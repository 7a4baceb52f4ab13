import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// The model's hierarchy as mapping asks for it, each answer worked out once. Mapping asks
/// for an entity's ancestors and descendants for every property of every entity, and
/// `CoreDataModel` walks the entity list for each descendant level: for Photos.app's 61
/// entities that walking was a third of opening its store. The answers are the model's
/// own (`ancestors(of:)`, `descendants(of:)`), in its order.
final class ModelLookups {
    let model: CoreDataModel
    private var ancestorsByName: [String: [CoreDataEntity]] = [:]
    private var descendantsByName: [String: [CoreDataEntity]] = [:]

    init(_ model: CoreDataModel) {
        self.model = model
    }

    /// `model.ancestors(of:)`: the parent chain, nearest first.
    func ancestors(of name: String) -> [CoreDataEntity] {
        if let known = ancestorsByName[name] { return known }
        let found = model.ancestors(of: name)
        ancestorsByName[name] = found
        return found
    }

    /// `model.descendants(of:)`: `name` and every entity below it, depth first.
    func descendants(of name: String) -> [CoreDataEntity] {
        if let known = descendantsByName[name] { return known }
        let found = model.descendants(of: name)
        descendantsByName[name] = found
        return found
    }

    /// `model.rootEntity(of:)`'s name.
    func rootName(of name: String) -> String? { ancestors(of: name).last?.name ?? model.entity(named: name)?.name }

    /// `model.allAttributes(of:)`: inherited first.
    func allAttributes(of name: String) -> [CoreDataAttribute] {
        (ancestors(of: name).reversed() + [model.entity(named: name)].compactMap { $0 }).flatMap(\.attributes)
    }

    /// `model.allRelationships(of:)`: inherited first.
    func allRelationships(of name: String) -> [CoreDataRelationship] {
        (ancestors(of: name).reversed() + [model.entity(named: name)].compactMap { $0 }).flatMap(\.relationships)
    }
}

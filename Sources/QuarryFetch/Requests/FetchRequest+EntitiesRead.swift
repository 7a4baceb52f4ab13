import QuarryModel
import QuarryPredicates
import QuarryStore

/// The entities a request reads: its own, and each one that a key path of its predicate,
/// sort or section key, or of the further `keys` a caller reads with it (a dictionary
/// request's properties and groups, a chart's keys), reaches through relationships. A read
/// of the saved rows (grouped rows, summaries, charts) leaves out the unsaved changes to
/// every one of them, not only to the entity fetched.
extension FetchRequest {
    public func entitiesRead(keys: [String] = [], in context: ObjectContext) -> [String] {
        var paths = predicate?.keyPaths.map(\.components) ?? []
        for text in sortDescriptors.map(\.key) + [sectionKey].compactMap({ $0 }) + keys {
            var body = ResultColumn.split(text).body
            if body.hasPrefix("#") { body.removeFirst() }
            if let expression = try? PredicateParser.parseExpression(body) {
                paths += expression.pathsRead.map(\.components)
            } else {
                paths.append(body.split(separator: ".").map(String.init))
            }
        }
        var names = [entityName]
        for path in paths {
            var current = try? context.entity(named: entityName)
            for component in path {
                guard let entity = current, let relationship = entity.relationships.first(where: { $0.name == component }) else { break }
                if !names.contains(relationship.destination) { names.append(relationship.destination) }
                current = try? context.entity(named: relationship.destination)
            }
        }
        return names
    }
}

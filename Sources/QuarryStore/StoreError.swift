/// What can go wrong in the store, as data; `description` renders the one-line message.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case unknownEntity(name: String, suggestion: String?)
    case unknownKey(entity: String, key: String, suggestion: String?)
    case typeMismatch(entity: String, key: String, expected: String, given: String)
    case validation(message: String)
    case invalidSchema(entity: String, reason: String)
    case migrationRefused(entity: String, reason: String)
    case objectDeleted(objectID: String)
    case readOnly(operation: String)
    case importFailed(path: String, line: Int?, reason: String)
    case database(message: String)

    public var description: String {
        switch self {
        case let .unknownEntity(name, suggestion):
            return "unknown entity '\(name)'" + hint(suggestion)
        case let .unknownKey(entity, key, suggestion):
            return "unknown key '\(key)' on entity \(entity)" + hint(suggestion)
        case let .typeMismatch(entity, key, expected, given):
            return "\(entity).\(key) expects \(expected), got \(given)"
        case let .validation(message):
            return message
        case let .invalidSchema(entity, reason):
            return "entity \(entity): \(reason)"
        case let .migrationRefused(entity, reason):
            return "entity \(entity): cannot migrate: \(reason)"
        case let .objectDeleted(objectID):
            return "\(objectID) has been deleted"
        case let .readOnly(operation):
            return "\(operation): the store is read-only"
        case let .importFailed(path, line, reason):
            return "import: \(path)\(line.map { ":\($0)" } ?? ""): \(reason)"
        case let .database(message):
            return message
        }
    }

    private func hint(_ suggestion: String?) -> String {
        suggestion.map { " (did you mean '\($0)'?)" } ?? ""
    }
}

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
    /// A view of a file Quarry did not create: read, never written.
    case viewIsReadOnly(entity: String)
    case importFailed(path: String, line: Int?, reason: String)
    /// A file an operation (export) could not open or write; the file is as it was.
    case cannotWrite(operation: String, path: String, reason: String)
    /// Objects another connection changed (keys) or deleted since this context read them.
    case conflict([ConflictedObject])
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
        case let .viewIsReadOnly(entity):
            return "\(entity) is a view: its rows cannot be changed (change the tables it reads)"
        case let .importFailed(path, line, reason):
            return "import: \(path)\(line.map { ":\($0)" } ?? ""): \(reason)"
        case let .cannotWrite(operation, path, reason):
            return "\(operation): cannot write \(path): \(reason)"
        case let .conflict(objects):
            let described = objects.prefix(5).map { o in
                o.deleted ? "\(o.objectID) was deleted" : "\(o.objectID) (\(o.keys.joined(separator: ", ")))"
            }.joined(separator: "; ") + (objects.count > 5 ? "; and \(objects.count - 5) more" : "")
            return "save: conflict: another process changed \(described) since they were read; nothing was written (save{ merge = \"store\" } keeps theirs, save{ merge = \"mine\" } keeps yours)"
        case let .database(message):
            return message
        }
    }

    private func hint(_ suggestion: String?) -> String {
        suggestion.map { " (did you mean '\($0)'?)" } ?? ""
    }
}

/// One object of a save conflict.
public struct ConflictedObject: Equatable, Sendable {
    public var objectID: String
    public var keys: [String]
    public var deleted: Bool
    public init(objectID: String, keys: [String], deleted: Bool) { self.objectID = objectID; self.keys = keys; self.deleted = deleted }
}

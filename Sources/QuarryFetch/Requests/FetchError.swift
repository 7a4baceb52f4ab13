import QuarryModel
import QuarryStore

/// Errors of requests: the option at fault (`sort`, `section`, `properties`, `prefetch`)
/// is the operation the line starts with.
public enum FetchError: QuarryError, Equatable {
    case unknownSortKey(key: String, entity: String, suggestion: String?)
    /// A key named by `option` that `entity` has no attribute of.
    case unknownKey(option: String, key: String, entity: String, suggestion: String?)
    /// A relationship named where `option` takes a key of values (sort, section): one of
    /// its keys is, as `example` (`airline.name`), or nil when there is none to show.
    case relationshipKey(option: String, key: String, entity: String, example: String?)
    /// A name given to `option` that is not one of `entity`'s relationships.
    case notARelationship(option: String, name: String, entity: String, suggestion: String?)
    /// Any other value `option` cannot take.
    case badOption(option: String, reason: String)
    /// A table or column a statement named that the store has none of (`message` the
    /// engine's words), with the one meant.
    case unknownName(option: String, message: String, suggestion: String)
    case invalid(String)

    public var operation: String? {
        switch self {
        case .unknownSortKey: return "sort"
        case .unknownKey(let option, _, _, _), .notARelationship(let option, _, _, _), .badOption(let option, _),
            .relationshipKey(let option, _, _, _), .unknownName(let option, _, _):
            return option
        case .invalid: return nil
        }
    }

    public var message: String {
        switch self {
        case .unknownSortKey(let key, let entity, _), .unknownKey(_, let key, let entity, _):
            return "unknown key '\(key)' on entity \(entity)"
        case .relationshipKey(_, let key, let entity, let example):
            return "'\(key)' is a relationship of entity \(entity), not a key of values; name one of its keys"
                + (example.map { ", as \($0)" } ?? " (relationship.key)")
        case .notARelationship(_, let name, let entity, _):
            return "'\(name)' is not a relationship of entity \(entity)"
        case .badOption(_, let reason), .invalid(let reason), .unknownName(_, let reason, _):
            return reason
        }
    }

    public var suggestion: String? {
        switch self {
        case .unknownSortKey(_, _, let suggestion), .unknownKey(_, _, _, let suggestion), .notARelationship(_, _, _, let suggestion):
            return suggestion
        case .unknownName(_, _, let suggestion):
            return suggestion
        case .badOption, .invalid, .relationshipKey:
            return nil
        }
    }
}

extension FetchError {
    /// `key` named where a key of values goes, for `entity`: a relationship there is
    /// refused with one of its keys shown (its destination's first string, else first
    /// attribute); nil when `key` is no relationship either.
    static func relationshipKey(_ key: String, option: String, of entity: EntityDescription, context: ObjectContext?) -> FetchError? {
        guard let relationship = entity.relationship(named: key) else { return nil }
        // A to-many has no one value per object: none of its keys would do either.
        if relationship.isToMany {
            return .badOption(
                option: option,
                reason: "'\(key)' is a to-many relationship of entity \(entity.name): \(option) takes one value per object"
                    + (option == "sort" ? "" : "; '\(key).@count' is how many each holds"))
        }
        let destination = (try? context?.entity(named: relationship.destination)) ?? nil
        let attributes = destination?.attributes ?? []
        let shown = attributes.first { $0.type == .string } ?? attributes.first
        return .relationshipKey(option: option, key: key, entity: entity.name, example: shown.map { "\(key).\($0.name)" })
    }
}

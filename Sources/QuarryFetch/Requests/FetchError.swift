import QuarryModel
import QuarryStore

/// Errors of requests: the option at fault (`sort`, `section`, `properties`, `prefetch`)
/// is the operation the line starts with.
public enum FetchError: QuarryError, Equatable {
    case unknownSortKey(key: String, entity: String, suggestion: String?)
    /// A key named by `option` that `entity` has no attribute of.
    case unknownKey(option: String, key: String, entity: String, suggestion: String?)
    /// A name given to `option` that is not one of `entity`'s relationships.
    case notARelationship(option: String, name: String, entity: String, suggestion: String?)
    /// Any other value `option` cannot take.
    case badOption(option: String, reason: String)
    case invalid(String)

    public var operation: String? {
        switch self {
        case .unknownSortKey: return "sort"
        case .unknownKey(let option, _, _, _), .notARelationship(let option, _, _, _), .badOption(let option, _): return option
        case .invalid: return nil
        }
    }

    public var message: String {
        switch self {
        case .unknownSortKey(let key, let entity, _), .unknownKey(_, let key, let entity, _):
            return "unknown key '\(key)' on entity \(entity)"
        case .notARelationship(_, let name, let entity, _):
            return "'\(name)' is not a relationship of entity \(entity)"
        case .badOption(_, let reason), .invalid(let reason):
            return reason
        }
    }

    public var suggestion: String? {
        switch self {
        case .unknownSortKey(_, _, let suggestion), .unknownKey(_, _, _, let suggestion), .notARelationship(_, _, _, let suggestion):
            return suggestion
        case .badOption, .invalid:
            return nil
        }
    }
}

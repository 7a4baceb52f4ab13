import QuarryStore
import QuarryModel

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
        case let .unknownKey(option, _, _, _), let .notARelationship(option, _, _, _), let .badOption(option, _): return option
        case .invalid: return nil
        }
    }

    public var message: String {
        switch self {
        case let .unknownSortKey(key, entity, _), let .unknownKey(_, key, entity, _):
            return "unknown key '\(key)' on entity \(entity)"
        case let .notARelationship(_, name, entity, _):
            return "'\(name)' is not a relationship of entity \(entity)"
        case let .badOption(_, reason), let .invalid(reason):
            return reason
        }
    }

    public var suggestion: String? {
        switch self {
        case let .unknownSortKey(_, _, suggestion), let .unknownKey(_, _, _, suggestion), let .notARelationship(_, _, _, suggestion):
            return suggestion
        case .badOption, .invalid:
            return nil
        }
    }
}

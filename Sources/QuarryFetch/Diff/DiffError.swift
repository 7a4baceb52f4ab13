import QuarryModel

/// Why `diff` cannot compare two stores: an entity whose objects have no identity both
/// stores share, or an option it cannot take. Each says the `by` that would fix it.
public enum DiffError: QuarryError, Equatable {
    /// `entity`'s objects have no key both sides agree on (a view, a table without a
    /// primary key, a key holding NULL or a value twice): `fix` is the option that names one.
    case ambiguousIdentity(entity: String, reason: String, fix: String)
    /// A key `by` names that one side's entity lacks.
    case unknownKey(entity: String, key: String, side: String, suggestion: String?)

    public var operation: String? { "diff" }

    public var message: String {
        switch self {
        case .ambiguousIdentity(let entity, let reason, _):
            return "entity \(entity) has no identity to match objects by: \(reason)"
        case .unknownKey(let entity, let key, let side, _):
            return "by names '\(key)', which entity \(entity) of the \(side) store does not have"
        }
    }

    public var suggestion: String? {
        if case .unknownKey(_, _, _, let suggestion) = self { return suggestion }
        return nil
    }

    public var remedy: String? {
        if case .ambiguousIdentity(_, _, let fix) = self { return "give \(fix)" }
        return nil
    }
}

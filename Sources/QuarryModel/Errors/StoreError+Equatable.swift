/// Errors compare by what they say, case by case: written out because an engine's
/// failure is any engine's type (`EngineFailure.isSame`), which the compiler cannot
/// compare for itself.
extension StoreError: Equatable {
    public static func == (lhs: StoreError, rhs: StoreError) -> Bool {
        // One switch over the left side, each case asking the right for the same case:
        // a switch over both sides is too many pairs for the compiler to check.
        switch lhs {
        case .unknownEntity(let a, let b):
            guard case .unknownEntity(let c, let d) = rhs else { return false }
            return a == c && b == d
        case .unknownKey(let a, let b, let c):
            guard case .unknownKey(let d, let e, let f) = rhs else { return false }
            return a == d && b == e && c == f
        case .typeMismatch(let a, let b, let c, let d):
            guard case .typeMismatch(let e, let f, let g, let h) = rhs else { return false }
            return a == e && b == f && c == g && d == h
        case .validation(let a):
            guard case .validation(let b) = rhs else { return false }
            return a == b
        case .invalidSchema(let a, let b):
            guard case .invalidSchema(let c, let d) = rhs else { return false }
            return a == c && b == d
        case .migrationRefused(let a, let b):
            guard case .migrationRefused(let c, let d) = rhs else { return false }
            return a == c && b == d
        case .objectDeleted(let a):
            guard case .objectDeleted(let b) = rhs else { return false }
            return a == b
        case .readOnly(let a):
            guard case .readOnly(let b) = rhs else { return false }
            return a == b
        case .viewIsReadOnly(let a):
            guard case .viewIsReadOnly(let b) = rhs else { return false }
            return a == b
        case .importFailed(let a, let b, let c, let d):
            guard case .importFailed(let e, let f, let g, let h) = rhs else { return false }
            return a == e && b == f && c == g && d == h
        case .cannotWrite(let a, let b, let c):
            guard case .cannotWrite(let d, let e, let f) = rhs else { return false }
            return a == d && b == e && c == f
        case .conflict(let a):
            guard case .conflict(let b) = rhs else { return false }
            return a == b
        case .database(let a):
            guard case .database(let b) = rhs else { return false }
            return a == b
        case .engine(let a):
            guard case .engine(let b) = rhs else { return false }
            return a.isSame(as: b)
        case .constraint(let a):
            guard case .constraint(let b) = rhs else { return false }
            return a == b
        case .interrupted(let a):
            guard case .interrupted(let b) = rhs else { return false }
            return a == b
        case .missingColumn(let a, let b):
            guard case .missingColumn(let c, let d) = rhs else { return false }
            return a == c && b == d
        case .unexpectedValue(let a, let b, let c, let d):
            guard case .unexpectedValue(let e, let f, let g, let h) = rhs else { return false }
            return a == e && b == f && c == g && d == h
        case .unknownFormat(let a, let b, let c, let d):
            guard case .unknownFormat(let e, let f, let g, let h) = rhs else { return false }
            return a == e && b == f && c == g && d == h
        case .closed:
            guard case .closed = rhs else { return false }
            return true
        case .during(let a, let b):
            guard case .during(let c, let d) = rhs else { return false }
            return a == c && b == d
        }
    }
}

/// How a caller asks what kind of failure an error is, on either engine, by its case
/// (never by its words).
extension StoreError {
    /// The database's own failure (an engine's, or Quarry's words about the store's file),
    /// which names no operation: the caller that knows which one says it (`.during`).
    public var isDatabaseFailure: Bool {
        switch self {
        // An interrupt too: it has always been said inside the operation it stopped.
        case .database, .engine, .constraint, .interrupted: return true
        default: return false
        }
    }

    /// The constraint a write broke, on either engine (inside `.during` too).
    public var constraintViolation: ConstraintViolation? {
        switch self {
        case .constraint(let violation): return violation
        case .during(_, let error): return error.constraintViolation
        default: return nil
        }
    }

    /// Why work stopped, when Ctrl-C or `--timeout` stopped it (inside `.during` too).
    public var interruption: Interruption? {
        switch self {
        case .interrupted(let interruption): return interruption
        case .during(_, let error): return error.interruption
        default: return nil
        }
    }

    /// The statement the engine refused, when it is known (inside `.during` too).
    public var sql: String? {
        switch self {
        case .engine(let failure): return failure.sql
        case .constraint(let violation): return violation.sql
        case .during(_, let error): return error.sql
        default: return nil
        }
    }

    /// What the engine refused, when an engine did (inside `.during` too).
    public var engineFailure: (any EngineFailure)? {
        switch self {
        case .engine(let failure): return failure
        case .during(_, let error): return error.engineFailure
        default: return nil
        }
    }
}

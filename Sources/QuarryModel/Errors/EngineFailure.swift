/// What an engine refused (a statement, a connection), as that engine said it: one case
/// of `StoreError` (`.engine`) whichever engine it was, so that the store and the layers
/// above it ask questions of it and never name an engine. Each engine's failure is a type
/// of its own target (SQLite's extended result code, PostgreSQL's SQLSTATE), as each
/// driver's error conforms to one protocol in Fluent. A constraint's refusal is
/// `.constraint` and an interrupt `.interrupted` instead, on every engine. Equatable, as
/// `StoreError` is: two failures are the same when they are of one engine and equal.
public protocol EngineFailure: Error, Sendable, CustomStringConvertible, Equatable {
    /// The engine's own code for it, as the engine writes it (SQLite's extended result
    /// code, a SQLSTATE), when it gave one.
    var code: String? { get }
    /// The statement refused, when known.
    var sql: String? { get }
    /// The line a person reads: the engine's words, with what its code tells besides
    /// ("database is locked (another connection held it for more than 5 seconds)").
    var message: String { get }
    /// Another connection held what the statement needed past the wait.
    var isBusy: Bool { get }
    /// The connection to the engine is gone (a server that went away).
    var isConnectionLost: Bool { get }
}

extension EngineFailure {
    public var description: String { message }

    /// None lost: an engine that keeps no connection (a file's) has none to lose.
    public var isConnectionLost: Bool { false }

    /// Whether `other` is the same failure: of this engine, and equal (`StoreError` is
    /// `Equatable`, its `.engine` any engine's failure).
    public func isSame(as other: any EngineFailure) -> Bool { (other as? Self) == self }
}

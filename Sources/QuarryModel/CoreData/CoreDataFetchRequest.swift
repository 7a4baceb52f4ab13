/// The query parts of a Core Data model: fetch request templates, fetched properties and
/// fetch indexes. Their predicates are kept as format strings (Xcode's `predicateString`,
/// or rendered from an archived `NSPredicate`); an archived predicate this reader cannot
/// render is kept as `.unsupported`, naming what it met, rather than failing the model.

/// A predicate as a model holds it.
public enum CoreDataPredicate: Equatable, Sendable {
    /// An `NSPredicate` format string, e.g. `name BEGINSWITH "A"`.
    case format(String)
    /// An archived predicate this reader cannot render, with why.
    case unsupported(String)
}

/// A named fetch request template of the model (or the request of a fetched property).
public struct CoreDataFetchRequest: Equatable, Sendable {
    public var name: String
    public var entity: String
    public var predicate: CoreDataPredicate?

    public init(name: String, entity: String, predicate: CoreDataPredicate? = nil) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
    }
}

/// A fetched property: a lazily evaluated, unstored query on an entity. It holds what a
/// request template holds (a name, an entity, a predicate), so it is one.
public typealias CoreDataFetchedProperty = CoreDataFetchRequest

/// A fetch index (Xcode's "Fetch Indexes"): an index over properties, in order.
public struct CoreDataFetchIndex: Equatable, Sendable {
    public var name: String
    public var properties: [String]

    public init(name: String, properties: [String]) {
        self.name = name
        self.properties = properties
    }
}

extension CoreDataPredicate {
    /// As kept apart from a model (a table of Quarry's, a sidecar): a format string, or
    /// why there is none; nil when neither.
    package init?(format: String?, problem: String?) {
        if let problem { self = .unsupported(problem) } else if let format { self = .format(format) } else { return nil }
    }

    package var format: String? { if case .format(let text) = self { text } else { nil } }
    package var problem: String? { if case .unsupported(let why) = self { why } else { nil } }
}

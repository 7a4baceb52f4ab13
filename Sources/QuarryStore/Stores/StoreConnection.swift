import Foundation
import QuarryEngine
import QuarryModel

/// A store's session with its engine (`StoreEngine`: SQLite or PostgreSQL), the one
/// owner of it: the reads every layer above makes go through here to the engine, which
/// alone knows its library. What belongs to one engine only (a SQLite file's GRDB handle)
/// is reached by that engine's own target, and a read asked of another engine is refused
/// (`needsEngine`).
public final class StoreConnection {
    package let engine: any StoreEngine
    public let isReadOnly: Bool
    /// Where the store lives; nil for an in-memory store or a server's.
    public let path: String?
    package private(set) var isClosed = false

    /// What the open had to say (a private copy was read): for stderr.
    let notes: [String]

    /// A connection over `engine`, opened already (each engine's target opens its own),
    /// with what its open had to say.
    package init(engine: any StoreEngine, readOnly: Bool, path: String? = nil, notes: [String] = []) {
        self.engine = engine
        isReadOnly = readOnly
        self.path = path
        self.notes = notes
    }

    /// The error for what only one engine does yet, asked of a store on another.
    package static func needsEngine(_ engine: String, for what: String = "this") -> StoreError {
        .database(message: "\(what) is not supported yet on this store: it needs \(engine) (see docs/postgresql.md)")
    }

    /// The engine as a person reads it.
    public var engineDescription: String { engine.description }

    /// Views the store described and SQL has not yet read (a Core Data store's, another
    /// program's views).
    package var deferredViews: DeferredViews? {
        get { engine.deferredViews }
        set { engine.deferredViews = newValue }
    }

    /// Defers a view: made by `making` before the first statement that reads `name`.
    package func deferView(_ name: String, _ making: DeferredViews.Making) {
        let views = deferredViews ?? DeferredViews([])
        views.add(name, making)
        deferredViews = views
    }

    /// Closes the session (every later read fails), and removes what a read-only open made
    /// beside the file.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        engine.close()
    }

    deinit { close() }
}

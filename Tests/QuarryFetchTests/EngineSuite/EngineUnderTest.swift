import Foundation
import QuarryPredicates
import QuarryStore
import QuarryStores
import QuarryTestSupport
import Testing

/// An engine the engine suite (`EngineSuite`) runs on: the one place that knows how to
/// make a fresh store of it. Everything else the suite does goes through the store's
/// location and `StoreRegistry`, as the shell opens stores, so a new engine joins the
/// suite with one case here. PostgreSQL's stores are databases on the test process's one
/// server (`PostgresServer`, shared with every other test): without it the tests fail,
/// never skip.
enum EngineUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// A new, empty store of this engine for one test, and a folder of its own for the
    /// files the test writes.
    func freshStore(_ name: String) async throws -> EngineStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-engine-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch self {
        case .sqlite: return EngineStore(location: folder.appendingPathComponent("\(name).db").path, folder: folder.path)
        case .postgres: return EngineStore(location: try await PostgresServer.database("engine\(name)"), folder: folder.path)
        }
    }
}

/// One store of an engine under test: sessions on it (each its own connection, as two
/// programs would have), closed with the store.
final class EngineStore {
    /// The file's path or the server's URL, as a user gives it to `.open`.
    let location: String
    /// Where the test's own files (exports) go.
    let folder: String
    private var sessions: [ObjectContext] = []

    init(location: String, folder: String) {
        self.location = location
        self.folder = folder
    }

    /// A new session on the store, opened as the shell opens one (with the predicate
    /// layer's SQL functions, which only a file's connection takes).
    func session() throws -> ObjectContext {
        let context = try StoreRegistry.open(location, functions: PredicateFunctions.all)
        sessions.append(context)
        return context
    }

    /// A path in the test's folder.
    func file(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }

    func close() {
        for session in sessions { session.close() }
        sessions = []
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs `body` on a fresh store of `engine`, closed after it however it ends.
    static func with(_ engine: EngineUnderTest, _ name: String, _ body: (EngineStore) throws -> Void) async throws {
        let store = try await engine.freshStore(name)
        defer { store.close() }
        try body(store)
    }
}

/// Where the real Core Data stores and models live (/work/shared/data/coredata, beside the
/// package), and copies of them in a temporary folder: the originals are never opened,
/// since opening a WAL store can change it.
import Foundation
import Testing

enum CoreDataFixtures {
    /// The data folder; a test using it fails (never skips) when it is missing.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/data/coredata")

    static func path(_ relative: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let path = root.appendingPathComponent(relative).path
        try #require(FileManager.default.fileExists(atPath: path),
                     "missing test data \(path): the Core Data fixtures belong in ../shared/data/coredata beside the package",
                     sourceLocation: sourceLocation)
        return path
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-coredata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Copies a store (with its `-wal` and `-shm` when present) into a temporary folder,
    /// writable, and returns the copy's path.
    static func copyOfStore(_ relative: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let source = try path(relative, sourceLocation: sourceLocation)
        let folder = try temporaryFolder()
        let target = folder.appendingPathComponent(URL(fileURLWithPath: source).lastPathComponent).path
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target + suffix)
        }
        return target
    }

    /// The stores, and whether each holds a model cache.
    static let stores: [(path: String, hasCache: Bool)] = [
        ("cars/SampleModel_V1.sqlite", true),
        ("posts/CoreDataMigration_Example_3.sqlite", true),
        ("authors/TestModel.sqlite", true),
        ("recipes/Recipes.sqlite", false),
        ("surfjournal/SurfJournalModel.sqlite", false),
    ]
}

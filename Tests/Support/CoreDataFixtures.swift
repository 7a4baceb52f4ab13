import Foundation

/// The real Core Data stores and models (`../shared/data/coredata`, see its README), and
/// copies of them in a temporary folder: the originals are never opened, since opening a
/// WAL store can change it. A missing file fails the test that asked for it.
public enum CoreDataFixtures {
    /// The path of `relative` under the coredata folder; throws when it is missing.
    public static func path(_ relative: String) throws -> String {
        try SharedData.path("coredata/" + relative)
    }

    /// A fresh temporary folder.
    public static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-coredata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Copies a store (with its `-wal` and `-shm` when present) into a temporary folder,
    /// writable, and returns the copy's path.
    public static func copyOfStore(_ relative: String) throws -> String {
        let source = try path(relative)
        let folder = try temporaryFolder()
        let target = folder.appendingPathComponent(URL(fileURLWithPath: source).lastPathComponent).path
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target + suffix)
        }
        return target
    }

    /// The stores, and whether each holds a model cache.
    public static let stores: [(path: String, hasCache: Bool)] = [
        ("cars/SampleModel_V1.sqlite", true),
        ("posts/CoreDataMigration_Example_3.sqlite", true),
        ("authors/TestModel.sqlite", true),
        ("recipes/Recipes.sqlite", false),
        ("surfjournal/SurfJournalModel.sqlite", false)
    ]
}

import Foundation
import QuarryStore
import QuarryStores

/// A name that did not exist opens as a new, empty store; when it does not look like a
/// database's name either, a typo is the likelier story ("unknown entity" would follow),
/// so the shell says a new file was made.
enum NewFileNote {
    static let databaseExtensions: Set<String> = ["db", "sqlite", "sqlite3", "db3", "store", "quarry"]

    static func isNew(_ path: String) -> Bool {
        path != ":memory:" && StoreRegistry.namesFile(path) && !FileManager.default.fileExists(atPath: path)
    }

    static func note(for path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext = name.split(separator: ".").count > 1 ? name.split(separator: ".").last.map { $0.lowercased() } : nil
        if let ext, databaseExtensions.contains(ext) { return nil }
        return "\(path) did not exist: a new, empty store was made (a typo? .open another file, or quarry NAME.db)"
    }

    /// What `.open` says of a name that was not there, even one that looks like a database's.
    static func opened(_ path: String) -> String {
        "\(path) did not exist: creating a new, empty store (a typo? .open the file you meant)"
    }
}

import Foundation
import QuarryModel
import QuarryStore
import QuarryStores

/// A name that did not exist opens as a new, empty store, whose file is kept once
/// something is written to it (`NewFileCleanup` removes it otherwise); when the name does
/// not look like a database's either, a typo is the likelier story ("unknown entity"
/// would follow), so the shell says a new store was made. A file beside it whose name differs as a typo
/// does (`chinok.sqlite` beside `chinook.sqlite`) is named in the note at start-up, where
/// the contract makes a missing DB; `.open` refuses such a name, making nothing, and
/// `.open --new NAME` makes it after all (sqlite3's flag for a new database).
enum NewFileNote {
    static let databaseExtensions: Set<String> = ["db", "sqlite", "sqlite3", "db3", "store", "quarry"]

    static func isNew(_ path: String) -> Bool {
        path != ":memory:" && StoreRegistry.namesFile(path) && !FileManager.default.fileExists(atPath: path)
    }

    static func note(for path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext = name.split(separator: ".").count > 1 ? name.split(separator: ".").last.map { $0.lowercased() } : nil
        if let meant = likelyMeant(path) {
            return "\(path) did not exist: \(Self.kept) (did you mean \(meant)?)"
        }
        if let ext, databaseExtensions.contains(ext) { return nil }
        return "\(path) did not exist: \(Self.kept) (a typo? .open another file, or quarry NAME.db)"
    }

    /// What a new name opens as: its file stays only if something is written to it.
    static let kept = "a new store, kept as a file once written to"

    /// What `.open` says of a name that was not there, even one that looks like a database's.
    static func opened(_ path: String) -> String {
        "\(path) did not exist: \(kept) (a typo? .open the file you meant)"
    }

    /// A file in `path`'s folder whose name is `path`'s with one slip (two in a name of 8
    /// characters or more): a letter missed, added, changed or two swapped. Names of
    /// fewer than 4 characters before the extension, and names that differ only in their
    /// digits (`store2.db` beside `store.db`), are different names rather than typos.
    /// The files a store keeps beside its own (`-wal`, `-shm`, `-journal`, a `.quarry`
    /// sidecar) are no candidates. Said with the folder as typed.
    static func likelyMeant(_ path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        let stem = (name as NSString).deletingPathExtension
        guard stem.count >= 4 else { return nil }
        let folder = url.deletingLastPathComponent().path
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        let present = Set(entries)
        let allowed = name.count >= 8 ? 2 : 1
        func withoutDigits(_ text: String) -> String { text.lowercased().filter { !$0.isNumber } }
        let lowered = name.lowercased()
        // Names near enough first (a length check, then the distance), then a look at only
        // those: a folder of many files costs no stat of each.
        let near = entries.compactMap { entry -> (String, Int)? in
            guard entry != name, abs(entry.count - name.count) <= allowed else { return nil }
            let distance = editDistance(lowered, entry.lowercased())
            return distance <= allowed ? (entry, distance) : nil
        }
        let candidates = near.filter { entry, _ in
            guard !["-wal", "-shm", "-journal"].contains(where: { entry.hasSuffix($0) }) else { return false }
            if entry.hasSuffix(".quarry"), present.contains(String(entry.dropLast(7))) { return false }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + entry, isDirectory: &isFolder), !isFolder.boolValue else { return false }
            return withoutDigits(entry) != withoutDigits(name)
        }
        let best = candidates.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        guard let meant = best?.0 else { return nil }
        return (path.lastIndex(of: "/").map { String(path[...$0]) } ?? "") + meant
    }
}

import Foundation
import QuarryStores

/// A store file this run made for a name that was not there, when a "did you mean"
/// named a file beside it (`quarry pokemon.sqlit` beside `pokemon.sqlite`): the contract
/// makes a missing DB, but a typo should not leave an empty database behind. When the
/// session is done with it (the run ends, or `.open` switches away) and nothing was ever
/// written to it (no table, index, view or trigger), it is removed, with the `-wal`,
/// `-shm` and `-journal` files and the `.quarry` sidecar the run made beside it, and one
/// line on stderr says so. A file that was there before, or that holds anything, stays.
struct TypoFileCleanup {
    let path: String
    let meant: String
    /// The companions that were already there when the file was made: never removed.
    let companionsBefore: Set<String>

    static let companionSuffixes = ["-wal", "-shm", "-journal", ".quarry"]

    /// Call before the store at `path` is opened: a cleanup when the open will make the
    /// file and a file beside it looks like the one meant; else nil.
    static func before(opening path: String) -> TypoFileCleanup? {
        guard NewFileNote.isNew(path), let meant = NewFileNote.likelyMeant(path) else { return nil }
        let before = Set(companionSuffixes.filter { FileManager.default.fileExists(atPath: path + $0) })
        return TypoFileCleanup(path: path, meant: meant, companionsBefore: before)
    }

    /// Call once the store is closed: removes the file and what the run made beside it
    /// when the file holds nothing, and says so.
    func run() {
        guard StoreRegistry.holdsNothing(file: path) else { return }
        // The file first: without it the companions are nobody's.
        guard (try? FileManager.default.removeItem(atPath: path)) != nil else { return }
        for suffix in Self.companionSuffixes where !companionsBefore.contains(suffix) {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        reportNote("\(path) was made for a name that was not there and nothing was written to it: removed (did you mean \(meant)?)")
    }
}

/// The typo files `open()` in a script made beside the session's store (`open("typo.sqlit")`),
/// each removed as the command line's is when the session closes (`Session.close`), where
/// every store the script opened is closed first.
final class OpenedTypoFiles {
    private(set) var cleanups: [TypoFileCleanup] = []

    func add(_ cleanup: TypoFileCleanup) { cleanups.append(cleanup) }

    /// Runs each once.
    func run() {
        let due = cleanups
        cleanups = []
        for cleanup in due { cleanup.run() }
    }
}

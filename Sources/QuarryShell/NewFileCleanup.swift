import Foundation
import QuarryStores

/// A store file this run made for a name that was not there: the contract makes a
/// missing DB, but a session that never writes to it should leave nothing behind, as
/// sqlite3's shell makes no file until something is written (`quarry new.db` then
/// `.quit`, or `-e 'print(1)'`). Opening writes nothing to a new file (it becomes Quarry's
/// at its first entity, `SQLiteFileOpening.useWriteAheadLog`), so when the session is done
/// with it (the run ends, or `.open` switches away) and nothing was ever written to it
/// (no table, index, view or trigger), it is removed, with the `-wal`, `-shm` and
/// `-journal` files and the `.quarry` sidecar the run made beside it. A file that was
/// there before, or that holds anything, stays.
///
/// When a "did you mean" named a file beside it (`quarry pokemon.sqlit` beside
/// `pokemon.sqlite`), one line on stderr says it was removed and names that file; any
/// other empty file goes without a word, as it came (sqlite3 says nothing either).
struct NewFileCleanup {
    let path: String
    /// The file a typo's note named; nil for any other new name.
    let meant: String?
    /// The companions that were already there when the file was made: never removed.
    let companionsBefore: Set<String>

    static let companionSuffixes = ["-wal", "-shm", "-journal", ".quarry"]

    /// Call before the store at `path` is opened: a cleanup when the open will make the
    /// file; else nil. `typo`: whether to name a file beside it that looks like the one
    /// meant (not after `.open --new`, which asked for this name).
    static func before(opening path: String, typo: Bool = true) -> NewFileCleanup? {
        guard NewFileNote.isNew(path) else { return nil }
        let before = Set(companionSuffixes.filter { FileManager.default.fileExists(atPath: path + $0) })
        return NewFileCleanup(path: path, meant: typo ? NewFileNote.likelyMeant(path) : nil, companionsBefore: before)
    }

    /// Whether two paths name one file, as typed or after `.` and `..` are resolved.
    static func samePath(_ a: String, _ b: String) -> Bool {
        a == b || URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path
    }

    /// Call once the store is closed: removes the file and what the run made beside it
    /// when the file holds nothing, and says so for a typo.
    func run() {
        guard StoreRegistry.holdsNothing(file: path) else { return }
        // The file first: without it the companions are nobody's.
        guard (try? FileManager.default.removeItem(atPath: path)) != nil else { return }
        for suffix in Self.companionSuffixes where !companionsBefore.contains(suffix) {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        if let meant {
            reportNote("\(path) was made for a name that was not there and nothing was written to it: removed (did you mean \(meant)?)")
        }
    }
}

/// The new files `open()` in a script made beside the session's store (`open("typo.sqlit")`,
/// `open("other.db")`), each removed as the command line's is when the session closes
/// (`Session.close`), where every store the script opened is closed first.
final class OpenedNewFiles {
    private(set) var cleanups: [NewFileCleanup] = []

    func add(_ cleanup: NewFileCleanup) { cleanups.append(cleanup) }

    /// Runs each once.
    func run() {
        let due = cleanups
        cleanups = []
        for cleanup in due { cleanup.run() }
    }
}

import CQuarrySignals
import Foundation
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// A store with a `-wal` in a folder Quarry may not write, opened `--readonly`: SQLite
/// needs a `-shm` beside a WAL file to read it, which it cannot make there, and opening
/// the file immutable would read it without its `-wal` (rows that live only there would
/// be missing, with no error). So the store and its `-wal` are copied into a private
/// temporary folder and the copy is read: complete, and the originals are never touched.
/// The copy is taken at open; it is removed when the store closes.
struct ReadOnlyCopy {
    /// The copy of the store (its `-wal` beside it).
    let path: String
    private let folder: String

    /// A copy when `path` needs one to be read completely read-only; nil when it does not.
    static func ifNeeded(for path: String) throws -> ReadOnlyCopy? {
        let files = FileManager.default
        let log = path + "-wal"
        guard files.fileExists(atPath: path), !files.isWritableFile(atPath: SQLiteEngine.folder(of: path)),
            let size = (try? files.attributesOfItem(atPath: log))?[.size] as? NSNumber, size.intValue > 0
        else { return nil }
        let folder = NSTemporaryDirectory() + "quarry-readonly-" + UUID().uuidString
        do {
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let copy = folder + "/" + (path.split(separator: "/").last.map(String.init) ?? "store")
            try files.copyItem(atPath: path, toPath: copy)
            try files.copyItem(atPath: log, toPath: copy + "-wal")
            quarry_remove_on_termination(copy, folder)
            return ReadOnlyCopy(path: copy, folder: folder)
        } catch {
            try? files.removeItem(atPath: folder)
            throw StoreError.database(
                message: "cannot open \(path): its folder is not writable and its -wal could not be copied to read it (\(error.localizedDescription))"
            )
        }
    }

    /// What the user is told once: the store is read as it was at open.
    func note(for original: String) -> String {
        "\(original): its folder is not writable, so a private copy of the store and its -wal is read (changes made to it after opening are not seen)"
    }

    func remove() {
        quarry_forget_removal()
        try? FileManager.default.removeItem(atPath: folder)
    }
}

import Foundation
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

#if canImport(Glibc)
    import Glibc
#endif

/// Reading a file must leave its folder as it was found. A connection to a WAL file makes
/// `-wal` and `-shm` files beside it; a read-only one cannot remove them when it closes
/// (that takes an exclusive lock, which a read-only descriptor cannot take), and neither
/// does one that may not checkpoint a file Quarry did not create (see
/// `allowCheckpointOnClose`). So the files this process made are removed here once its
/// last connection to the file is closed, when nobody else uses them: the `-wal` is
/// empty (nothing of anyone's is in it), and no connection in any process holds the
/// `-shm`'s lock byte.
package struct Sidecars {
    private let database: String

    /// Which files existed before the process first opened the file, and how many of
    /// its contexts have it open: its own connections share its locks, so the lock test
    /// below cannot see them, and a second open must not forget what the first made.
    private struct Opening {
        var database: String
        var count: Int
        var madeWAL: Bool
        var madeSHM: Bool
    }
    /// A list, not a dictionary by path: a process opens a file or two, and a dictionary
    /// of this type would cost the Swift runtime a search of the binary's conformances
    /// (0.3 ms) at every start.
    /// Unsafe only to the compiler: read and written under `lock`, never elsewhere.
    nonisolated(unsafe) private static var openings: [Opening] = []
    private static let lock = NSLock()

    /// Call just before `path` is opened.
    package init(database path: String) {
        database = path
        let files = FileManager.default
        Self.lock.withLock {
            if let i = Self.openings.firstIndex(where: { $0.database == path }) {
                Self.openings[i].count += 1
            } else {
                Self.openings.append(
                    Opening(
                        database: path, count: 1, madeWAL: !files.fileExists(atPath: path + "-wal"),
                        madeSHM: !files.fileExists(atPath: path + "-shm")))
            }
        }
    }

    /// Call once, after the connection is closed (or failed to open).
    package func closed() {
        let last = Self.lock.withLock { () -> Opening? in
            guard let i = Self.openings.firstIndex(where: { $0.database == database }) else { return nil }
            Self.openings[i].count -= 1
            return Self.openings[i].count > 0 ? nil : Self.openings.remove(at: i)
        }
        guard let last, last.madeSHM else { return }
        let wal = database + "-wal"
        let shm = database + "-shm"
        // As SQLite does before it deletes a WAL: an exclusive lock on the database's
        // SHARED range keeps new connections out while the files go (when the file can be
        // opened for writing at all; a lock for writing needs that).
        let file = open(database, O_RDWR | O_CLOEXEC)
        defer { if file >= 0 { close(file) } }
        if file >= 0, !Self.lock(file, start: 0x4000_0002, length: 510) { return }
        let descriptor = open(shm, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // SQLite's unix VFS: every connection to a WAL file holds a shared lock on byte
        // 128 of the -shm (its "DMS" byte) while connected.
        guard Self.lock(descriptor, start: 128, length: 1) else { return }
        var status = stat()
        if last.madeWAL, stat(wal, &status) == 0, status.st_size == 0 { unlink(wal) }
        unlink(shm)
    }

    /// Takes a write lock without waiting; false when another process holds any lock there.
    private static func lock(_ descriptor: Int32, start: Int, length: Int) -> Bool {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(start)
        lock.l_len = off_t(length)
        return fcntl(descriptor, F_SETLK, &lock) == 0
    }
}

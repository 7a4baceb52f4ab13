import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--readonly` must leave a folder as it found it. A read-only SQLite connection to a
/// WAL file makes `-wal` and `-shm` files beside it, and cannot remove them when it
/// closes: removing them takes an exclusive lock, which a read-only descriptor cannot
/// take. So the files this process made are removed here once its connection is closed,
/// when nobody else uses them: the `-wal` is empty (nothing of anyone's is in it), and no
/// connection in any process holds the `-shm`'s "connected" lock byte.
struct ReadOnlySidecars {
    let wal: String
    let shm: String
    let madeWAL: Bool
    let madeSHM: Bool
    private let database: String

    /// Notes which of the files exist before `path` is opened.
    init(database path: String) {
        database = path
        wal = path + "-wal"
        shm = path + "-shm"
        madeWAL = !FileManager.default.fileExists(atPath: wal)
        madeSHM = !FileManager.default.fileExists(atPath: shm)
    }

    /// Paths opened read-only by live contexts of this process: its own connections share
    /// its locks, so the lock test below cannot see them.
    nonisolated(unsafe) private static var openHere: [String: Int] = [:]
    private static let openHereLock = NSLock()

    func opened() { Self.openHereLock.withLock { Self.openHere[database, default: 0] += 1 } }

    /// Call after the connection is closed.
    func closed() {
        let stillOpen = Self.openHereLock.withLock { () -> Bool in
            Self.openHere[database, default: 1] -= 1
            if Self.openHere[database] == 0 { Self.openHere[database] = nil; return false }
            return true
        }
        guard madeSHM, !stillOpen else { return }
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
        if madeWAL, stat(wal, &status) == 0, status.st_size == 0 { unlink(wal) }
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

/// Reads the files a model is made of (`.mom`, `contents`, `VersionInfo.plist`,
/// `.xccurrentversion`, a store's first bytes) with open(2) and read(2), not Foundation:
/// `FileHandle` and `Data(contentsOf:)` trap (a `try!` inside Foundation) on a read error
/// such as `/proc/self/mem`'s, and read a file that never ends (`/proc/self/pagemap`, a
/// FIFO) without bound. Here only a regular file is read, at most `limit` bytes of it, and
/// every failure is a `ModelFileError` naming the file.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

package enum ModelFileReader {
    /// The largest model file read: real `.mom` files, `contents` and inflated model caches
    /// are a few KiB, the largest apps' a few MiB (`Inflate` takes the same bound).
    package static let limit = 64 << 20

    /// The whole file at `path`; more than `limit` bytes is an error.
    package static func read(_ path: String, limit: Int = limit) throws -> [UInt8] {
        try read(path, upTo: limit, whole: true)
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter).
    package static func head(_ path: String, count: Int = 512) throws -> [UInt8] {
        try read(path, upTo: count, whole: false)
    }

    private static func read(_ path: String, upTo limit: Int, whole: Bool) throws -> [UInt8] {
        func fail(_ detail: String) -> ModelFileError { ModelFileError(.unreadable, path: path, detail) }
        var fd: Int32
        // O_NONBLOCK: opening a FIFO for reading would wait for a writer; it is refused below.
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw ModelFileError(.missingFile, path: path, "") }
            throw fail(reason(code))
        }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw fail(reason(errno)) }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else { throw fail("not a regular file (\(describe(type)))") }
        let size = max(Int(info.st_size), 0)
        if whole, size > limit { throw fail("\(size) bytes, more than the \(limit) a model file may be") }
        // No more than the file says it holds: a file of /proc says 0 and has no end
        // (`/proc/self/pagemap`), so one byte past its size is refused.
        let cap = min(limit, size)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(cap + (whole ? 1 : 0))
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while bytes.count < cap || whole {
            // One byte past the cap tells a file of exactly `cap` bytes from a longer one.
            let wanted = min(chunk.count, cap + (whole ? 1 : 0) - bytes.count)
            let n = chunk.withUnsafeMutableBytes { readFile(fd, $0.baseAddress!, wanted) }
            if n < 0 {
                if errno == EINTR {
                    try ModelFileError.stopIfAsked(path, at: "byte \(bytes.count)")
                    continue
                }
                throw fail("after \(bytes.count) bytes: \(reason(errno))")
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if whole, bytes.count > cap { throw fail("it holds more than the \(size) bytes its size says (a file of /proc?)") }
            try ModelFileError.stopIfAsked(path, at: "byte \(bytes.count)")
        }
        return bytes
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case EACCES: return "permission denied"
        case EISDIR: return "it is a directory"
        default: return String(cString: strerror(code))
        }
    }

    private static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }
}

// read(2) under a name of its own: inside ModelFileReader, `read` is its method.
private func readFile(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, bytes, count) }

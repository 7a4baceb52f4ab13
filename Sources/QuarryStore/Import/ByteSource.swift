import CQuarrySignals
import QuarryModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an import reads its bytes: a chunk at a time, so no reader needs the whole
/// input in memory. `read` fills at most the buffer given and returns 0 at the end.
protocol ByteSource {
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// How many bytes were read so far.
    var bytesRead: Int { get }
}

/// Bytes already in memory (tests, fuzzing, and inputs too small to matter).
struct BytesSource: ByteSource {
    private let bytes: [UInt8]
    private(set) var bytesRead = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - bytesRead)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[bytesRead..<(bytesRead + n)])) }
        bytesRead += n
        return n
    }
}

/// An open file descriptor, read with read(2) (or pread(2) from its own offset, for a
/// spool several passes share); the reader owns and closes it.
final class FileSource: ByteSource {
    private var descriptor: Int32
    private(set) var bytesRead = 0
    let path: String
    /// Whether the descriptor is a plain file: its reads never wait.
    let isRegular: Bool
    /// Reads at `bytesRead` with pread(2), so passes over one spool do not move each other.
    private let positional: Bool

    /// Opens `path` for reading, or says why it cannot be read as the import's message does.
    /// Opened without waiting (O_NONBLOCK): opening a FIFO no writer has opened yet would
    /// otherwise wait in open(2), where neither Ctrl-C nor --timeout is heard.
    init(path: String) throws {
        self.path = path
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let code = errno
            let reason = code == ENOENT ? "no such file" : code == EACCES ? "permission denied" : OutputFile.reason(code)
            throw StoreError.importFailed(path: path, line: nil, reason: "cannot read the file: \(reason)")
        }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            _ = close(fd)
            throw StoreError.importFailed(path: path, line: nil, reason: "cannot read the file: it is a directory")
        }
        // A device other than a terminal (/dev/zero, /dev/urandom) is an endless stream of
        // bytes that are no table: refused, as model files refuse it, rather than copied
        // toward a full disk. A FIFO, a pipe and a terminal (/dev/stdin) are read.
        let kind = info.st_mode & S_IFMT
        if kind == S_IFCHR || kind == S_IFBLK, isatty(fd) == 0 {
            _ = close(fd)
            throw StoreError.importFailed(path: path, line: nil, reason: "cannot read the file: it is a device, not a file of rows")
        }
        descriptor = fd
        isRegular = info.st_mode & S_IFMT == S_IFREG
        positional = false
    }

    /// Reads `descriptor` (a plain file, which this source now owns) from its start, with
    /// pread(2), reported as `path`.
    init(positionalDescriptor fd: Int32, path: String) {
        descriptor = fd
        self.path = path
        isRegular = true
        positional = true
    }

    deinit { if descriptor >= 0 { _ = close(descriptor) } }

    /// Whether the file can be read again from its start (a plain file, not a FIFO).
    var isRewindable: Bool { isRegular }

    /// The file's size in bytes, for progress estimates (0 when unknown).
    var size: Int {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : 0
    }

    /// Fills `buffer` with what comes next, 0 at the end. A FIFO, pipe or terminal may
    /// have nothing yet: it is waited for in slices of 50 ms, with Ctrl-C and the
    /// --timeout deadline asked after each, so a read with no writer ends at the deadline
    /// (a signal alone would not do: it may reach another thread, or come between reads).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            // poll(2) first: with O_NONBLOCK, a FIFO no writer has opened yet reads as its end.
            if !isRegular { try BlockedRead.waitReadable(descriptor) }
            let n = positional ? preadFile(descriptor, base, buffer.count, off_t(bytesRead)) : readFile(descriptor, base, buffer.count)
            if n >= 0 {
                bytesRead += n
                return n
            }
            if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK {
                if quarry_should_stop() != 0 { throw StoreError.stopped() }
                continue
            }
            throw StoreError.importFailed(path: path, line: nil, reason: "cannot read the file: \(OutputFile.reason(errno))")
        }
    }
}

// read(2) and pread(2) under names of their own: inside FileSource, `read` is its method.
private func readFile(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, bytes, count) }
private func preadFile(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t) -> Int {
    pread(fd, bytes, count, offset)
}

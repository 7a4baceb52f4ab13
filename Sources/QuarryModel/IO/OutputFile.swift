import CQuarrySignals
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file an export writes, opened as a shell's `>` would open the path, except that a
/// failed export leaves an existing plain file as it was.
///
/// - A FIFO, a device or a socket is opened and written as the bytes come; it is never
///   replaced (`export(r, "/dev/null")` must not turn /dev/null into a file).
/// - A symbolic link is followed: its target gets the data and the link stays a link.
/// - A plain file with one link, or a new file, is written to a temporary beside it that
///   takes the original's mode and owner and is renamed over it at `commit()`.
/// - A plain file with more links (or whose owner the temporary cannot take, or whose
///   folder takes no new file) is staged in an unnamed temporary and copied into the file
///   itself at `commit()`, so every name keeps seeing the same file.
/// - A new file gets mode 0666 & ~umask, as `>` makes it.
///
/// Writes are buffered and go out in chunks of `chunkSize`, so an export streams instead
/// of building its whole text first. Without `commit()` (an error midway), `discard()` or
/// `deinit` removes the temporary and the destination is untouched.
public final class OutputFile {
    /// How many bytes are gathered before one `write(2)`.
    public static let chunkSize = 64 * 1024

    /// The path as given, for messages.
    public let path: String
    private let operation: String
    private var mode: Mode
    /// Where `write` sends bytes: the destination (direct) or a temporary.
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var done = false

    private enum Mode {
        /// Written as it comes; nothing to finish but closing.
        case direct
        /// A temporary named `temporary` (beside `destination`), renamed over it at the end;
        /// `replacing` when a file of that name was there to keep.
        case replace(temporary: String, destination: String, replacing: Bool)
        /// An unnamed temporary copied into the open destination at the end.
        case inPlace(destination: Int32)
    }

    /// Opens `path` for writing; `operation` starts every message ("export: cannot write …").
    public init(path: String, operation: String = "export") throws {
        self.path = path
        self.operation = operation
        buffer.reserveCapacity(Self.chunkSize)
        func fail(_ code: Int32) -> StoreError { .cannotWrite(operation: operation, path: path, reason: Self.reason(code)) }

        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            guard code == ENOENT else { throw fail(code) }
            var link = stat()
            if lstat(path, &link) == 0 {
                // A link to nowhere: `>` creates its target, and so does this (directly:
                // renaming a temporary over the path would replace the link).
                descriptor = try Self.openChecked(path, O_WRONLY | O_CREAT | O_TRUNC, fail)
                mode = .direct
                return
            }
            // A new file: the temporary is made with 0666, which the umask narrows as `>` would.
            let (temporary, fd) = try Self.makeTemporary(beside: path, permissions: 0o666, fail)
            descriptor = fd
            mode = .replace(temporary: temporary, destination: path, replacing: false)
            return
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            // FIFOs, devices (and, refused by open(2), sockets and directories): what `>` does.
            descriptor = try Self.openChecked(path, O_WRONLY | O_CREAT | O_TRUNC, fail)
            mode = .direct
            return
        }
        // An existing plain file. Opening it first refuses a file `>` could not write
        // (mode 0444, say), which a rename in a writable folder would otherwise replace.
        let destination = try Self.openChecked(path, O_WRONLY, fail)
        // The file itself, not a link to it: the temporary must sit in the real folder.
        let real = Self.realPath(path) ?? path
        if info.st_nlink == 1, let (temporary, fd) = try? Self.makeTemporary(beside: real, permissions: 0o600, fail) {
            if fchown(fd, info.st_uid, info.st_gid) == 0, fchmod(fd, info.st_mode & 0o7777) == 0 {
                _ = closeFile(destination)
                descriptor = fd
                mode = .replace(temporary: temporary, destination: real, replacing: true)
                return
            }
            // The owner cannot be kept (not root, another owner): write in place instead.
            _ = unlink(temporary)
            _ = closeFile(fd)
        }
        do {
            descriptor = try Self.makeStagingFile(beside: real, fail)
        } catch {
            _ = closeFile(destination)
            throw error
        }
        mode = .inPlace(destination: destination)
    }

    /// Standard output (`export(r, "-")`): written as it comes, after what was printed
    /// before, and never replaced or truncated. The descriptor is a copy, so closing it
    /// leaves standard output open.
    public init(standardOutputFor operation: String) throws {
        path = "-"
        self.operation = operation
        buffer.reserveCapacity(Self.chunkSize)
        // Every stream, standard output among them (`stdout` itself is a global Swift 6
        // cannot prove safe).
        fflush(nil)
        descriptor = dup(STDOUT_FILENO)
        mode = .direct
        guard descriptor >= 0 else { throw StoreError.cannotWrite(operation: operation, path: "standard output", reason: Self.reason(errno)) }
    }

    deinit { discard() }

    /// Adds `text` to the output.
    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(bytes: $0) }
    }

    /// Adds `bytes` to the output.
    public func write(bytes: UnsafeBufferPointer<UInt8>) throws {
        guard !done else { throw failure(EBADF) }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.chunkSize { try flush() }
    }

    /// Lets `body` append to the output's buffer in place (a `TableWriter` row, say),
    /// then writes a chunk out once the buffer holds one.
    public func append(_ body: (inout [UInt8]) throws -> Void) throws {
        guard !done else { throw failure(EBADF) }
        try body(&buffer)
        if buffer.count >= Self.chunkSize { try flush() }
    }

    /// Finishes the output: the last bytes written, the temporary renamed or copied into
    /// place, everything closed. After an error nothing of the destination has changed,
    /// except for a direct (FIFO, device) or in-place copy that failed partway.
    public func commit() throws {
        guard !done else { throw failure(EBADF) }
        defer { discard() }
        try flush()
        switch mode {
        case .direct:
            break
        case .replace(let temporary, let destination, let replacing):
            // On disk before the rename, so a crash leaves the old file or the new, never an
            // empty one. A new file has no old one to keep: it is written as `>` and
            // `sqlite3 -csv` write, without waiting for the disk (an fsync of a 114 MB
            // export waited for all of it to be written out).
            if replacing { guard fsync(descriptor) == 0 else { throw failure(errno) } }
            guard rename(temporary, destination) == 0 else { throw failure(errno) }
            mode = .direct
        case .inPlace(let destination):
            try copy(from: descriptor, to: destination)
        }
        done = true
    }

    /// Abandons the output: the temporary is removed and the destination stays as it was.
    public func discard() {
        switch mode {
        case .direct: break
        case .replace(let temporary, _, _): _ = unlink(temporary)
        case .inPlace(let destination): _ = closeFile(destination)
        }
        mode = .direct
        if descriptor >= 0 { _ = closeFile(descriptor) }
        descriptor = -1
        done = true
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        if case .direct = mode {
            // A FIFO whose reader has gone raises SIGPIPE, which would end the whole
            // session (and its unsaved changes): blocked here, the write fails with EPIPE.
            try withSIGPIPEBlocked { try buffer.withUnsafeBytes { try writeAll($0, to: descriptor) } }
        } else {
            try buffer.withUnsafeBytes { try writeAll($0, to: descriptor) }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Runs `body` with SIGPIPE blocked on this thread; a SIGPIPE it raised is taken
    /// (not left pending) before the old mask returns.
    private func withSIGPIPEBlocked(_ body: () throws -> Void) throws {
        var pipe = sigset_t()
        var old = sigset_t()
        var pending = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipe, &old)
        sigpending(&pending)
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        defer {
            sigpending(&pending)
            if !wasPending, sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipe, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &old, nil)
        }
        try body()
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) throws {
        guard let start = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = writeFile(fd, start + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR {
                    try Self.stopIfAsked()
                    continue
                }
                throw failure(errno)
            }
            offset += n
        }
    }

    /// The staged bytes into the destination: truncated only once they are all staged.
    private func copy(from staging: Int32, to destination: Int32) throws {
        guard lseek(staging, 0, SEEK_SET) == 0, ftruncate(destination, 0) == 0 else { throw failure(errno) }
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            let n = chunk.withUnsafeMutableBytes { buffer in buffer.baseAddress.map { readFile(staging, $0, buffer.count) } ?? 0 }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            if n == 0 { break }
            try chunk.withUnsafeBytes { try writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<n]), to: destination) }
        }
    }

    private func failure(_ code: Int32) -> StoreError {
        .cannotWrite(operation: operation, path: path, reason: Self.reason(code))
    }

    /// strerror's text in lower case, as the rest of Quarry's messages are.
    package static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    private static func openChecked(_ path: String, _ flags: Int32, _ fail: (Int32) -> StoreError) throws -> Int32 {
        while true {
            let fd = openFile(path, flags | O_CLOEXEC, 0o666)
            if fd >= 0 { return fd }
            if errno != EINTR { throw fail(errno) }
            // A FIFO nobody reads blocks open(2), as with `>`; Ctrl-C (or the deadline) ends the wait.
            try stopIfAsked()
        }
    }

    /// Ctrl-C or a script's deadline, as an import or a fetch reports them.
    private static func stopIfAsked() throws {
        if quarry_should_stop() != 0 { throw StoreError.stopped() }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A new file `.<name>.quarry-XXXXXXXX` in the folder of `path`, open for reading and writing.
    private static func makeTemporary(
        beside path: String, permissions: mode_t,
        _ fail: (Int32) -> StoreError
    ) throws -> (String, Int32) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let suffix = String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 16)
            let name = (folder as NSString).appendingPathComponent("." + url.lastPathComponent + ".quarry-" + suffix)
            let fd = openFile(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
            if fd >= 0 { return (name, fd) }
            if errno != EEXIST && errno != EINTR { throw fail(errno) }
        }
        throw fail(EEXIST)
    }

    /// An unnamed temporary (made, then unlinked at once) beside `path`, or in the system's
    /// temporary folder when that folder takes no new file (`>` needs only the file to be
    /// writable, not its folder).
    private static func makeStagingFile(beside path: String, _ fail: (Int32) -> StoreError) throws -> Int32 {
        let elsewhere = (NSTemporaryDirectory() as NSString).appendingPathComponent("quarry-staging")
        var firstError: StoreError?
        for place in [path, elsewhere] {
            do {
                let (name, fd) = try makeTemporary(beside: place, permissions: 0o600, fail)
                _ = unlink(name)
                return fd
            } catch {
                if firstError == nil { firstError = error as? StoreError }
            }
        }
        throw firstError ?? fail(EACCES)
    }
}

// The system calls under names of their own: inside OutputFile, `write` and `open` would
// find its methods first.
private func openFile(_ path: String, _ flags: Int32, _ permissions: mode_t) -> Int32 { open(path, flags, permissions) }
private func closeFile(_ fd: Int32) -> Int32 { close(fd) }
private func writeFile(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
private func readFile(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, bytes, count) }

import CQuarrySignals
import Foundation
import QuarryModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stream that reads once (a FIFO, a pipe, /dev/stdin, a terminal) copied a chunk at a
/// time to a temporary file, which the import then reads as often as it reads a plain
/// file: the sample and every row of a CSV file (again after a widening), the inference
/// pass and the rows of a JSON document.
///
/// Why a copy on disk rather than types inferred from a bounded prefix: inference needs a
/// second pass (JSON's types come from every element; a CSV cell after the sample may
/// widen a column and start the import again), and a prefix would give a stream other
/// types, or other errors, than the same bytes in a plain file. The copy keeps the answers
/// identical to the plain file's and memory at one chunk, whatever the stream's length;
/// it costs disk space in $TMPDIR (else /tmp) as large as the stream, and a stream larger
/// than what that space can spare is refused with a line. Before this, the stream was
/// kept in memory: 400 MB from a FIFO took 535 MB, and an endless one ended the process.
///
/// The file is unlinked as soon as it is made, so nothing is left behind however the
/// process ends. Ctrl-C and --timeout are asked between chunks (and while a read waits),
/// before the import has written anything: the store is as it was.
final class ImportSpool {
    /// The copy, unlinked; closed when the spool is freed.
    private let descriptor: Int32
    let path: String
    /// Where the copy is: $TMPDIR, else /tmp.
    private let folder: String
    /// The stream's length in bytes.
    private(set) var size = 0
    /// The most bytes of the stream held in memory at once while copying: one chunk,
    /// whatever the stream's length (tests check it).
    private(set) var largestHeld = 0

    /// Copies what `source` has left to a new temporary file, to its end.
    init(copying source: FileSource) throws {
        path = source.path
        folder = Self.temporaryFolder
        descriptor = try Self.makeTemporaryFile(in: folder, for: source.path)
        do {
            var chunk = [UInt8](repeating: 0, count: CSVReader.chunkSize)
            while true {
                if quarry_should_stop() != 0 { throw StoreError.stopped() }
                let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
                if n == 0 { break }
                largestHeld = max(largestHeld, n)
                // Every 64 MB: an endless stream must not fill the disk other programs use.
                if size % (64 << 20) + n > 64 << 20 || size == 0 { try checkSpace() }
                try chunk.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                size += n
            }
        } catch {
            _ = close(descriptor)
            throw error
        }
    }

    deinit { _ = close(descriptor) }

    /// A new source over the copy from its first byte; several may read at once.
    func source() throws -> ByteSource {
        let copy = dup(descriptor)
        guard copy >= 0 else { throw failure(errno) }
        return FileSource(positionalDescriptor: copy, path: path)
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count, let base = bytes.baseAddress {
            let n = writeFile(descriptor, base + done, bytes.count - done)
            if n > 0 {
                done += n
                continue
            }
            if n < 0, errno == EINTR {
                if quarry_should_stop() != 0 { throw StoreError.stopped() }
                continue
            }
            throw failure(n < 0 ? errno : ENOSPC)
        }
    }

    /// Refuses to go on when the copy would leave its file system with less than a
    /// twentieth of its size free (at most 1 GB kept): an endless stream (`yes`,
    /// /dev/zero) stops here with a line, before other programs run out of space.
    private func checkSpace() throws {
        var info = statvfs()
        guard fstatvfs(descriptor, &info) == 0 else { return }
        let unit = UInt64(info.f_frsize == 0 ? info.f_bsize : info.f_frsize)
        let available = UInt64(info.f_bavail) * unit
        let total = UInt64(info.f_blocks) * unit
        let kept = min(total / 20, 1 << 30)
        guard available < kept + UInt64(64 << 20) else { return }
        throw StoreError.importFailed(
            path: path, line: nil,
            reason: "the stream is too large to copy to a temporary file (\(size >> 20) MB copied, \(available >> 20) MB left in \(folder))")
    }

    private func failure(_ code: Int32) -> StoreError {
        .importFailed(path: path, line: nil, reason: "cannot copy the stream to a temporary file: \(OutputFile.reason(code))")
    }

    private static var temporaryFolder: String {
        ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// A new file in `folder`, unlinked at once.
    private static func makeTemporaryFile(in folder: String, for path: String) throws -> Int32 {
        var template = Array((folder.hasSuffix("/") ? folder : folder + "/").utf8CString.dropLast()) + Array("quarry-import-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else {
            throw StoreError.importFailed(
                path: path, line: nil,
                reason: "cannot copy the stream to a temporary file in \(folder): \(OutputFile.reason(errno))")
        }
        _ = template.withUnsafeBufferPointer { $0.baseAddress.map { unlink($0) } }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }
}

// write(2) under a name of its own: inside ImportSpool, `write` is its method.
private func writeFile(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CQuarrySignals
import Foundation
import GRDB

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
/// than that space is refused with "no space left on device". Before this, the stream was
/// kept in memory: 400 MB from a FIFO took 535 MB, and an endless one ended the process.
///
/// The file is unlinked as soon as it is made, so nothing is left behind however the
/// process ends. Ctrl-C and --timeout are asked between chunks (and while a read waits),
/// before the import has written anything: the store is as it was.
final class ImportSpool {
    /// The copy, unlinked; closed when the spool is freed.
    private let descriptor: Int32
    let path: String
    /// The stream's length in bytes.
    private(set) var size = 0
    /// The most bytes of the stream held in memory at once while copying: one chunk,
    /// whatever the stream's length (tests check it).
    private(set) var largestHeld = 0

    /// Copies what `source` has left to a new temporary file, to its end.
    init(copying source: FileSource) throws {
        path = source.path
        descriptor = try Self.makeTemporaryFile(for: source.path)
        do {
            var chunk = [UInt8](repeating: 0, count: CSVReader.chunkSize)
            while true {
                if quarry_should_stop() != 0 { throw StoreError(DatabaseError(resultCode: .SQLITE_INTERRUPT)) }
                let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
                if n == 0 { break }
                largestHeld = max(largestHeld, n)
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
            if n > 0 { done += n; continue }
            if n < 0, errno == EINTR {
                if quarry_should_stop() != 0 { throw StoreError(DatabaseError(resultCode: .SQLITE_INTERRUPT)) }
                continue
            }
            throw failure(n < 0 ? errno : ENOSPC)
        }
    }

    private func failure(_ code: Int32) -> StoreError {
        .importFailed(path: path, line: nil, reason: "cannot copy the stream to a temporary file: \(OutputFile.reason(code))")
    }

    /// A new file in $TMPDIR (else /tmp), unlinked at once.
    private static func makeTemporaryFile(for path: String) throws -> Int32 {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder.hasSuffix("/") ? folder : folder + "/").utf8CString.dropLast()) + Array("quarry-import-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else {
            throw StoreError.importFailed(path: path, line: nil,
                reason: "cannot copy the stream to a temporary file in \(folder): \(OutputFile.reason(errno))")
        }
        _ = template.withUnsafeBufferPointer { $0.baseAddress.map { unlink($0) } }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }
}

// write(2) under a name of its own: inside ImportSpool, `write` is its method.
private func writeFile(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }

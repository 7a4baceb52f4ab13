#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CQuarrySignals
import Foundation
import GRDB

/// Reads that may wait for a writer (a FIFO, a pipe, a terminal), bounded by Ctrl-C and
/// the --timeout deadline. A process waiting in read(2) uses no CPU, so neither Lua's
/// hook nor the hard stop's CPU budget sees it; and a signal alone is not enough, since
/// it may reach another thread or come between two reads. So the wait is poll(2) in
/// slices of 50 ms, with `quarry_should_stop` asked after each: the read ends within a
/// slice of the deadline, however busy the machine.
enum BlockedRead {
    /// Returns once `fd` has bytes, its end, or an error to read; throws the interrupt
    /// ("interrupted!", or the timeout's message once the deadline passed) when work must stop.
    static func waitReadable(_ fd: Int32) throws {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            if quarry_should_stop() != 0 { throw StoreError(DatabaseError(resultCode: .SQLITE_INTERRUPT)) }
            let n = poll(&entry, 1, 50)
            if n > 0 { return }
            // 0: the slice passed; EINTR: a signal (Ctrl-C, the deadline's alarm) came. Ask again.
            if n < 0, errno != EINTR, errno != EAGAIN { return }  // read(2) then says what is wrong
        }
    }

    /// The whole of the file at `path` (a plain file, FIFO or device), read once: a FIFO
    /// cannot be read a second time, so its first bytes are not read apart from the rest.
    /// At most `limit` bytes when given. Nil when it cannot be opened or read; throws the
    /// interrupt as `waitReadable` does.
    static func contents(of path: String, limit: Int = .max) throws -> Data? {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { return nil }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return nil }
        let regular = info.st_mode & S_IFMT == S_IFREG
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while data.count < limit {
            if !regular { try waitReadable(fd) }
            let want = min(chunk.count, limit - data.count)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, want) }
            if n > 0 { data.append(contentsOf: chunk[0..<n]); continue }
            if n == 0 { return data }
            if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK {
                if quarry_should_stop() != 0 { throw StoreError(DatabaseError(resultCode: .SQLITE_INTERRUPT)) }
                continue
            }
            return nil
        }
        return data
    }
}

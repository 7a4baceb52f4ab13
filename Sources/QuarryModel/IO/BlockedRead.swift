import CQuarrySignals
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads that may wait for a writer (a FIFO, a pipe, a terminal), bounded by Ctrl-C and
/// the --timeout deadline. A process waiting in read(2) uses no CPU, so neither Lua's
/// hook nor the hard stop's CPU budget sees it; and a signal alone is not enough, since
/// it may reach another thread or come between two reads. So the wait is poll(2) in
/// slices of 50 ms, with `quarry_should_stop` asked after each: the read ends within a
/// slice of the deadline, however busy the machine.
package enum BlockedRead {
    /// Returns once `fd` has bytes, its end, or an error to read; throws the interrupt
    /// ("interrupted!", or the timeout's message once the deadline passed) when work must stop.
    package static func waitReadable(_ fd: Int32) throws {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            if quarry_should_stop() != 0 { throw StoreError.stopped() }
            let n = poll(&entry, 1, 50)
            if n > 0 { return }
            // 0: the slice passed; EINTR: a signal (Ctrl-C, the deadline's alarm) came. Ask again.
            if n < 0, errno != EINTR, errno != EAGAIN { return } // read(2) then says what is wrong
        }
    }
}

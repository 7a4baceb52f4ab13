import Foundation

/// Runs blocking work (a server's start, psql to its end) on a thread of its own and
/// awaits it, so that it holds none of the test runner's pool threads.
///
/// Why: the pool has as many threads as cores (two here), and every async test shares
/// them. A test blocked for seconds in `initdb` or in `CREATE DATABASE` on one of them,
/// with another blocked likewise, stopped every other test of the run meanwhile.
public enum OffThePool {
    public static func run<T>(_ work: @escaping () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.start()
        }
    }
}

import CQuarrySignals
import Foundation
import QuarryModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An import's two threads: a parser thread reads the file into `CellBatch`es and the
/// thread that holds the SQLite connection inserts them, so reading and converting cells
/// runs beside SQLite's inserts. The parser thread runs no Lua and no SQLite. A fixed
/// set of batches goes round (parsed, inserted, handed back), so memory stays at
/// `slots` batches whatever the file's size. The parser's error (a bad cell, a column
/// to widen, an interrupt) reaches the inserting side after every batch before it, as
/// one thread reading the rows in order would have met it.
package final class ImportPipeline {
    private let condition = NSCondition()
    private var free: [CellBatch]
    private var full: [CellBatch] = []
    private var finished = false
    private var failure: Error?
    private var cancelled = false
    private var thread: pthread_t?

    /// The file imported, for the errors the parser raises.
    let path: String

    /// What the parser throws when `take` finds the inserting side gone; nobody hears it.
    struct Stopped: Error {}

    /// Where the nil cells of each batch sent are counted.
    var tally: NilTally?

    init(path: String, width: Int, rowsPerBatch: Int, slots: Int) {
        self.path = path
        free = (0..<slots).map { _ in CellBatch(width: width, capacity: rowsPerBatch) }
    }

    /// Starts `produce` on the parser thread; it fills batches taken from `take` and
    /// gives each to `send`. Call `finish` (the inserting side) on every way out.
    func start(_ produce: @escaping (ImportPipeline) throws -> Void) throws {
        let box = Unmanaged.passRetained(
            ProducerBox { [self] in
                do {
                    try produce(self)
                    end(nil)
                } catch {
                    end(error)
                }
            })
        var handle = pthread_t()
        let code = pthread_create(
            &handle, nil,
            { raw in
                guard let raw else { return nil }
                // Signals go to the thread that holds the connection (Ctrl-C stops the
                // inserts there), never to this one.
                var all = sigset_t()
                sigfillset(&all)
                pthread_sigmask(SIG_BLOCK, &all, nil)
                let box = Unmanaged<ProducerBox>.fromOpaque(raw).takeRetainedValue()
                box.body()
                return nil
            }, box.toOpaque())
        guard code == 0 else {
            box.release()
            throw StoreError.importFailed(path: path, line: nil, reason: "cannot start the parser thread: \(OutputFile.reason(code))")
        }
        thread = handle
    }

    // MARK: The parser thread

    /// An empty batch to fill, waiting while every batch is in use; nil once the
    /// inserting side stopped (the parser then returns).
    func take() -> CellBatch? {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty, !cancelled { condition.wait() }
        if cancelled { return nil }
        let batch = free.removeLast()
        batch.reset()
        return batch
    }

    /// Hands a filled batch to the inserting side.
    func send(_ batch: CellBatch) {
        condition.lock()
        defer { condition.unlock() }
        tally?.add(batch)
        full.append(batch)
        condition.broadcast()
    }

    private func end(_ error: Error?) {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        failure = error
        condition.broadcast()
    }

    /// Whether the inserting side stopped: the parser checks between rows it reads ahead.
    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    // MARK: The inserting thread

    /// The next filled batch; nil after the last. Throws the parser's error once every
    /// batch before it was taken, and an interrupt (Ctrl-C) while waiting.
    package func next() throws -> CellBatch? {
        condition.lock()
        defer { condition.unlock() }
        while full.isEmpty, !finished {
            // Woken now and then to hear Ctrl-C while the parser works.
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
            if quarry_should_stop() != 0 { throw StoreError.stopped() }
        }
        if !full.isEmpty { return full.removeFirst() }
        if let failure { throw failure }
        return nil
    }

    /// Gives a batch that was inserted back to the parser.
    func recycle(_ batch: CellBatch) {
        condition.lock()
        defer { condition.unlock() }
        free.append(batch)
        condition.broadcast()
    }

    /// Stops the parser (if it still runs) and waits for its thread to end: every way
    /// out of an import calls it, so no parser outlives its import.
    package func finish() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
    }
}

private final class ProducerBox {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

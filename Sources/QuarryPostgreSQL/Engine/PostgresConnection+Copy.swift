import CQuarryPQ
import CQuarrySignals
import Foundation
import QuarryModel
import QuarryStore

/// `COPY ... FROM STDIN`: rows sent to the server a chunk at a time, as psql's `\copy`
/// sends them, so an import holds one chunk in memory whatever the file's size.
extension PostgresConnection {
    /// A COPY the server refused: its message, and the line of the data it was reading
    /// (1 for the first row sent) when its context names one.
    struct CopyFailure: Error {
        package let sqlState: String?
        package let message: String
        /// The constraint the rows broke, when they broke one.
        package let violation: ConstraintViolation?
        package let line: Int?
        /// The trigger's function the refusal came from (`PostgresFailure.routine`).
        package var routine: String? = nil
    }

    /// Runs `sql`, a `COPY ... FROM STDIN`, sending what `fill` appends to its buffer each
    /// time it is called, until it returns false; returns how many rows the server copied.
    /// `fill` may send what it wrote so far with the `flush` it is given (a batch of long
    /// rows), so the buffer stays small; the data goes in pieces of at most a MiB, as
    /// libpq's length is 32 bits and the server's message size is bounded.
    /// When `fill` throws, or Ctrl-C or `--timeout` asks to stop, the COPY is ended with an
    /// error, so the server keeps none of its rows, and that error is thrown.
    func copyIn(_ sql: String, fill: (inout [UInt8], _ flush: (inout [UInt8]) throws -> Void) throws -> Bool) throws -> Int {
        let table = pq.pointee
        guard let getResult = table.getResult, let clear = table.clear,
            let put = table.putCopyData, let end = table.putCopyEnd, let status = table.resultStatus
        else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: "libpq was not loaded")
        }
        try send(sql, [])
        waitWhileBusy()
        guard let started = getResult(handle) else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: Self.text(table.errorMessage?(handle)) ?? "no result")
        }
        guard status(started) == PGRES_COPY_IN else {
            defer {
                clear(started)
                while let more = getResult(handle) { clear(more) }
            }
            // A lock wait that Ctrl-C or --timeout cancelled, as any statement says it.
            if cancelled, status(started) == PGRES_FATAL_ERROR { throw StoreError.interrupted(.now(stopping: .serverStatement)) }
            try check(started, sql: sql)
            throw StoreError.postgres(sqlState: nil, sql: sql, message: "the server did not start the COPY")
        }
        clear(started)
        /// The server refused data: its reason comes with the COPY's result, read below.
        struct Refused: Error {}
        let handle = self.handle
        func flush(_ buffer: inout [UInt8]) throws {
            let piece = 1 << 20
            try buffer.withUnsafeBufferPointer { b in
                guard let base = b.baseAddress else { return }
                var offset = 0
                while offset < b.count {
                    let count = min(piece, b.count - offset)
                    let sent = (base + offset).withMemoryRebound(to: CChar.self, capacity: count) { put(handle, $0, Int32(count)) }
                    if sent != 1 { throw Refused() }
                    offset += count
                }
            }
            buffer.removeAll(keepingCapacity: true)
        }
        var failure: Error?
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 17)
        do {
            var more = true
            while more {
                more = try fill(&buffer, flush)
                try flush(&buffer)
                if quarry_should_stop() != 0 { throw StoreError.stopped() }
            }
        } catch is Refused {
        } catch {
            failure = error
        }
        // Ended with an error message, the server discards every row it took.
        _ = end(handle, failure == nil ? nil : "the import stopped")
        waitWhileBusy()
        let last = lastResult()
        defer { if let last { clear(last) } }
        if let failure { throw failure }
        let lost = Self.text(table.errorMessage?(handle)) ?? "the connection to the server was lost"
        guard let last else { throw StoreError.postgres(sqlState: nil, sql: sql, message: lost) }
        if cancelled, status(last) == PGRES_FATAL_ERROR { throw StoreError.interrupted(.now(stopping: .serverStatement)) }
        guard status(last) == PGRES_COMMAND_OK else {
            let field = { (code: UInt8) in Self.text(table.resultErrorField?(last, Int32(code))) }
            // A uniqueness or NOT NULL violated, in SQLite's words as a save says it.
            let violation = field(UInt8(ascii: "C")).flatMap { code in
                Self.violation(code, sql: sql, said: field(UInt8(ascii: "M")) ?? "") { letter in field(UInt8(truncatingIfNeeded: letter.value)) }
            }
            let constraint = violation.flatMap { $0.sqliteWords != nil ? StoreError.constraint($0).message : nil }
            let message = constraint ?? [field(UInt8(ascii: "M")), field(UInt8(ascii: "D"))].compactMap { $0 }.joined(separator: ": ")
            // No message of the server's: libpq's own (the connection closed).
            throw CopyFailure(
                sqlState: field(UInt8(ascii: "C")), message: message.isEmpty ? lost : message, violation: violation,
                line: field(UInt8(ascii: "W")).flatMap(Self.copyLine), routine: PostgresFailure.routine(inContext: field(UInt8(ascii: "W"))))
        }
        return Self.text(table.cmdTuples?(last)).flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// The line a COPY error's context names ("COPY flights, line 12, column carrier: ...").
    /// The context may name other lines first ("JSON data, line 1: ..."): the COPY's is
    /// the last part, which starts with "COPY ".
    static func copyLine(_ context: String) -> Int? {
        guard let copy = context.range(of: "COPY ", options: .backwards),
            let range = context.range(of: ", line ", range: copy.upperBound..<context.endIndex)
        else { return nil }
        return Int(context[range.upperBound...].prefix { $0.isNumber })
    }
}

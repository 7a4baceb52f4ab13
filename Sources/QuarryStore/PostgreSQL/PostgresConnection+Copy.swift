import CQuarryPQ
import CQuarrySignals
import GRDB

/// `COPY ... FROM STDIN`: rows sent to the server a chunk at a time, as psql's `\copy`
/// sends them, so an import holds one chunk in memory whatever the file's size.
extension PostgresConnection {
    /// A COPY the server refused: its message, and the line of the data it was reading
    /// (1 for the first row sent) when its context names one.
    struct CopyFailure: Error {
        let sqlState: String?
        let message: String
        let line: Int?
    }

    /// Runs `sql`, a `COPY ... FROM STDIN`, sending what `fill` appends to its buffer each
    /// time it is called, until it returns false; returns how many rows the server copied.
    /// When `fill` throws, or Ctrl-C or `--timeout` asks to stop, the COPY is ended with an
    /// error, so the server keeps none of its rows, and that error is thrown.
    func copyIn(_ sql: String, fill: (inout [UInt8]) throws -> Bool) throws -> Int {
        let table = pq.pointee
        guard let getResult = table.getResult, let clear = table.clear,
              let put = table.putCopyData, let end = table.putCopyEnd, let status = table.resultStatus else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: "libpq was not loaded")
        }
        try send(sql, [])
        waitWhileBusy()
        guard let started = getResult(handle) else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: Self.text(table.errorMessage?(handle)) ?? "no result")
        }
        guard status(started) == PGRES_COPY_IN else {
            defer { clear(started); while let more = getResult(handle) { clear(more) } }
            try check(started, sql: sql)
            throw StoreError.postgres(sqlState: nil, sql: sql, message: "the server did not start the COPY")
        }
        clear(started)
        var failure: Error?
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 17)
        do {
            var more = true
            while more {
                buffer.removeAll(keepingCapacity: true)
                more = try fill(&buffer)
                let sent: Int32 = buffer.withUnsafeBufferPointer { b in
                    guard let base = b.baseAddress, b.count > 0 else { return 1 }
                    return base.withMemoryRebound(to: CChar.self, capacity: b.count) { put(handle, $0, Int32(b.count)) }
                }
                // A refusal comes with the COPY's result, read below.
                if sent != 1 { break }
                if quarry_should_stop() != 0 { throw StoreError(DatabaseError(resultCode: .SQLITE_INTERRUPT)) }
            }
        } catch {
            failure = error
        }
        // Ended with an error message, the server discards every row it took.
        _ = end(handle, failure == nil ? nil : "the import stopped")
        waitWhileBusy()
        var last: OpaquePointer?
        while let next = getResult(handle) {
            if let previous = last { clear(previous) }
            last = next
        }
        defer { if let last { clear(last) } }
        if let failure { throw failure }
        guard let last else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: Self.text(table.errorMessage?(handle)) ?? "no result")
        }
        if cancelled, status(last) == PGRES_FATAL_ERROR { throw StoreError(DatabaseError(resultCode: .SQLITE_INTERRUPT)) }
        guard status(last) == PGRES_COMMAND_OK else {
            let field = { (code: UInt8) in Self.text(table.resultErrorField?(last, Int32(code))) }
            let message = [field(UInt8(ascii: "M")), field(UInt8(ascii: "D"))].compactMap { $0 }.joined(separator: ": ")
            throw CopyFailure(sqlState: field(UInt8(ascii: "C")), message: message.isEmpty ? "the COPY failed" : message,
                              line: field(UInt8(ascii: "W")).flatMap(Self.copyLine))
        }
        return Self.text(table.cmdTuples?(last)).flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// The line a COPY error's context names ("COPY flights, line 12, column carrier: ...").
    static func copyLine(_ context: String) -> Int? {
        guard let range = context.range(of: ", line ") else { return nil }
        return Int(context[range.upperBound...].prefix { $0.isNumber })
    }
}

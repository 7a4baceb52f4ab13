import CQuarrySignals
import QuarryEngine
import QuarryModel

extension StoreConnection {
    /// Streams the rows of one SELECT into `file` through `writer`: a row is read from
    /// SQLite's statement and written as it comes, with no object, `Value` or string made
    /// for a cell, so memory stays at the file's chunk however many rows there are.
    /// Column `firstColumn + i` holds `attributes[i]`, read as that attribute's type reads
    /// it (booleans and dates kept as integers or reals, dates as text in foreign files).
    /// Returns how many rows were written.
    public func streamRows(
        _ sql: String, arguments: [Value], attributes: [AttributeDescription], firstColumn: Int32,
        writer: inout TableWriter, file: OutputFile
    ) throws -> Int {
        let types = attributes.map(\.type)
        // The engine's own bulk path where it has one (PostgreSQL's COPY); otherwise the
        // rows are streamed one at a time below.
        if !isClosed,
            let copied = try engine.exportRows(
                sql, arguments: arguments, types: types, firstColumn: Int(firstColumn),
                writer: &writer, file: file)
        {
            return copied
        }
        var count = 0
        // A write error is the file's, not SQLite's: it comes out of the stepping as it is.
        try forEachStatementRow(sql, arguments: arguments, streamed: true) { statement in
            if count % 4096 == 0, quarry_should_stop() != 0 { throw StoreError.stopped() }
            try file.append { out in
                writer.beginRow(into: &out)
                statement.writeColumns(from: firstColumn, as: types, writer: &writer, into: &out)
                writer.endRow(into: &out)
            }
            count += 1
        }
        return count
    }

    // The cell writers are inlinable so that each engine's cursor, in its own target,
    // gets them specialized for its type: across the target edge they otherwise ran
    // through witness thunks at every cell (3-4% more instructions per exported row).
    @inlinable
    package static func writeColumn<Cursor: RowCursor>(
        _ statement: Cursor, _ column: Int32, as type: AttributeType,
        writer: inout TableWriter, into out: inout [UInt8]
    ) {
        switch statement.type(column) {
        case .null: writer.null(into: &out)
        case .integer: writeInteger(statement.int64(column), as: type, writer: &writer, into: &out)
        case .real: writeReal(statement.double(column), as: type, writer: &writer, into: &out)
        case .blob: writer.blob(statement.blob(column), into: &out)
        case .text: writeText(statement.text(column), as: type, writer: &writer, into: &out)
        }
    }

    // A cell by its storage class and its attribute's type. PostgreSQL's COPY export
    // (`PostgresCopyExport`) writes through these too, so both paths write a value alike.

    /// An integer cell (a PostgreSQL boolean is one, as SQLite stores it).
    @inlinable
    package static func writeInteger(_ i: Int64, as type: AttributeType, writer: inout TableWriter, into out: inout [UInt8]) {
        switch type {
        case .bool: writer.bool(i != 0, into: &out)
        case .date: writer.date(Double(i), into: &out)
        case .double, .decimal: writer.real(Double(i), into: &out)
        default: writer.integer(i, into: &out)
        }
    }

    /// A real cell (a PostgreSQL timestamp is one: seconds since 1970).
    @inlinable
    package static func writeReal(_ d: Double, as type: AttributeType, writer: inout TableWriter, into out: inout [UInt8]) {
        switch type {
        case .bool: writer.bool(d != 0, into: &out)
        case .date: writer.date(d, into: &out)
        default: writer.real(d, into: &out)
        }
    }

    /// A text cell: a date attribute's ISO 8601 text is written as that date, a decimal
    /// attribute's (a PostgreSQL numeric, exact) as the number it is, never quoted as text.
    @inlinable
    package static func writeText(_ bytes: UnsafeBufferPointer<UInt8>, as type: AttributeType, writer: inout TableWriter, into out: inout [UInt8]) {
        if type == .date, let seconds = Value.parseISO8601(bytes: bytes) {
            writer.date(seconds, into: &out)
        } else if type == .decimal, case let text = String(decoding: bytes, as: UTF8.self), DecimalText.isDecimal(text) {
            writer.decimal(text, into: &out)
        } else {
            writer.text(bytes, into: &out)
        }
    }
}

extension RowCursor {
    /// Made for each cursor type (its witness), so the cells are read by direct calls.
    @inlinable
    package func writeColumns(from firstColumn: Int32, as types: [AttributeType], writer: inout TableWriter, into out: inout [UInt8]) {
        for (i, type) in types.enumerated() {
            StoreConnection.writeColumn(self, firstColumn + Int32(i), as: type, writer: &writer, into: &out)
        }
    }
}

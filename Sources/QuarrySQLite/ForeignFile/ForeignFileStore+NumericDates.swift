import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Date columns of a file Quarry did not create that keep milliseconds or Julian days are
/// read as such: their format, as the values at each end of the table show it (the sample
/// a write reads, `ColumnFormats.format(of:)`), is noted in the table's `EntityStorage`
/// when it is opened, and every read and comparison turns those numbers into Unix seconds.
extension ForeignFileStore {
    package static func numericDates(
        of table: String, key: String, attributes: [AttributeDescription],
        in session: StoreSession
    ) -> [String: EntityStorage.NumericDateScale] {
        let dates = attributes.filter { $0.type == .date }
        guard !dates.isEmpty else { return [:] }
        let columns = dates.map { quoteIdentifier($0.name) }.joined(separator: ", ")
        let ends = ["ASC", "DESC"].map { order in
            "SELECT \(columns) FROM \(quoteIdentifier(table)) ORDER BY \(quoteIdentifier(key)) \(order) LIMIT \(ColumnFormats.formatScan)"
        }
        // A file that cannot be read this way reads its numbers as Unix seconds, as before.
        guard let (first, last) = try? session.connection.read({ db in (try Row.fetchAll(db, sql: ends[0]), try Row.fetchAll(db, sql: ends[1])) })
        else {
            return [:]
        }
        var scales: [String: EntityStorage.NumericDateScale] = [:]
        for (i, attribute) in dates.enumerated() {
            func sample(_ rows: [Row]) -> [Value] {
                Array(rows.lazy.map { Value($0[i] as DatabaseValue) }.filter { !$0.isNull }.prefix(ColumnFormats.formatSample / 2))
            }
            switch ColumnFormat.detect(.date, sample: sample(first) + sample(last)) {
            case .format(.unixMilliseconds): scales[attribute.name] = .milliseconds
            case .format(.julianDay): scales[attribute.name] = .julianDay
            default: break
            }
        }
        return scales
    }
}

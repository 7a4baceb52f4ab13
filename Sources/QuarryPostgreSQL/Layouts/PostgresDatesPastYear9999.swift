import QuarryModel
import QuarryStore

/// Issue 61, item 6: a date within the years 0001 to 9999 that the server rounds to its
/// column's precision into the year 10000 (`timestamp(0)` makes 9999-12-31T23:59:59.999
/// 10000-01-01), which no reader takes for a date. Every write path that sends one (a
/// save, `updateall`) reads the row as the server kept it and refuses in one line before
/// the commit, so nothing of the write is kept.
enum DatesPastYear9999 {
    /// Whether a value sent is a date in the last second of the year 9999, which a column
    /// keeping fewer fraction digits (`timestamp(0)`) rounds into the year 10000.
    static func mayRound(_ values: [Value]) -> Bool {
        values.contains { if case .date(let seconds) = $0 { return seconds > Value.dateRange.upperBound.rounded(.down) } else { return false } }
    }

    /// Refuses when a date of `stored` (a row of `entity` as the server keeps it) is past
    /// the years a reader takes while `sent` gave it a date within them; `operation`
    /// names the write path where the caller's error does not.
    static func refuse(_ stored: [String: Value], _ entity: EntityDescription, operation: String? = nil, sent: (String) -> Value) throws {
        for name in entity.attributeNames {
            guard case .date(let kept)? = stored[name], !Value.dateRange.contains(kept),
                case .date(let given) = sent(name), Value.dateRange.contains(given)
            else { continue }
            throw StoreError.validation(
                message: (operation.map { "\($0): " } ?? "")
                    + "\(entity.name).\(name) keeps fewer fraction digits than \(Value.date(given).displayString), "
                    + "which the server rounds into the year 10000, past the dates any reader takes; nothing was written")
        }
    }
}

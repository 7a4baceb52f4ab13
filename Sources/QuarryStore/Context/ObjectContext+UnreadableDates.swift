import QuarryModel

/// Text a declared date layout cannot read (`2025-05-2025` among ISO dates) is no date:
/// no date comparison takes it, where before it turned into nil without a word. `format()`
/// says how many such values the column holds, with one and its row, or refuses the layout
/// when most of the column's values are none.
extension ObjectContext {
    /// What `format()` finds of text that reads as no date in `column` under `format`.
    struct UnreadableDates {
        var count: Int
        var stored: Int
        var example: Value
        var key: Value
    }

    /// The values of `column` (not NULL) that read as no date once `format`, an ISO text
    /// layout or a time unit, is declared (text that is no ISO date, bytes); nil when there
    /// are none, or the format is no format of dates. Two reads: the counts in one scan of
    /// the column, and the first such row's value by its key.
    func unreadableDates(_ entity: EntityDescription, _ attribute: AttributeDescription, as format: ColumnFormat) -> UnreadableDates? {
        guard format.isISOText || format.isNumberTime else { return nil }
        let storage = mapped(entity)
        var date = attribute
        date.type = .date
        guard let unreadable = storage.unreadableDate(storage.table, date) else { return nil }
        let column = "\(storage.table).\(storage.column(attribute.name))"
        let counts =
            "SELECT count(*), count(CASE WHEN \(unreadable) THEN 1 END), min(CASE WHEN \(unreadable) THEN \(storage.key) END) FROM \(storage.table) WHERE \(column) IS NOT NULL"
        guard let row = try? connection.row(counts), row.count == 3, case .integer(let stored) = row[0], case .integer(let count) = row[1], count > 0
        else { return nil }
        let example = (try? connection.row("SELECT \(column) FROM \(storage.table) WHERE \(storage.key) = ?", arguments: [row[2]]))??.first
        return UnreadableDates(count: Int(count), stored: Int(stored), example: example ?? .null, key: row[2])
    }

    /// The note `format()` gives for `found`, or its refusal when most values are no date.
    func unreadableDatesNote(_ found: UnreadableDates, _ entity: EntityDescription, _ column: String, as format: ColumnFormat) throws -> String {
        let shown: String
        if case .text(let text) = found.example { shown = "'\(ErrorRendering.part(text, limit: 40))'" } else { shown = found.example.displayString }
        let row = "\(mapped(entity).keyColumn) \(found.key.displayString)"
        let layout = format.shortName
        // A time unit's column is refused on its numbers (`refuseUnlikelyUnit`); its words
        // are noted only.
        if format.isISOText, found.count * 2 > found.stored {
            throw StoreError.invalidSchema(
                entity: entity.name,
                reason: "\(found.count) of \(found.stored) values of \(entity.name).\(column) are no \(layout) (e.g. \(shown), \(row)): "
                    + "format() declares a layout most of the column's values are in; nothing was declared")
        }
        if found.count == 1 {
            return "note: 1 value of \(entity.name).\(column) is no \(layout) (\(shown), \(row)): it reads as text and no date comparison takes it"
        }
        return "note: \(found.count) values of \(entity.name).\(column) are no \(layout) (e.g. \(shown), \(row)): "
            + "they read as text and no date comparison takes them"
    }
}

extension ColumnFormat {
    /// ISO 8601 text of dates, in any layout.
    var isISOText: Bool {
        if case .isoText = self { return true }
        return false
    }
}

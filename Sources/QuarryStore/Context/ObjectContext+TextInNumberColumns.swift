import QuarryModel

/// A SQLite file's number column may hold text (Anki's `notes.sfld integer`), which a
/// predicate then compares as SQLite does (`EntityStorage.takesText`); most such columns
/// hold numbers only, and a text that spells no number compared with one is a mistake
/// (`duration < 'sixty'` held for every row), refused as on Quarry's own stores.
extension ObjectContext {
    /// Whether the column of `entity`'s attribute `name` holds a value that is no number (a
    /// text or a blob) in any row. Asked only where a predicate compares such a column with
    /// a text that spells no number, so the scan is not paid by any other comparison. Only
    /// `takesText` columns are asked, and those are a SQLite file's: there every number
    /// orders before every text and blob, and `''` stays text against the column's affinity,
    /// so a cell at or after `''` is no number. True when the column cannot be read: the
    /// comparison then goes on as SQLite answers it.
    public func columnHoldsText(_ entity: EntityDescription, _ name: String) -> Bool {
        let storage = mapped(entity)
        guard storage.takesText.contains(name) else { return true }
        let column = storage.column(name)
        guard let rows = try? connection.rows("SELECT 1 FROM \(storage.table) WHERE \(column) >= '' LIMIT 1") else { return true }
        return !rows.isEmpty
    }
}

import Foundation
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

/// What a `takesText` column's cells that are no number hold: text (`''`, `'n/a'`), bytes
/// (a blob: pandas writes numpy's int64 as 8 bytes where it cannot bind it), or both.
/// Notes name them as they are, so 8-byte cells are not called text.
public enum NonNumberCells: Sendable {
    case text
    case bytes
    case textAndBytes
}

extension ObjectContext {
    /// What the cells of the column of `entity`'s attribute `name` that are no number hold,
    /// in one scan of those cells; nil when there is none, the column is no `takesText`
    /// one (a SQLite file's, where every number orders before every text and blob) or it
    /// cannot be read. Asked only when a note is to name such cells.
    public func nonNumberCells(_ entity: EntityDescription, _ name: String) -> NonNumberCells? {
        let storage = mapped(entity)
        guard storage.takesText.contains(name) else { return nil }
        let column = storage.column(name)
        // Text orders before every blob, and x'' is the least blob: the cells at or after
        // '' are text below it and bytes from it on.
        let sql =
            "SELECT count(CASE WHEN \(column) < x'' THEN 1 END), count(CASE WHEN \(column) >= x'' THEN 1 END) "
            + "FROM \(storage.table) WHERE \(column) >= ''"
        guard let row = try? connection.row(sql, arguments: []), row.count == 2, case .integer(let texts) = row[0],
            case .integer(let blobs) = row[1]
        else { return nil }
        switch (texts > 0, blobs > 0) {
        case (true, true): return .textAndBytes
        case (false, true): return .bytes
        case (true, false): return .text
        case (false, false): return nil
        }
    }
}

extension ObjectContext {
    /// A sampled text of the text column `column` that holds a number among other
    /// characters (`(40.68514, -73.95976)`, `$1,200`, `1,300`): SQLite's CAST reads such
    /// text as the number it starts with, 0 for none, so `CAST(x AS REAL) > 40.7`, offered
    /// for it, would count nothing without a word. Nil when the sampled texts are plain
    /// numbers, or hold no digit (words, for which the CAST is offered as for numbers).
    public func textWithANumberInside(_ entity: EntityDescription, _ column: String) -> String? {
        for value in sampledValues(entity, column) {
            guard case .text(let text) = value else { continue }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.contains(where: { $0.isASCII && $0.isNumber }), Double(trimmed) == nil || trimmed.lowercased().hasPrefix("0x") {
                return text
            }
        }
        return nil
    }
}

import Foundation
import QuarryModel

/// A SQLite column that declares no type keeps what was stored, and a CSV import or a
/// GTFS loader stores numbers there as text (`calendar.saturday` holding '1'). SQLite
/// compares such text with a number as text, never equal to it and ordered after every
/// number, so `saturday == 1` counted 0 and `saturday > 0` every row, as in `sqlite3`,
/// without a word. The comparison stays SQLite's; the note that says so asks this.
extension ObjectContext {
    /// A text cell of the column of `entity`'s attribute `name` that spells a number, among
    /// its first text cells; nil when there is none, or the column is no table's column of
    /// no declared type (NUMERIC affinity, `takesText`, already keeps such text a number).
    public func numberWrittenAsText(_ entity: EntityDescription, _ name: String) -> String? {
        let storage = mapped(entity)
        guard storage.untyped.contains(name), !storage.takesText.contains(name) else { return nil }
        let column = storage.column(name)
        // Only a SQLite file's columns are untyped: there every number orders before every
        // text, so the cells at or after '' are text (or bytes, skipped below).
        let sql = "SELECT \(column) FROM \(storage.table) WHERE \(column) >= '' LIMIT 20"
        for row in (try? connection.rows(sql)) ?? [] {
            guard case .text(let text)? = row.first else { continue }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty, let number = Double(trimmed), number.isFinite, !trimmed.lowercased().hasPrefix("0x") { return text }
        }
        return nil
    }
}

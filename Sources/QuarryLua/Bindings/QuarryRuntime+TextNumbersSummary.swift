import Foundation
import QuarryFetch
import QuarryModel
import QuarryStore

/// A census file keeps its populations as text (`sd_pop_2010 TEXT`): summarize's min and
/// max of such a column are text order, as sqlite3's `min()` and `max()` are, so its
/// largest population read `99967` (New York City's 8175133 sorts before it), with no
/// mean to tell it wrong. The statistics stay SQLite's; one note names the text columns
/// whose min and max both read as numbers, and the `sql()` that reads them as numbers.
extension QuarryRuntime {
    func noteTextHoldingNumbers(_ summaries: [AttributeSummary], of entityName: String) {
        guard let entity = try? context.entity(named: entityName), context.mapped(entity).isForeign else { return }
        func number(_ value: Value) -> Bool {
            guard case .text(let text) = value, let n = Double(text.trimmingCharacters(in: .whitespaces)) else { return false }
            return n.isFinite
        }
        // Those whose min and max differ in length first: there text order shows (`0` to
        // `99967`), where codes of one length (`100001` to `999998`) read as they sort.
        func length(_ value: Value) -> Int { if case .text(let text) = value { text.count } else { 0 } }
        // A blank cell (a CSV's missing value) is the least text there is: a min of '' under
        // a max that reads as a number is such a column too (world's IndepYear, '' to 885).
        func blank(_ value: Value) -> Bool {
            guard case .text(let text) = value else { return false }
            return text.allSatisfy { $0 == " " || $0 == "\t" }
        }
        let held = summaries.filter { $0.type == .string && $0.min != $0.max && (number($0.min) || blank($0.min)) && number($0.max) }
        let columns = (held.filter { length($0.min) != length($0.max) } + held.filter { length($0.min) == length($0.max) }).map(\.column)
        guard let first = columns.first else { return }
        let named =
            columns.count <= 3 ? columns.joined(separator: ", ") : columns.prefix(2).joined(separator: ", ") + " and \(columns.count - 2) more"
        // Blanks left out: CAST('' AS REAL) is 0.
        let blanks = held.first { $0.column == first }.map { blank($0.min) } ?? false
        let query =
            "SELECT min(CAST(\(writtenIdentifier(first)) AS REAL)), max(CAST(\(writtenIdentifier(first)) AS REAL)) FROM \(writtenIdentifier(entityName))"
            + (blanks ? " WHERE trim(\(writtenIdentifier(first))) <> ''" : "")
        writeNotice(
            "note: summarize \(entityName): \(named) \(columns.count == 1 ? "is" : "are") text holding numbers: min and max are in text order, "
                + "as sqlite3's are; sql(\(LuaLiteral.string(query))) reads them as numbers")
    }
}

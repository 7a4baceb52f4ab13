import Foundation
import QuarryStore

extension QuarryRuntime {
    /// After an import made `entityName`: each column it kept as text whose cells are
    /// dates in a form that is not ISO 8601 (`10/13/1998`, common in analysts' CSVs) is
    /// said, with the form the values show. Import reads ISO dates alone, so these stay
    /// text, which sorts and compares by the month or day (`polldate >= '10/1/2020'` holds
    /// for 9/30/2003); without a word the column looked like dates and answered as text.
    /// A later sort or group by the column says it again (`noteTextDates`).
    func noteImportedTextDates(_ entityName: String, path: String) {
        guard let entity = try? context.entity(named: entityName) else { return }
        let file = (path as NSString).lastPathComponent
        for attribute in entity.attributes where attribute.type == .string {
            guard let form = context.textDateForm(entity, attribute.name) else { continue }
            writeNotice(
                "import \(file): column \(attribute.name) is text: its cells are \(form.described), which import does not read as dates; "
                    + "as text they sort and compare by their first field, not in time (sql() can put their parts in ISO order with substr())")
        }
    }
}

import QuarryEngine
import QuarryModel

/// A file's date column may keep text that reads as no date (`2025-05-2025` among ISO
/// dates): `comparable` reads it as NULL, which no date comparison takes. What tests for
/// nil, summarize and the notes that count such cells read instead.
extension EntityStorage {
    /// An attribute's column as `== nil` and `!= nil` test it: what is stored. A file's
    /// date column may keep text that reads as no date (`2025-05-2025`): `comparable`
    /// reads it as NULL, which no date comparison takes, but it is a value, not nil, as
    /// the object holds it in memory (as text). Else as `comparable`.
    public func nilTestable(_ qualifier: String, _ attribute: AttributeDescription) -> String {
        guard usesLooseDate(attribute) else { return comparable(qualifier, attribute) }
        let column = withoutNaN("\(qualifier).\(self.column(attribute.name))", attribute.name)
        return converted(column, .looseDatePresence(numericDates[attribute.name]))
    }

    /// Whether `comparable` reads the attribute's column as a date of a file whose columns
    /// keep any value, where a cell may hold text that reads as no date.
    public func usesLooseDate(_ attribute: AttributeDescription) -> Bool {
        isForeign && !columnsHoldTheirTypes && attribute.type == .date && numericDates[attribute.name]?.typed == nil
            && !textCasts.contains(attribute.name) && !numericCasts.contains(attribute.name)
            && !intervalColumns.contains(attribute.name) && !dayColumns.contains(attribute.name)
    }

    /// SQL true for a row whose cell of the date attribute holds a value (not NULL) that
    /// `comparable` reads as no date: left out of every date comparison. Nil where the
    /// column cannot hold one (`usesLooseDate`). `never` (a count that means nil) is no such value.
    public func unreadableDate(_ qualifier: String, _ attribute: AttributeDescription) -> String? {
        guard usesLooseDate(attribute) else { return nil }
        let column = withoutNaN("\(qualifier).\(self.column(attribute.name))", attribute.name)
        let never = numericDates[attribute.name]?.never.map { " AND \(column) <> \($0)" } ?? ""
        return "(\(column) IS NOT NULL\(never) AND \(comparable(qualifier, attribute)) IS NULL)"
    }
}

import QuarryStore

/// A table wider than an object's row can be read: PostgreSQL's target list holds at
/// most 1,664 entries, and an object's row is its key, its columns and each foreign key's
/// column again, and one column more when a link is followed to it (the other row's
/// column naming it), as a SQLite file's row within SQLite's 2,000
/// (`ForeignSchemaReader`). A wider table is read without its last columns, said in one
/// note; its links still read their columns.
extension PostgresStore {
    /// PostgreSQL's most target-list entries (MaxTupleAttributeNumber).
    static let resultColumnLimit = 1664

    /// `relation` with the columns an object's row has room for, and the note saying what
    /// was left out; `linked`: another table's foreign key names it, or it has one.
    static func fitted(_ relation: ForeignSchema.Relation, linked: Bool) -> (relation: ForeignSchema.Relation, note: String?) {
        let room = resultColumnLimit - 1 - relation.foreignKeys.reduce(0) { $0 + $1.columns.count } - (linked ? 1 : 0)
        guard relation.columns.count > room, room > 0 else { return (relation, nil) }
        var fitted = relation
        fitted.columns = Array(relation.columns.prefix(room))
        let left = relation.columns.count - room
        let note =
            "\(relation.name) has \(relation.columns.count) columns, more than one row can hold with its key\(linked ? " and links" : "") "
            + "(PostgreSQL returns at most \(resultColumnLimit)): " + (left == 1 ? "the last is left out" : "the last \(left) are left out")
        return (fitted, note)
    }
}

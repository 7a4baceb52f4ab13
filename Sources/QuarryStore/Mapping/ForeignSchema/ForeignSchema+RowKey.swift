/// What another program's table's rows are known by, decided once for every engine from
/// the schema's description: its own integer key, a number its engine gives each row, or
/// nothing. Each engine answers only which column types are integer keys
/// (`ForeignSchemaEngine.isIntegerKey`) and how rows of each kind are read, as a
/// `RowIdentity` (SQLite: the column, else its rowid, else, without a rowid, the key's
/// hash through a TEMP view of the table;
/// PostgreSQL: the column, else the key's hash through the session's view of the keyed
/// table, a table with no key left out, one that inherits read through its parent).
extension ForeignSchema {
    package enum RowKey: Equatable {
        /// A primary key of one integer column: the rows' own numbers.
        case integerKey(String)
        /// A primary key of another type, or of several columns (`keys`, in key order):
        /// a number the engine gives each row.
        case numbered(keys: [String])
        /// No primary key: a number the engine gives each row unasked, where it gives one.
        case unkeyed
    }

    /// What `relation`'s rows are known by, its integer types as `engine` says.
    package static func rowKey(of relation: Relation, engine: some ForeignSchemaEngine) -> RowKey {
        let keys = relation.primaryKey
        if keys.count == 1, let column = relation.column(keys[0]), engine.isIntegerKey(column) { return .integerKey(column.name) }
        return keys.isEmpty ? .unkeyed : .numbered(keys: keys)
    }
}

/// Where a relationship's links are kept.
public enum RelationshipStorage: Equatable {
    /// To-one: a column of this entity's table holds the destination's key (or the value
    /// of its `targetKey` column).
    case foreignKey(column: String, targetKey: String?)
    /// To-many whose inverse (named `inverse`) is to-one: the destination's column points
    /// back here, at the key or at `ownerKey`.
    case inverseForeignKey(destination: String, column: String, ownerKey: String?, inverse: String)
    /// To-one through a foreign key of several columns: this entity's `columns` hold the
    /// values of the destination's `targetKeys` (its key's columns, or others it holds
    /// unique), matched all together; none when any is NULL (SQL's MATCH SIMPLE).
    case compositeKey(columns: [String], targetKeys: [String])
    /// To-many whose inverse (named `inverse`) is a `compositeKey`: the destination's
    /// `columns` hold this entity's `ownerKeys`.
    case inverseCompositeKey(destination: String, columns: [String], ownerKeys: [String], inverse: String)
    /// To-many with a to-many inverse, or with none: a link table of key pairs.
    case linkTable(table: String, sourceColumn: String, targetColumn: String)
}

extension RelationshipStorage {
    /// The SQL condition joining a row `parent` (of the destination of a to-one kept in
    /// `columns`) to the row `child` whose columns hold its `targetKeys`: true for no row
    /// when any column is NULL, as SQL's MATCH SIMPLE reads such a key.
    public static func compositeCondition(parent: String, targetKeys: [String], child: String, columns: [String]) -> String {
        zip(targetKeys, columns).map { "\(parent).\(quoteIdentifier($0)) = \(child).\(quoteIdentifier($1))" }.joined(separator: " AND ")
    }
}

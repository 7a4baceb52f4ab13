/// Where a relationship's links are kept.
public enum RelationshipStorage: Equatable {
    /// To-one: a column of this entity's table holds the destination's key (or the value
    /// of its `targetKey` column).
    case foreignKey(column: String, targetKey: String?)
    /// To-many whose inverse (named `inverse`) is to-one: the destination's column points
    /// back here, at the key or at `ownerKey`.
    case inverseForeignKey(destination: String, column: String, ownerKey: String?, inverse: String)
    /// To-many with a to-many inverse, or with none: a link table of key pairs.
    case linkTable(table: String, sourceColumn: String, targetColumn: String)
}

/// What happens to related objects when an object is deleted (Core Data's rules).
public enum DeleteRule: String, Codable, Sendable, CaseIterable {
    case nullify, cascade, deny, noaction
}

/// A relationship: to one object or to many, with the inverse Quarry keeps in step.
public struct RelationshipDescription: Codable, Equatable, Sendable {
    public var name: String
    public var destination: String
    public var inverse: String?
    public var isToMany: Bool
    public var deleteRule: DeleteRule

    public init(name: String, destination: String, inverse: String? = nil, isToMany: Bool, deleteRule: DeleteRule = .nullify) {
        self.name = name; self.destination = destination; self.inverse = inverse
        self.isToMany = isToMany; self.deleteRule = deleteRule
    }
}

/// Where a relationship's links are kept.
public enum RelationshipStorage: Equatable {
    /// To-one: a column of this entity's table holds the destination's key.
    case foreignKey(column: String)
    /// To-many whose inverse is to-one: the destination's column points back here.
    case inverseForeignKey(destination: String, column: String)
    /// To-many with a to-many inverse, or with none: a link table of key pairs.
    case linkTable(table: String, sourceColumn: String, targetColumn: String)
}

extension EntityDescription {
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// Attribute and relationship names: every key an object answers to.
    public var keyNames: [String] { attributeNames + relationships.map(\.name) }

    /// To-one relationships, whose foreign-key columns follow the attributes in a row.
    public var toOneRelationships: [RelationshipDescription] { relationships.filter { !$0.isToMany } }
}

/// What happens to related objects when an object is deleted (Core Data's rules).
public enum DeleteRule: String, Encodable, Sendable, CaseIterable {
    case nullify, cascade, deny, noaction
    /// A foreign file's `ON DELETE SET DEFAULT`: the members' column takes the default
    /// the file declares for it (NULL when it declares none).
    case setdefault
}

/// A relationship: to one object or to many, with the inverse Quarry keeps in step.
public struct RelationshipDescription: Encodable, Equatable, Sendable {
    public var name: String
    public var destination: String
    public var inverse: String?
    public var isToMany: Bool
    public var deleteRule: DeleteRule
    /// To-one through an existing column (a foreign key of a file Quarry did not create,
    /// or `relate`): that column; nil for Quarry's own key column named after the relationship.
    public var column: String?
    /// The destination's column that `column` matches; nil for its primary key.
    public var targetKey: String?
    /// A to-one through a foreign key of several columns (another program's
    /// `lineitem(l_partkey, l_suppkey) -> partsupp(ps_partkey, ps_suppkey)`): all of its
    /// columns, and the destination's columns they match, in the same order (`column` and
    /// `targetKey` are the first of each). Nil for a key of one column.
    public var columns: [String]?
    public var targetKeys: [String]?
    /// A to-one relationship the model makes required (Core Data's non-optional): a save
    /// with an object that has no target for it is refused. Nil (optional) when absent,
    /// so models stored before it read as they were.
    public var isRequired: Bool?
    /// True for a to-many Quarry added because another entity named it as its inverse
    /// (`Book.tags` when only `Tag` declares `books = { many = "Book", inverse = "tags" }`):
    /// a redefinition that leaves it out keeps it, as it was never the user's to drop.
    /// Nil (declared) otherwise, never false, so it is stored only when true and a
    /// definition stored before it reads every relationship as declared.
    public var isImplicitInverse: Bool?

    public init(
        name: String, destination: String, inverse: String? = nil, isToMany: Bool, deleteRule: DeleteRule = .nullify,
        column: String? = nil, targetKey: String? = nil
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.deleteRule = deleteRule
        self.column = column
        self.targetKey = targetKey
    }

    /// The column holding a to-one relationship's link.
    public var keyColumn: String { column ?? name }

    /// A to-one kept in several columns (`columns`), with the destination's columns they match.
    public var compositeKey: (columns: [String], targetKeys: [String])? {
        guard let columns, let targetKeys, columns.count > 1, columns.count == targetKeys.count else { return nil }
        return (columns, targetKeys)
    }

    /// The attribute columns a to-one's link is kept in: its key's several columns, or its
    /// one column; none for Quarry's own key column.
    public var linkColumns: [String] { columns ?? column.map { [$0] } ?? [] }

    /// Whether the link is kept in attribute column `name` (one of a key's several columns included).
    public func keepsLink(in name: String) -> Bool { linkColumns.contains(name) }
}

extension EntityDescription {
    public func relationship(named name: String) -> RelationshipDescription? {
        ownRelationship(named: name) ?? relationshipAliases[name].flatMap { ownRelationship(named: $0) }
    }

    /// Attribute and relationship names: every key an object answers to.
    public var keyNames: [String] { attributeNames + relationships.map(\.name) }

    /// To-one relationships, whose foreign-key columns follow the attributes in a row.
    public var toOneRelationships: [RelationshipDescription] { relationships.filter { !$0.isToMany } }

    /// To-one relationships that own a column Quarry made for them.
    public var ownKeyColumns: [RelationshipDescription] { toOneRelationships.filter { $0.column == nil } }
}

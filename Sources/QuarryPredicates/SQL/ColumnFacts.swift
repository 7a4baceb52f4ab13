import QuarryModel
import QuarryStore

/// A column of an entity's table that a link matches by value (a `relate`d link, or a
/// foreign key to a non-key column): the question `ToOneJoins` leaves to its caller.
public struct ValueMatchedColumn: Hashable {
    public let entity: EntityDescription
    public let column: String

    public init(entity: EntityDescription, column: String) {
        self.entity = entity
        self.column = column
    }

    // The entity's name stands for it: the model has one entity of a name.
    public static func == (a: Self, b: Self) -> Bool { a.entity.name == b.entity.name && a.column == b.column }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entity.name)
        hasher.combine(column)
    }
}

/// What the caller found out about the data, given to the SQL compiler so it never asks
/// the store itself: whether a column matched by value holds each value once. A question
/// not answered here is "not known", and the SQL then stays correct for any data.
public struct ColumnFacts {
    private var eachValueOnce: [ValueMatchedColumn: Bool] = [:]

    public init() {}

    /// Whether `column` holds no value twice; nil: not asked yet.
    public func holdsEachValueOnce(_ column: ValueMatchedColumn) -> Bool? { eachValueOnce[column] }

    public mutating func record(_ column: ValueMatchedColumn, holdsEachValueOnce: Bool) {
        eachValueOnce[column] = holdsEachValueOnce
    }
}

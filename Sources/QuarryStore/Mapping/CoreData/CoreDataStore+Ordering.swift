import GRDB

/// Ordered to-many relationships (the model's `ordered`): Core Data keeps each member's
/// place in an integer `Z_FOK_` column, never in key order:
/// - one-to-many: in the destination's row, next to the inverse's key column
///   (`ZCAR.ZOWNER` and `ZCAR.Z_FOK_OWNER` for `Person.cars`);
/// - many-to-many: in the join table, named after the column that holds the members'
///   keys (`Z_1BOOKS.Z_FOK_2BOOKS` for an ordered `Author.books`).
/// The values only have to increase along the order; Core Data spaces them
/// (`orderSpacing`) so a member can be placed between two others without renumbering.
extension CoreDataStore {
    /// Where one ordered relationship's order is kept.
    public struct Ordering: Equatable, Sendable {
        /// The destination's Z-table, or the join table.
        public var table: String
        /// The column of the owner's key, the column of the member's key, and `Z_FOK_...`.
        public var ownerColumn: String
        public var memberColumn: String
        public var orderColumn: String
    }

    /// The gap between the order values of consecutive members Quarry writes.
    public static let orderSpacing: Int64 = 1024

    /// The ordering of `entity.relationship`, when the model says it is ordered and the
    /// store has its column.
    public func ordering(of entity: String, _ relationship: String) -> Ordering? {
        orderings[entity + "." + relationship]
    }

    /// Each member's order value under `owner` (members whose value is NULL are absent).
    func positions(_ ordering: Ordering, owner: Int64, in db: Database) throws -> [Int64: Int64] {
        let sql = "SELECT \(quoteIdentifier(ordering.memberColumn)), \(quoteIdentifier(ordering.orderColumn)) FROM main.\(quoteIdentifier(ordering.table)) WHERE \(quoteIdentifier(ordering.ownerColumn)) = ?"
        var result: [Int64: Int64] = [:]
        for row in try Row.fetchAll(db, sql: sql, arguments: [owner]) {
            // Whatever a file holds there: only integers are positions (no decoding that could trap).
            guard let member = Int64.fromDatabaseValue(row[0] as DatabaseValue), let position = Int64.fromDatabaseValue(row[1] as DatabaseValue) else { continue }
            result[member] = position
        }
        return result
    }

    /// Sets one member's order value under `owner`.
    func writePosition(_ ordering: Ordering, owner: Int64, member: Int64, position: Int64, in db: Database) throws {
        let sql = "UPDATE main.\(quoteIdentifier(ordering.table)) SET \(quoteIdentifier(ordering.orderColumn)) = ? WHERE \(quoteIdentifier(ordering.memberColumn)) = ? AND \(quoteIdentifier(ordering.ownerColumn)) = ?"
        try db.execute(sql: sql, arguments: [position, member, owner])
    }

    /// The order values for `members` in their new order, given the values they had:
    /// members already in increasing order keep theirs (nothing is rewritten), the others
    /// (added ones, or ones with no value) take the previous value plus the spacing.
    /// Returns only the values that change.
    public static func newPositions(_ members: [Int64], old: [Int64: Int64]) -> [(member: Int64, position: Int64)] {
        var last: Int64 = 0
        var changes: [(Int64, Int64)] = []
        for member in members {
            if let kept = old[member], kept > last {
                last = kept
            } else {
                let (next, overflow) = last.addingReportingOverflow(orderSpacing)
                // Values near the top of the range (a file may hold any): number them all afresh.
                if overflow { return renumbered(members, old: old) }
                last = next
                changes.append((member, last))
            }
        }
        return changes
    }

    private static func renumbered(_ members: [Int64], old: [Int64: Int64]) -> [(member: Int64, position: Int64)] {
        members.enumerated().compactMap { i, member in
            let position = Int64(i + 1) * orderSpacing
            return old[member] == position ? nil : (member, position)
        }
    }
}

extension CoreDataStore {
    /// Records the ordering of a one-to-many relationship `owner.name` whose inverse is
    /// the to-one `inverse` (its key in `keyColumn` of the destination's `table`).
    func noteOrdering(entity: String, relationship: String, table: String, keyColumn: String,
                               inverse: String, columns: [String]) {
        let wanted = "Z_FOK_" + inverse.uppercased()
        guard let column = columns.first(where: { $0.uppercased() == wanted }) else {
            notes.append("\(entity).\(relationship) is ordered but \(table) has no column \(wanted): read in key order")
            return
        }
        orderings[entity + "." + relationship] = Ordering(table: table, ownerColumn: keyColumn, memberColumn: "Z_PK", orderColumn: column)
    }

    /// Records the ordering of a many-to-many relationship kept in `joinTable`, whose
    /// member keys are in `memberColumn`.
    func noteOrdering(entity: String, relationship: String, joinTable: String, ownerColumn: String,
                               memberColumn: String, columns: [String]) {
        let wanted = "Z_FOK_" + memberColumn.uppercased().dropFirst(2)
        guard let column = columns.first(where: { $0.uppercased() == wanted }) else {
            notes.append("\(entity).\(relationship) is ordered but \(joinTable) has no column \(wanted): read in key order")
            return
        }
        orderings[entity + "." + relationship] = Ordering(table: joinTable, ownerColumn: ownerColumn, memberColumn: memberColumn, orderColumn: column)
    }
}

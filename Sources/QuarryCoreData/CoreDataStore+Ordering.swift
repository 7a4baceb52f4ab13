import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

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
        let sql =
            "SELECT \(quoteIdentifier(ordering.memberColumn)), \(quoteIdentifier(ordering.orderColumn)) FROM main.\(quoteIdentifier(ordering.table)) WHERE \(quoteIdentifier(ordering.ownerColumn)) = ?"
        var result: [Int64: Int64] = [:]
        for row in try Row.fetchAll(db, sql: sql, arguments: [owner]) {
            // Whatever a file holds there: only integers are positions (no decoding that could trap).
            guard let member = Int64.fromDatabaseValue(row[0] as DatabaseValue), let position = Int64.fromDatabaseValue(row[1] as DatabaseValue)
            else { continue }
            result[member] = position
        }
        return result
    }

    /// Sets one member's order value under `owner`.
    func writePosition(_ ordering: Ordering, owner: Int64, member: Int64, position: Int64, in db: Database) throws {
        let sql =
            "UPDATE main.\(quoteIdentifier(ordering.table)) SET \(quoteIdentifier(ordering.orderColumn)) = ? WHERE \(quoteIdentifier(ordering.memberColumn)) = ? AND \(quoteIdentifier(ordering.ownerColumn)) = ?"
        try db.execute(sql: sql, arguments: [position, member, owner])
    }

    /// The order values for `members` in their new order, given the values they had: the
    /// longest run of members whose values already increase along the new order keeps
    /// them (the earliest such run; nothing of it is rewritten), and each other member
    /// (added, moved, or with no value) takes a value between its kept neighbours, spread
    /// evenly over the gap, or after the last kept one, spaced by `orderSpacing`. Only
    /// when a gap is too narrow, or the values reach the top of the range, is every member
    /// numbered afresh. Returns only the values that change.
    public static func newPositions(_ members: [Int64], old: [Int64: Int64]) -> [(member: Int64, position: Int64)] {
        let values = members.map { old[$0].flatMap { $0 > 0 ? $0 : nil } }
        let kept = longestIncreasingRun(values)
        var changes: [(Int64, Int64)] = []
        var lower: Int64 = 0
        var i = 0
        while i < members.count {
            if kept.contains(i), let value = values[i] {
                lower = value
                i += 1
                continue
            }
            // The members up to the next kept one.
            var end = i
            while end < members.count, !kept.contains(end) { end += 1 }
            let count = Int64(end - i)
            if end < members.count, let upper = values[end] {
                let step = (upper - lower) / (count + 1)
                guard step >= 1 else { return renumbered(members, old: old) }
                for j in 0..<Int(count) { changes.append((members[i + j], lower + step * Int64(j + 1))) }
            } else {
                for j in 0..<Int(count) {
                    let (next, overflow) = lower.addingReportingOverflow(orderSpacing)
                    // Values near the top of the range (a file may hold any): number them all afresh.
                    if overflow { return renumbered(members, old: old) }
                    lower = next
                    changes.append((members[i + j], next))
                }
            }
            i = end
        }
        return changes
    }

    /// The indexes of the longest strictly increasing run of `values` (nil never counts),
    /// the earliest indexes among equals: O(n log n), as an album may hold thousands.
    static func longestIncreasingRun(_ values: [Int64?]) -> Set<Int> {
        // longest[i]: the longest increasing run that starts at i. tops[k]: the largest
        // first value of a run of length k + 1 among those seen (decreasing in k).
        var longest = [Int](repeating: 0, count: values.count)
        var tops: [Int64] = []
        for i in values.indices.reversed() {
            guard let value = values[i] else { continue }
            var low = 0
            var high = tops.count
            while low < high {
                let middle = (low + high) / 2
                if tops[middle] > value { low = middle + 1 } else { high = middle }
            }
            longest[i] = low + 1
            if low == tops.count { tops.append(value) } else { tops[low] = max(tops[low], value) }
        }
        var need = tops.count
        var last: Int64 = 0
        var kept: Set<Int> = []
        for i in values.indices where need > 0 {
            guard let value = values[i], value > last, longest[i] == need else { continue }
            kept.insert(i)
            last = value
            need -= 1
        }
        return kept
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
    func noteOrdering(
        entity: String, relationship: String, table: String, keyColumn: String,
        inverse: String, columns: [String]
    ) {
        let wanted = "Z_FOK_" + inverse.uppercased()
        guard let column = columns.first(where: { $0.uppercased() == wanted }) else {
            notes.append("\(entity).\(relationship) is ordered but \(table) has no column \(wanted): read in key order")
            return
        }
        orderings[entity + "." + relationship] = Ordering(table: table, ownerColumn: keyColumn, memberColumn: "Z_PK", orderColumn: column)
    }

    /// Records the ordering of a many-to-many relationship kept in `joinTable`, whose
    /// member keys are in `memberColumn`.
    func noteOrdering(
        entity: String, relationship: String, joinTable: String, ownerColumn: String,
        memberColumn: String, columns: [String]
    ) {
        let wanted = "Z_FOK_" + memberColumn.uppercased().dropFirst(2)
        guard let column = columns.first(where: { $0.uppercased() == wanted }) else {
            notes.append("\(entity).\(relationship) is ordered but \(joinTable) has no column \(wanted): read in key order")
            return
        }
        orderings[entity + "." + relationship] = Ordering(table: joinTable, ownerColumn: ownerColumn, memberColumn: memberColumn, orderColumn: column)
    }
}

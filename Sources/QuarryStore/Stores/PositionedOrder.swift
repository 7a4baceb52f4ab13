import QuarryEngine
import QuarryModel

/// The members a save places by position (`s:insert(i, x)`, `s:move(from, to)`) in an
/// ordered to-many a join table keeps by a position its key holds
/// (`ForeignSchema.order`): after the save's links are written, the owner's rows take the
/// positions they had among them, in the new order: each member's first row in the order
/// placed, then the rows of members it holds again, as they stood. No position is added
/// or dropped, so the owner's numbering (NewPipe's from 0) stays as it was. The rows that
/// move go first above the owner's largest position, then to their places, as the key
/// over the owner and the position admits no two rows at one place at any moment.
package struct PositionedOrder {
    let link: EntityStorage.OrderedLink
    let owner: ManagedObject
    let members: [ManagedObject]

    /// Rewrites the owner's positions through the link view (its UPDATE moves one row).
    func write(keys: SaveChangesRequest.Keys, in statements: any WriteStatements) throws {
        guard let owner = keys.key(of: owner) else { return }
        let (l, o, m) = (quoteIdentifier(link.link), link.ownerColumn, link.memberColumn)
        let rows = try statements.rows("SELECT \(m), position FROM \(l) WHERE \(o) = ? ORDER BY position", [.integer(owner)])
        // Only integer positions are places; a row without one keeps what it has.
        let entries: [(member: Int64, position: Int64)] = rows.compactMap { row in
            guard row.count == 2, case .integer(let member) = row[0], case .integer(let position) = row[1] else { return nil }
            return (member, position)
        }
        let changes = Self.moves(entries, to: members.compactMap { keys.key(of: $0) })
        guard let top = entries.map(\.position).max() else { return }
        let update = "UPDATE \(l) SET position = ? WHERE \(o) = ? AND position = ?"
        for (i, change) in changes.enumerated() {
            let (aside, overflow) = top.addingReportingOverflow(Int64(i) + 1)
            if overflow {
                throw StoreError.database(
                    message: "save: \(link.join).\(link.position) of \(owner) is at the top of its range; its members were not placed")
            }
            try statements.run(update, [.integer(aside), .integer(owner), .integer(change.old)])
        }
        for (i, change) in changes.enumerated() {
            try statements.run(update, [.integer(change.new), .integer(owner), .integer(top + Int64(i) + 1)])
        }
    }

    /// The rows (`entries`, by position) that move when `order` (members' keys) comes
    /// first, each member's first row in that order, the rest after as they stood: each
    /// row's old position and its new one, the positions being the same set as before.
    static func moves(_ entries: [(member: Int64, position: Int64)], to order: [Int64]) -> [(old: Int64, new: Int64)] {
        var firstRow: [Int64: Int] = [:]
        for (i, entry) in entries.enumerated() where firstRow[entry.member] == nil { firstRow[entry.member] = i }
        var placed: [Int] = []
        var taken = Set<Int>()
        for member in order {
            guard let i = firstRow[member], taken.insert(i).inserted else { continue }
            placed.append(i)
        }
        placed += entries.indices.filter { !taken.contains($0) }
        let positions = entries.map(\.position).sorted()
        return zip(placed, positions).compactMap { i, new in entries[i].position == new ? nil : (entries[i].position, new) }
    }
}

extension ObjectContext {
    /// The placed orders of `request` kept by a join table's position, with their members
    /// as the save leaves them (read now, before the save's transaction).
    func positionedOrders(_ request: SaveChangesRequest) throws -> [PositionedOrder] {
        try request.orders.compactMap { order in
            guard let link = mapped(order.owner.entity).orderedLinks[order.name] else { return nil }
            return PositionedOrder(link: link, owner: order.owner, members: try relatedObjects(order.name, of: order.owner))
        }
    }
}

import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// What the context keeps for a Core Data store: when each object was last pointed at an
/// owner (members added to an ordered one-to-many come in the order they were added, as
/// an ordered set appends), the order values read until the store changes (see
/// `CoreDataStore+Ordering`), and the `Z_OPT` of each changed object when it was first
/// changed (`ObjectContext+CoreDataLocking`).
struct CoreDataBookkeeping {
    var versions: [ObjectIdentifier: Int64] = [:]
    var stamps: [ObjectIdentifier: Int] = [:]
    var nextStamp = 0
    var generation = -1
    var positions: [String: [Int64: Int64]] = [:]
}

/// One ordered relationship a save rewrites the order of: its members in their new order,
/// and the order values they had under this owner before the save.
struct OrderedRewrite {
    let ordering: CoreDataStore.Ordering
    let owner: ManagedObject
    let members: [ManagedObject]
    let old: [Int64: Int64]
}

extension CoreDataStore {
    /// Notes that `member` was just pointed at a new owner through a to-one relationship.
    package func noteAddition(_ member: ManagedObject) {
        guard !orderings.isEmpty else { return }
        bookkeeping.nextStamp += 1
        bookkeeping.stamps[ObjectIdentifier(member)] = bookkeeping.nextStamp
    }

    /// Members not yet saved in the relationship, in the order they were added.
    package func inAdditionOrder(_ members: [ManagedObject]) -> [ManagedObject] {
        members.enumerated().sorted { a, b in
            let x = bookkeeping.stamps[ObjectIdentifier(a.element)] ?? Int.max
            let y = bookkeeping.stamps[ObjectIdentifier(b.element)] ?? Int.max
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }

    /// The saved members of `owner.name`, in Core Data's order when the relationship is
    /// ordered (by `Z_FOK_`, then by key for members without a value), else as given.
    package func inStoredOrder(_ saved: [ManagedObject], _ name: String, of owner: ManagedObject, session: StoreSession) throws -> [ManagedObject] {
        guard let ordering = ordering(of: owner.entity.name, name), let key = owner.primaryKey, saved.count > 1 else { return saved }
        let positions = try storedPositions(ordering, owner: key, session: session)
        return saved.sorted { a, b in
            let x = a.primaryKey.flatMap { positions[$0] } ?? Int64.max
            let y = b.primaryKey.flatMap { positions[$0] } ?? Int64.max
            return x != y ? x < y : (a.primaryKey ?? 0) < (b.primaryKey ?? 0)
        }
    }

    private func storedPositions(_ ordering: Ordering, owner: Int64, session: StoreSession) throws -> [Int64: Int64] {
        if bookkeeping.generation != session.generation {
            bookkeeping.positions = [:]
            bookkeeping.generation = session.generation
        }
        let cacheKey = "\(ordering.table).\(ordering.orderColumn).\(owner)"
        if let known = bookkeeping.positions[cacheKey] { return known }
        let positions = try session.connection.read { db in try self.positions(ordering, owner: owner, in: db) }
        bookkeeping.positions[cacheKey] = positions
        return positions
    }

    /// Before a save: every ordered relationship whose members change, with its members
    /// in their new order (read now, while the context can still read).
    func plannedOrderRewrites(_ request: SaveChangesRequest, session: StoreSession) throws -> [OrderedRewrite] {
        guard !orderings.isEmpty else { return [] }
        var touched: [(ManagedObject, String)] = []
        struct Touched: Hashable {
            let owner: ObjectIdentifier
            let name: String
        }
        var seen: Set<Touched> = []
        func touch(_ owner: ManagedObject, _ name: String) {
            if seen.insert(Touched(owner: ObjectIdentifier(owner), name: name)).inserted { touched.append((owner, name)) }
        }
        // One-to-many: members pointed at an owner.
        for member in request.inserts + request.updates {
            for (name, target) in member.pendingToOne {
                guard let owner = target ?? nil, !owner.isDeleted,
                    let inverse = session.currentEntity(of: member).relationship(named: name)?.inverse,
                    ordering(of: owner.entity.name, inverse) != nil
                else { continue }
                touch(owner, inverse)
            }
        }
        // Many-to-many: join rows added, seen from each end.
        for link in request.links where link.isAdd {
            for owner in [link.source, link.target] where !owner.isDeleted {
                for r in session.currentEntity(of: owner).relationships where r.isToMany && ordering(of: owner.entity.name, r.name) != nil {
                    guard case .linkTable(let table, let sourceColumn, _)? = session.storage(of: r, in: owner.entity.name), table == link.table,
                        (sourceColumn == "source" ? link.source : link.target) === owner
                    else { continue }
                    touch(owner, r.name)
                }
            }
        }
        // Members placed by position.
        for order in request.orders { touch(order.owner, order.name) }
        return try touched.compactMap { owner, name in
            guard let ordering = ordering(of: owner.entity.name, name) else { return nil }
            let members = try session.relatedObjects(name, of: owner)
            let old = try owner.primaryKey.map { try storedPositions(ordering, owner: $0, session: session) } ?? [:]
            return OrderedRewrite(ordering: ordering, owner: owner, members: members, old: old)
        }
    }

    /// Inside the save's transaction, once every row and join row is written: the order
    /// values of the planned relationships, as Core Data keeps them; and a new row's
    /// `Z_OPT` is 1, as Core Data writes it, even when the save pointed it at a row
    /// inserted after it (a second write through its view, which counted as an update).
    func finishSave(_ request: SaveChangesRequest, rewrites: [OrderedRewrite], keys: SaveChangesRequest.Keys, in db: Database) throws {
        for object in request.inserts {
            guard let table = table(of: object.entity.name), let key = keys.key(of: object) else { continue }
            try db.execute(sql: "UPDATE main.\(quoteIdentifier(table)) SET Z_OPT = 1 WHERE Z_PK = ? AND Z_OPT IS NOT 1", arguments: [key])
        }
        for rewrite in rewrites {
            guard let owner = keys.key(of: rewrite.owner) else { continue }
            let members = rewrite.members.compactMap { keys.key(of: $0) }
            for change in Self.newPositions(members, old: rewrite.old) {
                try writePosition(rewrite.ordering, owner: owner, member: change.member, position: change.position, in: db)
            }
        }
    }
}

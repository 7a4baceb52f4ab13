import QuarryEngine
import QuarryModel
import QuarryStore

/// `@count` and ANY/ALL/NONE over a to-many whose members hold their owner's key, in
/// another program's file: answered for every owner at once, where the dialect says so
/// (`SQLReads.readsMembersOnce`). The correlated forms read the members' table again for
/// each owner when no index leads with the key column, as in many files other programs
/// wrote: 142 s for `flights.@count < 10` over nycflights' 3,322 planes, where
/// `flights.tailnum` has none; 0.3 s at once. Quarry's own files and Core Data's index
/// every such column, and keep the correlated forms, which find one owner's members by it.
///
/// Each member is matched to its owners by a join written as the correlated form compares
/// them (the same columns, on the same sides, so the same affinity and collation: 5, '5'
/// and ' 5' against an integer key, 'a' and 'A' under a view's NOCASE), and the answer is
/// kept by the owner's own key, which SQLite indexes for the lookup.
extension PredicateSQLWriter {
    /// The count of `path`'s members (those `filter` takes) of the row `qualifier` of
    /// `root`: each owner's count made once, in a sub-select SQLite materializes once and
    /// finds an owner's count in by its key.
    mutating func memberCount(_ path: [PathStep], _ filter: BoundPredicate.Node?, of qualifier: String, root: EntityStorage) -> String? {
        guard dialect.readsMembersOnce, !(filter.map(Self.readsOutside) ?? false), let (members, match) = membersByKey(path, root) else {
            return nil
        }
        let filtered = filter.map { " AND (\(render($0, match.member, members, positive: true)))" } ?? ""
        aliases += 1
        let counts = quoteIdentifier("g\(aliases)")
        return "coalesce((WITH \(counts) AS MATERIALIZED (SELECT \(match.owner).\(root.key) AS k, count(*) AS n \(match.from)\(filtered) "
            + "GROUP BY \(match.owner).\(root.key)) SELECT \(counts).n FROM \(counts) WHERE \(counts).k = \(qualifier).\(root.key)), 0)"
    }

    /// ANY, ALL or NONE of `path`'s members of the row `qualifier` as the owner's key IN the
    /// keys of the owners of the members that pass (ANY, NONE) or fail (ALL) `inner`, a
    /// list SQLite makes once. True or false, never NULL, as EXISTS is: no NULL key on
    /// either side.
    mutating func memberTest(
        _ quantifier: Quantifier, _ path: [PathStep], _ inner: BoundPredicate.Node, of qualifier: String, root: EntityStorage
    ) -> String? {
        guard dialect.readsMembersOnce, !Self.readsOutside(inner), let (members, match) = membersByKey(path, root) else { return nil }
        enclosing.append((qualifier, root))
        defer { enclosing.removeLast() }
        let test =
            quantifier == .all
            ? "NOT (\(render(inner, match.member, members, positive: false)))"
            : "(\(render(inner, match.member, members, positive: true)))"
        let key = "\(qualifier).\(root.key)"
        let owners = "\(match.owner).\(root.key)"
        let some = "(\(key) IS NOT NULL AND \(key) IN (SELECT \(owners) \(match.from) AND \(owners) IS NOT NULL AND \(test)))"
        return quantifier == .all || quantifier == .none ? "NOT \(some)" : some
    }

    /// For a to-many of one step kept by its members' foreign key, in another program's
    /// file: its members' storage, and `FROM members JOIN owners ON ... WHERE true` with the
    /// two aliases, the join's condition as `members` writes the correlated one. Nil for
    /// any other to-many.
    mutating func membersByKey(_ path: [PathStep], _ root: EntityStorage) -> (EntityStorage, (from: String, member: String, owner: String))? {
        guard path.count == 1, let step = path.first, case .inverseForeignKey(_, let column, let matched, _) = step.storage else { return nil }
        let members = step.destinationStorage
        guard members.layout == .foreignTable || members.layout == .foreignView else { return nil }
        aliases += 1
        let member = quoteIdentifier("t\(aliases)")
        aliases += 1
        let owner = quoteIdentifier("o\(aliases)")
        // As `members` compares them: a matched column of the owner's on the left (its
        // collation), else the member's column on the left of the owner's key.
        let condition =
            matched.map { "\(owner).\(quoteIdentifier($0)) = \(member).\(quoteIdentifier(column))" }
            ?? "\(member).\(quoteIdentifier(column)) = \(owner).\(root.key)"
        let from =
            "FROM \(members.table) AS \(member) JOIN \(root.table) AS \(owner) ON \(condition)\(members.objectRowsOnly(member)) WHERE \(dialect.literal(true))"
        return (members, (from, member, owner))
    }

    /// Whether `node` reads an object outside the members it tests: an `.outer` operand
    /// (ANY's `items.price > budget` reads the owner's budget), which no list made once can.
    static func readsOutside(_ node: BoundPredicate.Node) -> Bool {
        func outside(_ o: BoundPredicate.Operand) -> Bool {
            switch o {
            case .outer: return true
            case .collection(_, _, _, let filter): return filter.map(readsOutside) ?? false
            case .arithmetic(_, let l, let r): return outside(l) || outside(r)
            case .function(_, let a), .datePart(_, let a): return outside(a)
            default: return false
            }
        }
        switch node {
        case .constant, .entity: return false
        case .comparison(let lhs, _, let rhs, _): return outside(lhs) || outside(rhs)
        case .not(let n), .holds(let n): return readsOutside(n)
        case .and(let ns), .or(let ns): return ns.contains(where: readsOutside)
        // Inside a nested ANY/ALL/NONE an `.outer` operand is that quantifier's own object.
        case .quantified: return false
        }
    }
}

import QuarryEngine
import QuarryModel
import QuarryStore

/// `@count` and ANY/ALL/NONE over a to-many whose members hold their owner's key, in
/// another program's file: answered for every owner at once, where the dialect says so
/// (`SQLReads.memberGroups`). The correlated forms read the members' table again for each
/// owner when no index leads with the key column, as in many files other programs wrote:
/// 142 s for `flights.@count < 10` over nycflights' 3,322 planes, where `flights.tailnum`
/// has none; 0.3 s at once. Quarry's own files and Core Data's index every such column,
/// and keep the correlated forms, which find one owner's members by that index.
extension PredicateSQLWriter {
    /// The count of `path`'s members (those `filter` takes) of the row `qualifier` of
    /// `root`, from a sub-select that counts the members by their key column, grouped:
    /// SQLite reads it once and finds an owner's count by its key. The groups' counts are
    /// summed where several groups compare equal to one owner's key (5 and '5' against an
    /// integer key), so the count is the correlated one.
    mutating func memberCount(_ path: [PathStep], _ filter: BoundPredicate.Node?, of qualifier: String, root: EntityStorage) -> String? {
        guard let (members, column, matched) = Self.membersByKey(path, root), !(filter.map(Self.readsOutside) ?? false) else { return nil }
        // An owner's key that may be text compares a member's 5 and 5.0 differently.
        let keptApart = matched != nil || root.isView || root.numberedRows != nil
        let alias = quoteIdentifier("t\(aliases + 1)")
        let key = "\(alias).\(quoteIdentifier(column))"
        guard let groups = dialect.memberGroups(key, keptApartByType: keptApart) else { return nil }
        aliases += 1
        let filtered = filter.map { " WHERE \(render($0, alias, members, positive: true))" } ?? ""
        aliases += 1
        let grouped = quoteIdentifier("g\(aliases)")
        // As `members` compares them: the owner's own column on the left, for its collation.
        let match =
            matched.map { "\(qualifier).\(quoteIdentifier($0)) = \(grouped).k" }
            ?? "\(grouped).k = \(qualifier).\(quoteIdentifier(root.keyColumn))"
        return "coalesce((SELECT sum(\(grouped).n) FROM (SELECT \(key) AS k, count(*) AS n "
            + "FROM \(members.table) AS \(alias)\(filtered) GROUP BY \(groups)) AS \(grouped) WHERE \(match)), 0)"
    }

    /// ANY, ALL or NONE of `path`'s members of the row `qualifier` as the owner's key IN the
    /// keys of the members that pass (ANY, NONE) or fail (ALL) `inner`, a list SQLite makes
    /// once. True or false, never NULL, as EXISTS is: no NULL key on either side.
    mutating func memberTest(
        _ quantifier: Quantifier, _ path: [PathStep], _ inner: BoundPredicate.Node, of qualifier: String, root: EntityStorage
    ) -> String? {
        guard let (members, column, matched) = Self.membersByKey(path, root), !Self.readsOutside(inner) else { return nil }
        let alias = quoteIdentifier("t\(aliases + 1)")
        let key = "\(alias).\(quoteIdentifier(column))"
        guard dialect.memberGroups(key, keptApartByType: false) != nil else { return nil }
        aliases += 1
        enclosing.append((qualifier, root))
        defer { enclosing.removeLast() }
        let test =
            quantifier == .all
            ? "NOT (\(render(inner, alias, members, positive: false)))" : "(\(render(inner, alias, members, positive: true)))"
        // The owner's column on the left, as `members` compares (IN compares as `=` does).
        let owner = "\(qualifier).\(quoteIdentifier(matched ?? root.keyColumn))"
        let some = "(\(owner) IS NOT NULL AND \(owner) IN (SELECT \(key) FROM \(members.table) AS \(alias) WHERE \(key) IS NOT NULL AND \(test)))"
        return quantifier == .all || quantifier == .none ? "NOT \(some)" : some
    }

    /// The members of a to-many of one step kept by their foreign key `column` (matching
    /// the owner's `matched` column, or its key), in another program's file, where they
    /// can be read for every owner at once; nil otherwise. A collation other than BINARY
    /// on the members' column is left as it is: a GROUP BY would merge what the owner's
    /// comparison tells apart.
    static func membersByKey(_ path: [PathStep], _ root: EntityStorage) -> (EntityStorage, String, String?)? {
        guard path.count == 1, let step = path.first, case .inverseForeignKey(_, let column, let matched, _) = step.storage else { return nil }
        let members = step.destinationStorage
        guard members.layout == .foreignTable || members.layout == .foreignView, members.columnCollations[column] == nil else { return nil }
        return (members, column, matched)
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

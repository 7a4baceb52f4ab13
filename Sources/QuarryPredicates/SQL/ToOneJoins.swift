import QuarryModel
import QuarryStore

/// The LEFT JOINs that bring a request's to-one key paths (`destination.tzone`,
/// `airline.name`) into its FROM clause, as a person writes them in SQL. One value is
/// shared by a request's predicate, sort keys, section key and dictionary columns, so each
/// path is joined once whoever names it.
///
/// Why LEFT JOIN: a missing or dangling link leaves the joined columns NULL, which is what
/// nil has always meant (`destination.tzone == nil` is true, `!= "x"` true). Where the
/// WHERE clause rejects NULL (`destination.tzone = ?`), SQLite turns the LEFT JOIN into an
/// inner one by itself and may start from the destination's side, using the index on the
/// source's column that `relate()` makes.
///
/// A link matched by value (`relate`, or a foreign key to a non-key column) may find more
/// than one row; Quarry's answer, in memory and in SQL, is the one with the smallest key.
/// Unless the matched column is known to be unique (declared so, or found so in the data
/// by the caller: `facts`), the join keeps only that row, so a JOIN never multiplies the
/// source's rows.
///
/// Compiling never reads the store. Which columns matter is known only once every key path
/// is joined, so each join that a fact could simplify is kept with its guard apart, the
/// column is listed in `questions`, and `sql` writes the guard unless `facts` says the
/// column holds each value once. The caller looks at the data between the two.
public struct ToOneJoins {
    /// The root table's qualifier, quoted, as the rest of the query names it.
    public let root: String
    /// What the caller found in the data; read by `sql`, so it may be given after the joins
    /// are made (and before the SQL is).
    public var facts = ColumnFacts()
    private var aliases: [String: String] = [:]
    private var joins: [Join] = []

    /// One LEFT JOIN, and the guard against a value matched by several rows (nil: one row
    /// matches at most, whatever the data), which `unless` holding each value once drops.
    private struct Join {
        let clause: String
        let guardClause: String?
        let unless: ValueMatchedColumn?
    }

    public init(root: String) {
        self.root = root
    }

    public var isEmpty: Bool { joins.isEmpty }
    /// How many tables are joined: grows as key paths are joined, never shrinks.
    public var count: Int { joins.count }

    /// The columns whose facts would drop a guard, each once, in the order they were joined.
    public var questions: [ValueMatchedColumn] {
        var seen = Set<ValueMatchedColumn>()
        return joins.compactMap(\.unless).filter { seen.insert($0).inserted }
    }

    /// The joins, to follow the root table in a FROM clause (empty when none).
    public var sql: String {
        joins.map { join in
            let holdsEachValueOnce = join.unless.flatMap(facts.holdsEachValueOnce) == true
            return " " + join.clause + (holdsEachValueOnce ? "" : join.guardClause ?? "")
        }.joined()
    }

    /// `attribute` at the end of `steps` (to-one steps from the root entity `entity`) as a
    /// column of a joined table, adding the joins it needs; nil when a step is not a link
    /// kept in a column (the caller then falls back to `pathSQL`).
    public mutating func column(_ steps: [PathStep], _ attribute: AttributeDescription, in storage: EntityStorage) -> String? {
        var owner = root
        var reached = storage
        var names: [String] = []
        for step in steps {
            let column: String
            let targetKey: String?
            switch step.storage {
            case .foreignKey(let c, let t): (column, targetKey) = (c, t)
            case .compositeKey: (column, targetKey) = ("", nil)
            default: return nil
            }
            names.append(step.relationship.name)
            let path = names.joined(separator: ".")
            if let alias = aliases[path] {
                owner = alias
            } else if case .compositeKey(let columns, let targetKeys) = step.storage {
                // A key of several columns names columns its destination holds unique: one row.
                let alias = quoteIdentifier("quarry_j\(aliases.count + 1)")
                let on = RelationshipStorage.compositeCondition(parent: alias, targetKeys: targetKeys, child: owner, columns: columns)
                aliases[path] = alias
                joins.append(Join(clause: "LEFT JOIN \(step.destinationStorage.table) AS \(alias) ON \(on)", guardClause: nil, unless: nil))
                owner = alias
            } else {
                let alias = quoteIdentifier("quarry_j\(aliases.count + 1)")
                let destination = step.destinationStorage
                let table = destination.table
                let match = targetKey.map(destination.column) ?? destination.key
                let clause =
                    "LEFT JOIN \(table) AS \(alias) ON \(alias).\(match) = \(owner).\(quoteIdentifier(column))\(destination.objectRowsOnly(alias))"
                var guardClause: String?
                var unless: ValueMatchedColumn?
                if !matchesOneRow(targetKey, step) {
                    let key = destination.key
                    let other = quoteIdentifier("quarry_j\(aliases.count + 1)_d")
                    // Where the join converts the destination's column, its rows that match are
                    // those equal to the owner's value as the join compares (its sides, so its
                    // affinity and collation), not to the row found: '010' is not '10' as text.
                    let matched = step.convertsDestination ? "\(owner).\(quoteIdentifier(column))" : "\(alias).\(match)"
                    guardClause =
                        " AND NOT EXISTS (SELECT 1 FROM \(table) AS \(other) WHERE \(other).\(match) = \(matched) AND \(other).\(key) < \(alias).\(key))"
                    // Only a link matched by value can be found unique in the data, and only
                    // as the join compares it; a view's key cannot.
                    if !step.convertsDestination { unless = targetKey.map { ValueMatchedColumn(entity: step.destination, column: $0) } }
                }
                aliases[path] = alias
                joins.append(Join(clause: clause, guardClause: guardClause, unless: unless))
                owner = alias
            }
            reached = step.destinationStorage
        }
        return columnSQL(owner, attribute, in: reached)
    }
}

/// True when at most one row of the step's destination can match a link to `targetKey`
/// (nil: its key): a table's key, or a column declared unique, compared as stored (a join
/// that converts the column, `PathStep.convertsDestination`, may match several rows).
func matchesOneRow(_ targetKey: String?, _ step: PathStep) -> Bool {
    let (destination, storage) = (step.destination, step.destinationStorage)
    guard !step.convertsDestination else { return false }
    guard let targetKey, targetKey != storage.keyColumn else { return !storage.isView }
    // Another program's table's own primary key (a text or UUID key, whose rows Quarry
    // numbers by a hash of it) holds each value once, as a declared unique column does.
    return destination.attribute(named: targetKey)?.isUnique == true || destination.uniqueness.contains([targetKey])
        || (!storage.isView && storage.primaryKey == [targetKey])
}

import QuarryEngine
import QuarryModel
import QuarryStore

extension BoundPredicate {
    /// The predicate as a WHERE clause over the entity's table (named by `qualifier`), in
    /// `dialect`: the store's (`ObjectContext.sqlDialect`), which no caller may leave out.
    /// Equality is `IS`/`IS NOT`, so nil compares as Foundation compares it (nil == nil).
    /// Key paths through to-one relationships become correlated subqueries, so the clause
    /// stands alone (an UPDATE or DELETE takes no joins).
    public func sql(qualifier: String? = nil, dialect: any SQLDialect) -> SQLFragment {
        var writer = PredicateSQLWriter(joins: nil, dialect: dialect)
        let sql = writer.render(root, qualifier.map(quoteIdentifier) ?? storage.table, storage, positive: true)
        return SQLFragment(sql, writer.arguments)
    }

    /// The predicate as a WHERE clause whose to-one key paths read columns of `joins`,
    /// which gains the LEFT JOINs they need (for a SELECT over `joins.root`). Paths inside
    /// ANY/ALL/NONE, SUBQUERY and collection operators stay correlated subqueries.
    public func sql(joins: inout ToOneJoins, dialect: any SQLDialect) -> SQLFragment {
        var writer = PredicateSQLWriter(joins: joins, dialect: dialect)
        let sql = writer.render(root, joins.root, storage, positive: true)
        if let grown = writer.joins { joins = grown }
        return SQLFragment(sql, writer.arguments)
    }
}

extension BoundExpression {
    /// The expression as SQL over `joins.root`, whose to-one key paths read columns of
    /// `joins` (which gains the LEFT JOINs they need), as a predicate's would.
    public func sql(joins: inout ToOneJoins, dialect: any SQLDialect) -> SQLFragment {
        var writer = PredicateSQLWriter(joins: joins, dialect: dialect)
        let sql = writer.operand(operand, [], joins.root, storage)
        if let grown = writer.joins { joins = grown }
        return SQLFragment(sql, writer.arguments)
    }
}

/// The SQL for a key path through to-one relationships as nested scalar subqueries, each
/// finding the next row by its key (the smallest key of several matches, as in memory);
/// where no join can be used (an UPDATE's WHERE, inside a subquery). `ToOneJoins` is
/// the form for a SELECT.
public func pathSQL(
    _ steps: [PathStep], _ attribute: AttributeDescription, from qualifier: String, in storage: EntityStorage,
    aliases: inout Int
) -> String {
    if let step = steps.first, case .compositeKey(let columns, let targetKeys) = step.storage {
        aliases += 1
        let alias = quoteIdentifier("t\(aliases)")
        let destination = step.destinationStorage
        let inner = pathSQL(Array(steps.dropFirst()), attribute, from: alias, in: destination, aliases: &aliases)
        let on = RelationshipStorage.compositeCondition(parent: alias, targetKeys: targetKeys, child: qualifier, columns: columns)
        return "(SELECT \(inner) FROM \(destination.table) AS \(alias) WHERE \(on) LIMIT 1)"
    }
    guard let step = steps.first, case .foreignKey(let column, let targetKey) = step.storage else {
        return columnSQL(qualifier, attribute, in: storage)
    }
    aliases += 1
    let alias = quoteIdentifier("t\(aliases)")
    let destination = step.destinationStorage
    let inner = pathSQL(Array(steps.dropFirst()), attribute, from: alias, in: destination, aliases: &aliases)
    let match = targetKey.map(destination.column) ?? destination.key
    let order = matchesOneRow(targetKey, step) ? "" : " ORDER BY \(alias).\(destination.key)"
    return
        "(SELECT \(inner) FROM \(destination.table) AS \(alias) WHERE \(alias).\(match) = \(qualifier).\(storage.column(column))\(destination.objectRowsOnly(alias))\(order) LIMIT 1)"
}

/// An attribute's column as SQL compares it (see `EntityStorage.comparable`).
public func columnSQL(_ qualifier: String, _ attribute: AttributeDescription, in storage: EntityStorage) -> String {
    storage.comparable(qualifier, attribute)
}

struct PredicateSQLWriter {
    var arguments: [Value] = []
    var aliases = 0
    /// The request's joins, for key paths from its root table; nil: subqueries only.
    var joins: ToOneJoins?
    /// How the store's SQL spells what differs between databases.
    let dialect: any SQLDialect
    /// The tables (alias and storage) of the objects that ANY/ALL/NONE subqueries stand
    /// in, innermost last: where an `.outer` operand is read.
    var enclosing: [(qualifier: String, storage: EntityStorage)] = []

    init(joins: ToOneJoins?, dialect: any SQLDialect) {
        self.joins = joins
        self.dialect = dialect
    }

    /// Terms joined by `op` (AND, OR), in their order, grouped in halves: SQLite parses a
    /// chain of them as a tree as deep as it is long, and refuses one past 1,000 ("Expression
    /// tree is too large"); grouped, 1,200 OR-ed terms are 11 deep.
    static func balanced(_ terms: [String], _ op: String) -> String {
        guard terms.count > 8 else { return terms.map { "(\($0))" }.joined(separator: op) }
        let half = terms.count / 2
        return "(\(balanced(Array(terms[..<half]), op)))\(op)(\(balanced(Array(terms[half...]), op)))"
    }

    /// `positive`: the node's NULL and false lead to the same answer (it is not under a
    /// NOT within its WHERE clause), so `a = ?` may stand for `a IS ?` with a non-nil
    /// value. For a joined column that matters: SQLite reads `=` as rejecting a LEFT
    /// JOIN's missing row and so may make the join an inner one and start from the joined
    /// table (`destination.tzone == "x"` scans airports, then flights by index); `IS`
    /// would keep it from that. Other comparisons keep `IS`.
    mutating func render(_ node: BoundPredicate.Node, _ qualifier: String, _ entity: EntityStorage, positive: Bool) -> String {
        switch node {
        case .constant(let b): return dialect.literal(b)
        case .entity(_, let tags):
            guard !tags.isEmpty else { return dialect.literal(false) }
            arguments += tags
            return
                "\(qualifier).\(quoteIdentifier(EntityStorage.entityColumn)) IN (\(Array(repeating: "?", count: tags.count).joined(separator: ", ")))"
        case .not(let n): return "NOT (\(render(n, qualifier, entity, positive: !positive)))"
        // NULL and false differ inside: it is read as written, never as `=` for `IS`.
        case .holds(let n): return "COALESCE((\(render(n, qualifier, entity, positive: false))), \(dialect.literal(false)))"
        case .and(let ns): return Self.balanced(ns.map { render($0, qualifier, entity, positive: positive) }, " AND ")
        case .or(let ns): return Self.balanced(ns.map { render($0, qualifier, entity, positive: positive) }, " OR ")
        case .quantified(let quantifier, let path, let inner):
            if let written = memberTest(quantifier, path, inner, of: qualifier, root: entity) { return written }
            let (from, alias) = members(path, of: qualifier, root: entity)
            guard let destination = path.last?.destinationStorage else { return dialect.literal(false) }
            // The object's own operands (`.outer`) read the table the quantifier stands in.
            enclosing.append((qualifier, entity))
            defer { enclosing.removeLast() }
            // Inside EXISTS only truth counts, so the subquery's WHERE starts positive again.
            switch quantifier {
            case .all: return "NOT EXISTS (SELECT 1 \(from) AND NOT (\(render(inner, alias, destination, positive: false))))"
            case .none: return "NOT EXISTS (SELECT 1 \(from) AND (\(render(inner, alias, destination, positive: true))))"
            default: return "EXISTS (SELECT 1 \(from) AND (\(render(inner, alias, destination, positive: true))))"
            }
        case .comparison(let lhs, let op, let rhs, let options):
            if positive, let written = keyedPathTest(lhs, op, rhs, options, qualifier, entity) { return written }
            // `date == nil` tests what is stored: a file's text that reads as no date is a
            // value, as the evaluator sees it in memory, though no date comparison takes it.
            if op == .equal || op == .notEqual, let a = Self.nilTested(lhs, rhs) ?? Self.nilTested(rhs, lhs), entity.usesLooseDate(a) {
                return dialect.nullSafeEqual(entity.nilTestable(qualifier, a), "NULL", negated: op == .notEqual)
            }
            // A server's number column of times against a date: compared as its date, and
            // bounded as its raw counts too, for the column's index (`NumberTimeRange`).
            if positive, case .attribute(let a) = lhs, let range = NumberTimeRange(a, op, rhs, in: entity) {
                var sql = "(\(render(node, qualifier, entity, positive: false)))"
                let column = "\(qualifier).\(entity.column(a.name))"
                if let low = range.low {
                    sql += " AND \(column) > CAST(? AS bigint)"
                    arguments.append(.integer(low))
                }
                if let high = range.high {
                    sql += " AND \(column) < CAST(? AS bigint)"
                    arguments.append(.integer(high))
                }
                return sql
            }
            if !dialect.comparesIntegersWithRealsExactly, let exact = IntegerBounds.exact(lhs, op, rhs, options) {
                return render(exact, qualifier, entity, positive: positive)
            }
            if op.isStringOperator {
                // With [c] or [d], where the dialect folds in its own SQL; MATCHES folds its
                // pattern otherwise, and stays Quarry's.
                if !options.isEmpty, op != .matches, dialect.foldInSQL("?", options) != nil {
                    var trial = self
                    if let written = trial.foldedStringTest(lhs, op, rhs, options, qualifier, entity) {
                        self = trial
                        return written
                    }
                }
                // Written once: its arguments are added as it is.
                let l = operand(lhs, [], qualifier, entity)
                // A test without [c] or [d] against a constant, in the dialect's own SQL
                // where it has it (a prefix one an index can answer).
                if options.isEmpty, case .value(.text(let pattern)) = rhs, let (test, said) = Self.plainTest(op, pattern),
                    let written = dialect.stringTest(test, l, said ?? "")
                {
                    // Typed, for a constant on the left: PostgreSQL cannot type a bare $n here.
                    guard said != nil else { return "(CASE WHEN CAST(\(l) AS TEXT) IS NULL THEN NULL ELSE \(dialect.literal(false)) END)" }
                    arguments += written.arguments
                    return written.sql
                }
                let r = operand(rhs, [], qualifier, entity)
                // A pattern that is not a constant (a column, a key path): the dialect's own
                // test where it has one for SQL it cannot see into.
                if options.isEmpty, op != .like, op != .matches, let test = Self.plainTest(op, "")?.0,
                    let written = Self.patternTest(dialect.stringTest(test, l, patternSQL: r), test, r)
                {
                    return written
                }
                return dialect.call(PredicateFunctions.stringOperation, [l, r, "\(PredicateFunctions.code(op))", "\(options.rawValue)"])
            }
            // Two constants: PostgreSQL reads a bare `$1 < $2` as text; Quarry answers, as
            // SQLite and the evaluator compare them.
            if !dialect.comparesIntegersWithRealsExactly, op != .in, op != .between, case .value(let a) = lhs, case .value(let b) = rhs {
                return Self.answer(a, op, b, options).map(dialect.literal) ?? "NULL"
            }
            // No value is in an empty list, nil included, as SQLite answers `IN ()`, which
            // PostgreSQL refuses as syntax. Before the left side adds its arguments.
            if op == .in, case .list(let values) = rhs, values.isEmpty { return dialect.literal(false) }
            let beforeL = arguments.count
            let l = operand(lhs, options, qualifier, entity)
            switch op {
            case .in:
                return "\(l) IN \(operand(rhs, options, qualifier, entity))"
            case .between:
                guard case .list(let bounds) = rhs, bounds.count == 2 else { return dialect.literal(false) }
                let lo = operand(.value(bounds[0]), options, qualifier, entity)
                let hi = operand(.value(bounds[1]), options, qualifier, entity)
                // An enum's labels in its order, bounds cast to it as the column is.
                if let enumeration = lhs.enumeration {
                    return "\(enumeration.cast(l)) BETWEEN \(enumeration.cast(lo)) AND \(enumeration.cast(hi))"
                }
                return "\(lhs.isText ? dialect.binaryText(l) : l) BETWEEN \(lo) AND \(hi)"
            default:
                let afterL = arguments.count
                let r = operand(rhs, options, qualifier, entity)
                // An enum is ordered by its labels, as the server orders its type: both
                // sides cast to it (the binder let only labels and the same enum through).
                if op.isOrdering, let enumeration = lhs.enumeration ?? rhs.enumeration {
                    return "\(enumeration.cast(l)) \(op.rawValue) \(enumeration.cast(r))"
                }
                if let exact = integerAgainstReal(lhs, op, rhs) {
                    // Each side may be said more than once, its arguments with it.
                    let sides = [(l, Array(arguments[beforeL..<afterL])), (r, Array(arguments[afterL...]))]
                    arguments.removeSubrange(beforeL...)
                    return fill(exact, sides)
                }
                switch op {
                // Where NULL and false lead to the same answer, equality with a constant that
                // is not nil is SQL's `=`, which an index answers in every engine (PostgreSQL
                // answers IS NOT DISTINCT FROM by reading every row).
                case .equal where positive && (rhs.isNonNilValue || lhs.isNonNilValue):
                    return "\(l) = \(r)"
                case .equal: return dialect.nullSafeEqual(l, r, negated: false)
                case .notEqual: return dialect.nullSafeEqual(l, r, negated: true)
                // Text is ordered by its bytes, as SQLite's BINARY and the evaluator order it,
                // whatever a column's collation (PostgreSQL's may be a language's). Equality
                // keeps the column as it is, for its index.
                default: return lhs.isText || rhs.isText ? "\(dialect.binaryText(l)) \(op.rawValue) \(r)" : "\(l) \(op.rawValue) \(r)"
                }
            }
        }
    }

    /// A to-one key path whose every step matches its destination's key or a unique column
    /// (`plane.manufacturer`, through `tailnum`), compared with a constant, where nil and
    /// false lead to the same answer: an EXISTS over the path's rows, each joined on its
    /// key, holding the test. A server plans it as a join (a semi-join across an enclosing
    /// ANY), where a scalar subquery per step is read once for each row; with one row at
    /// most per step, and no row failing as nil fails, the answer is the same. Nil where
    /// it does not apply: the request's own joins serve its root, a comparison that nil
    /// can pass (`!=`, `== nil`) or one of several values keeps the scalar form.
    mutating func keyedPathTest(
        _ lhs: BoundPredicate.Operand, _ op: ComparisonOperator, _ rhs: BoundPredicate.Operand,
        _ options: ComparisonOptions, _ qualifier: String, _ entity: EntityStorage
    ) -> String? {
        guard case .path(let steps, let attribute) = lhs, !steps.isEmpty, case .value(let constant) = rhs, !constant.isNull,
            op != .notEqual, op != .in, op != .between, qualifier != joins?.root
        else { return nil }
        var (owner, storage) = (qualifier, entity)
        var tables: [String] = []
        var conditions: [String] = []
        let first = aliases
        for step in steps {
            guard case .foreignKey(let column, let targetKey) = step.storage, matchesOneRow(targetKey, step) else {
                aliases = first
                return nil
            }
            aliases += 1
            let alias = quoteIdentifier("t\(aliases)")
            let destination = step.destinationStorage
            tables.append("\(destination.table) AS \(alias)")
            conditions.append(
                "\(alias).\(targetKey.map(destination.column) ?? destination.key) = \(owner).\(storage.column(column))\(destination.objectRowsOnly(alias))"
            )
            (owner, storage) = (alias, destination)
        }
        let test = render(.comparison(lhs: .attribute(attribute), op: op, rhs: rhs, options: options), owner, storage, positive: true)
        return "EXISTS (SELECT 1 FROM \(tables.joined(separator: ", ")) WHERE \(conditions.joined(separator: " AND ")) AND (\(test)))"
    }

    /// The entity's own attribute `attribute` is, where `other` is nil.
    static func nilTested(_ attribute: BoundPredicate.Operand, _ other: BoundPredicate.Operand) -> AttributeDescription? {
        guard case .attribute(let a) = attribute, case .value(.null) = other else { return nil }
        return a
    }

    /// `a op b` for two constants, as the evaluator compares them; nil for unknown.
    static func answer(_ a: Value, _ op: ComparisonOperator, _ b: Value, _ options: ComparisonOptions) -> Bool? {
        func folded(_ v: Value) -> Value {
            if !options.isEmpty, case .text(let s) = v { return .text(PredicateFunctions.fold(s, options)) }
            return v
        }
        return BoundPredicate.compare(folded(a), op, folded(b))
    }

    /// An integer attribute compared with a real one, said so that it compares exactly,
    /// where the dialect does not (`SQLDialect.exactComparison`); nil otherwise. Equality
    /// keeps SQL's `IS`: nil equals nil, and nothing else.
    /// Slot 0 is the left side's SQL, slot 1 the right's.
    func integerAgainstReal(_ lhs: BoundPredicate.Operand, _ written: ComparisonOperator, _ rhs: BoundPredicate.Operand) -> SQLTemplate? {
        guard !dialect.comparesIntegersWithRealsExactly else { return nil }
        // Constants count too (not nil: `x == nil` stays IS NULL): an integer constant
        // against a real expression is compared exactly, as SQLite compares one with no
        // column's affinity. The casts type a parameter, which PostgreSQL would take as the
        // other side's type (a float8, rounding past 2^53).
        func kind(_ o: BoundPredicate.Operand) -> BoundPredicate.Operand.NumberKind? {
            if case .value(.null) = o { return nil }
            return o.arithmeticKind
        }
        let (integer, real, op): (String, String, ComparisonOperator)
        switch (kind(lhs), kind(rhs)) {
        case (.integer?, .real?): (integer, real, op) = ("⟨0⟩", "⟨1⟩", written)
        case (.real?, .integer?): (integer, real, op) = ("⟨1⟩", "⟨0⟩", written.swapped)
        default: return nil
        }
        switch op {
        case .equal, .notEqual:
            // SQL's IS: nil equals nil and nothing else. A constant is never nil (and
            // PostgreSQL could not type a bare `$1 IS NULL`).
            let constant = lhs.isNonNilValue || rhs.isNonNilValue
            let exact = dialect.exactComparison(integer: integer, "=", real: real)
            let equal =
                constant
                ? "COALESCE(\(exact), \(dialect.literal(false)))"
                : "CASE WHEN \(integer) IS NULL OR \(real) IS NULL THEN \(integer) IS NULL AND \(real) IS NULL ELSE \(exact) END"
            return SQLTemplate(op == .equal ? "(\(equal))" : "NOT (\(equal))")
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            return SQLTemplate(dialect.exactComparison(integer: integer, op.rawValue, real: real))
        default:
            return nil
        }
    }

    /// `FROM ... WHERE <joined to qualifier>` for the members of the to-many relationship
    /// at the end of `path` (to-one steps before it are followed by key), and their alias.
    mutating func members(_ path: [PathStep], of qualifier: String, root: EntityStorage) -> (String, String) {
        var owner = qualifier
        var prefix = path
        let toMany = prefix.removeLast()
        var conditions: [String] = []
        var tables: [String] = []
        for step in prefix {
            aliases += 1
            let alias = quoteIdentifier("t\(aliases)")
            let destination = step.destinationStorage
            switch step.storage {
            case .foreignKey(let column, let targetKey):
                conditions.append(
                    "\(alias).\(targetKey.map(destination.column) ?? destination.key) = \(owner).\(quoteIdentifier(column))\(destination.objectRowsOnly(alias))"
                )
            case .compositeKey(let columns, let targetKeys):
                conditions.append(RelationshipStorage.compositeCondition(parent: alias, targetKeys: targetKeys, child: owner, columns: columns))
            default:
                aliases -= 1
                continue
            }
            tables.append("\(destination.table) AS \(alias)")
            owner = alias
        }
        aliases += 1
        let alias = quoteIdentifier("t\(aliases)")
        let destination = toMany.destinationStorage
        tables.append("\(destination.table) AS \(alias)")
        switch toMany.storage {
        case .inverseForeignKey(_, let column, let matched, _):
            // Matched by a column of the owner: that column on the left, so SQLite compares
            // with its collation, as its foreign key does (a parent's `code COLLATE NOCASE`
            // matches `'ABC'` to `'abc'`).
            if let matched {
                conditions.append("\(owner).\(quoteIdentifier(matched)) = \(alias).\(quoteIdentifier(column))")
            } else {
                conditions.append("\(alias).\(quoteIdentifier(column)) = \(owner).\(quoteIdentifier(ownerKey(path, root)))")
            }
        case .linkTable(let table, let sourceColumn, let targetColumn):
            // A semi-join, not a join: a to-many is a set, so a link row another program
            // wrote twice counts its member once (@count, @sum), as the objects list it.
            aliases += 1
            let link = quoteIdentifier("l\(aliases)")
            conditions.append(
                "\(alias).\(destination.key) IN (SELECT \(link).\(targetColumn) FROM \(quoteIdentifier(table)) AS \(link) "
                    + "WHERE \(link).\(sourceColumn) = \(owner).\(quoteIdentifier(ownerKey(path, root))))")
        case .inverseCompositeKey(_, let columns, let ownerKeys, _):
            conditions.append(RelationshipStorage.compositeCondition(parent: owner, targetKeys: ownerKeys, child: alias, columns: columns))
        case .foreignKey(let column, let targetKey):
            conditions.append("\(alias).\(targetKey.map(destination.column) ?? destination.key) = \(owner).\(quoteIdentifier(column))")
        case .compositeKey(let columns, let targetKeys):
            conditions.append(RelationshipStorage.compositeCondition(parent: alias, targetKeys: targetKeys, child: owner, columns: columns))
        }
        // The members are objects only: a WITHOUT ROWID table's rows keyed by text are none.
        if let test = destination.objectRowTest(alias) { conditions.append(test) }
        return ("FROM " + tables.joined(separator: ", ") + " WHERE " + conditions.joined(separator: " AND "), alias)
    }

    /// `template` with each slot the SQL of its operand, whose arguments are bound again
    /// wherever the slot is said.
    mutating func filled(_ template: SQLTemplate, _ operands: [BoundPredicate.Operand], _ qualifier: String, _ entity: EntityStorage) -> String {
        var said: [(String, [Value])] = []
        for o in operands {
            let before = arguments.count
            let sql = operand(o, [], qualifier, entity)
            said.append((sql, Array(arguments[before...])))
            arguments.removeSubrange(before...)
        }
        return fill(template, said)
    }

    /// `template` with each slot the SQL given for it, its arguments bound at each. An
    /// operand said more than once that is more than a column is said once, in a
    /// sub-select the template reads by name: pasted at each slot, nested arithmetic grew
    /// three times a level (14 additions made megabytes of SQL).
    mutating func fill(_ template: SQLTemplate, _ said: [(sql: String, arguments: [Value])]) -> String {
        var uses: [Int: Int] = [:]
        for case .slot(let i) in template.pieces { uses[i, default: 0] += 1 }
        if uses.contains(where: { $0.value > 1 && said.indices.contains($0.key) && !SQLTemplate.isPlain(said[$0.key].sql) }) {
            var body = ""
            for piece in template.pieces {
                switch piece {
                case .sql(let sql): body += sql
                case .slot(let i): body += said.indices.contains(i) ? "\"fill_\(i)\"" : "NULL"
                }
            }
            let named = said.enumerated().map { "\($0.element.sql) AS \"fill_\($0.offset)\"" }.joined(separator: ", ")
            arguments += said.flatMap(\.arguments)
            return "(SELECT \(body) FROM (SELECT \(named)) AS \"fill\")"
        }
        var out = ""
        for piece in template.pieces {
            switch piece {
            case .sql(let sql): out += sql
            case .slot(let i) where said.indices.contains(i):
                out += said[i].sql
                arguments += said[i].arguments
            case .slot: out += "NULL"
            }
        }
        return out
    }

    /// The key column of the entity that owns the last step.
    func ownerKey(_ path: [PathStep], _ root: EntityStorage) -> String {
        path.count >= 2 ? path[path.count - 2].destinationStorage.keyColumn : root.keyColumn
    }
}

import QuarryEngine
import QuarryModel
import QuarryStore

/// Operands in SQL: a column, a path's column (joined or by subquery), an aggregate of
/// members, a bound constant, arithmetic and functions in the dialect's SQL or Quarry's,
/// a date's part, a list.
extension PredicateSQLWriter {
    mutating func operand(_ o: BoundPredicate.Operand, _ options: ComparisonOptions, _ qualifier: String, _ entity: EntityStorage) -> String {
        if case .collection(.count, let path, nil, let filter) = o, let counted = memberCount(path, filter, of: qualifier, root: entity) {
            return counted
        }
        let text: String
        let isString: Bool
        switch o {
        case .attribute(let a):
            text = columnSQL(qualifier, a, in: entity)
            isString = a.type == .string
        case .path(let steps, let a):
            if qualifier == joins?.root, let column = joins?.column(steps, a, in: entity) {
                text = column
            } else {
                text = pathSQL(steps, a, from: qualifier, in: entity, aliases: &aliases)
            }
            isString = a.type == .string
        case .collection(let function, let path, let attribute, let filter):
            var (from, alias) = members(path, of: qualifier, root: entity)
            if let filter { from += " AND (\(render(filter, alias, path.last!.destinationStorage, positive: true)))" }
            // A `money` column as its numeric, an `interval` as its seconds, a NaN as nil, a date as it
            // compares (a number column of times as its date, a file's ISO text as seconds:
            // `comparable`, bare for a column of Quarry's own); others as kept.
            let members = path.last?.destinationStorage
            let argument =
                attribute.map { a -> String in
                    if let members,
                        members.numericCasts.contains(a.name) || members.intervalColumns.contains(a.name)
                            || members.nanColumns.contains(a.name) || a.type == .date
                    {
                        return members.comparable(alias, a)
                    }
                    return "\(alias).\(quoteIdentifier(a.name))"
                } ?? "*"
            // KVC's @sum of no members is 0, where SQLite's sum() gives NULL.
            let aggregate = "\(function.rawValue)(\(argument))"
            let subquery = "(SELECT \(function == .sum ? "coalesce(\(aggregate), 0)" : aggregate) \(from))"
            // @min and @max of an enum: the server's, in its labels' order, read as text as
            // the enum's column is (standard SQL's CAST, which every engine reads).
            text = o.enumeration != nil ? "CAST(\(subquery) AS text)" : subquery
            isString = attribute?.type == .string && (function == .min || function == .max)
        case .value(let v):
            // Folded here where the dialect folds in its own SQL: the same fold, and no
            // SQL to run on a constant.
            if !options.isEmpty, case .text(let s) = v, dialect.foldInSQL("?", options) != nil {
                arguments.append(.text(PredicateFunctions.fold(s, options)))
                return "?"
            }
            arguments.append(v)
            text = "?"
            isString = v.isText
        case .arithmetic(let op, let lhs, let rhs):
            // In the dialect's own SQL where it has it, for operands whose kind is known.
            if op == .subtract, lhs.isDate, rhs.isDate, let seconds = dialect.function("seconds", integer: false) {
                // Each date as its seconds since 1970, subtracted (a server's dates would
                // give an interval).
                text = "(\(filled(seconds, [lhs], qualifier, entity)) - \(filled(seconds, [rhs], qualifier, entity)))"
            } else if case .decimal? = o.arithmeticKind {
                if let template = dialect.decimalArithmetic(op.rawValue) {
                    text = filled(template, [lhs, rhs], qualifier, entity)
                } else {
                    let l = operand(lhs, [], qualifier, entity)
                    let r = operand(rhs, [], qualifier, entity)
                    text = dialect.call(PredicateFunctions.arithmetic, ["\(PredicateFunctions.code(op))", l, r])
                }
            } else if let l = lhs.arithmeticKind, let r = rhs.arithmeticKind,
                let template = dialect.arithmetic(op.rawValue, integers: l == .integer && r == .integer)
            {
                text = filled(template, [lhs, rhs], qualifier, entity)
            } else {
                let l = operand(lhs, [], qualifier, entity)
                let r = operand(rhs, [], qualifier, entity)
                text = dialect.call(PredicateFunctions.arithmetic, ["\(PredicateFunctions.code(op))", l, r])
            }
            isString = false
        case .function(let function, let argument):
            if let kind = function.isString || function.countsText ? (argument.isText ? .real : nil) : argument.arithmeticKind,
                let template = dialect.function(function.rawValue, integer: kind == .integer)
            {
                text = filled(template, [argument], qualifier, entity)
            } else {
                text = dialect.call(PredicateFunctions.function, ["\(PredicateFunctions.code(function))", operand(argument, [], qualifier, entity)])
            }
            isString = function.isString
        case .datePart(let part, let date):
            // The binder let a part through only where the dialect has it.
            return dialect.datePart(part, of: operand(date, [], qualifier, entity)) ?? "NULL"
        case .list(let values):
            return "(" + values.map { operand(.value($0), options, qualifier, entity) }.joined(separator: ", ") + ")"
        case .outer(let o):
            guard let scope = enclosing.popLast() else { return operand(o, options, qualifier, entity) }
            defer { enclosing.append(scope) }
            return operand(o, options, scope.qualifier, scope.storage)
        }
        guard !options.isEmpty, isString else { return text }
        return PredicateFunctions.sqlFold(text, options, dialect: dialect)
    }
}

extension BoundPredicate.Operand {
    /// Text for the case functions: a string attribute or constant.
    var isText: Bool {
        switch self {
        case .attribute(let a), .path(_, let a): return a.type == .string
        case .value(.text): return true
        case .function(let f, _): return f.isString
        case .outer(let o): return o.isText
        default: return false
        }
    }

    var isPath: Bool {
        if case .path = self { return true }
        return false
    }

    var isNonNilValue: Bool {
        if case .value(let v) = self { return !v.isNull }
        return false
    }
}

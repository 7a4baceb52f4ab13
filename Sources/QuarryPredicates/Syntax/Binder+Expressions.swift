import Foundation
import QuarryModel
import QuarryStore

/// Binding of computed expressions (arithmetic, index expressions, functions) and of
/// Foundation's unquantified membership tests.
extension Binder {
    func computed(_ expression: Expression, _ entity: EntityDescription) throws -> BoundPredicate.Operand {
        switch expression {
        case .arithmetic(let op, let lhs, let rhs, _):
            if let seconds = try dateDifference(expression, entity) { return seconds }
            let a = try number(lhs, entity)
            let b = try number(rhs, entity)
            if op == .quotient { return try quotient(a, b, rhs) }
            // Constants fold here, so `{1 + 1, 3}` is a list of values and SQL binds the answer.
            if case .value(let x) = a, case .value(let y) = b { return .value(ExpressionValues.arithmetic(op, x, y)) }
            return .arithmetic(op, a, b)
        case .negate(let inner, _):
            let a = try number(inner, entity)
            if case .value(let x) = a { return .value(ExpressionValues.arithmetic(.subtract, .integer(0), x)) }
            return .arithmetic(.subtract, .value(.integer(0)), a)
        case .index(let collection, let index, let column):
            return try indexed(collection, index, column, entity)
        case .function(let function, let arguments, let column):
            return try call(function, arguments, column, entity)
        default:
            return try operand(expression, entity)
        }
    }

    /// An operand of arithmetic or a numeric function: a number, a boolean (1 or 0, as
    /// NSNumber), nil, or a numeric attribute. Dates and strings are refused, as
    /// Foundation's `add:to:` and the rest are defined on numbers only.
    private func number(_ expression: Expression, _ entity: EntityDescription) throws -> BoundPredicate.Operand {
        let bound = try computed(expression, entity)
        switch bound {
        case .value(.bool(let b)): return .value(.integer(b ? 1 : 0))
        case .value(.integer), .value(.real), .value(.decimal), .value(.null): return bound
        case .value(let v):
            throw PredicateError(.typeMismatch, "arithmetic takes numbers, got \(v.described)", column: expression.column)
        case .list: throw PredicateError(.typeMismatch, "arithmetic takes numbers, not a list", column: expression.column)
        case .path(let steps, let a)
        where steps.last.map({ a.name == $0.destinationStorage.keyColumn && $0.destination.attribute(named: a.name) == nil }) == true:
            throw PredicateError(.typeMismatch, "'\(Self.text(expression))' is a relationship; arithmetic takes numbers", column: expression.column)
        default:
            if bound.isComputedNumber { return bound }
            guard let a = bound.typeAttribute else { return bound }
            guard [.int16, .int32, .int64, .double, .decimal, .bool].contains(a.type) else {
                if a.type == .date {
                    throw PredicateError(
                        .typeMismatch, "'\(a.name)' is a date; of dates arithmetic takes only a difference (a - b, in seconds)",
                        column: expression.column)
                }
                // Another program's text of ISO times: the `format()` that makes it dates,
                // whose difference is arithmetic, as a comparison with a date says.
                var owner = entity
                if case .path(let steps, _) = bound, let last = steps.last { owner = last.destination }
                let hint = a.type == .string ? context?.isoTextHint(owner, a.name) : nil
                var error = PredicateError(
                    .typeMismatch,
                    "'\(a.name)' is \(a.type.rawValue); arithmetic takes numbers"
                        + (hint == nil ? " (Foundation's add:to: and the rest are NSNumber methods)" : ""),
                    column: expression.column)
                error.remedy = hint
                throw error
            }
            return bound
        }
    }

    /// `list[SIZE]`, `list[FIRST]`, `list[n]`, `toMany[SIZE]`.
    private func indexed(_ collection: Expression, _ index: CollectionIndex, _ column: Int, _ entity: EntityDescription) throws
        -> BoundPredicate.Operand
    {
        if case .aggregate = collection, case .list(let values) = try operand(collection, entity) {
            switch index {
            case .size: return .value(.integer(Int64(values.count)))
            case .first: return .value(values.first ?? .null)
            case .last: return .value(values.last ?? .null)
            case .position(let n):
                // Zero-based, as NSArray's objectAtIndex:, which the index expression calls.
                guard n >= 0, n < values.count else {
                    throw PredicateError(
                        .invalidUse, "index \(n) is outside the list of \(values.count) element\(values.count == 1 ? "" : "s") (the first is [0])",
                        column: column)
                }
                return .value(values[Int(n)])
            }
        }
        guard case .keyPath(let path) = collection else {
            throw PredicateError(.invalidUse, "an index [\(index.text)] applies to a to-many relationship or a list { }", column: column)
        }
        guard let steps = toManySteps(path, entity), steps.count == path.components.count else {
            throw PredicateError(
                .invalidUse, "an index [\(index.text)] applies to a to-many relationship or a list { }, and '\(path.string)' is neither",
                column: column)
        }
        guard index == .size else {
            throw PredicateError(
                .invalidUse,
                "'\(path.string)' is a to-many relationship, an unordered set in Core Data, so [\(index.text)] has no meaning; use [SIZE] or @count",
                column: column)
        }
        return .collection(.count, path: steps, nil)
    }

    /// The steps of `path` up to and including its first to-many relationship, when every
    /// step before it is a to-one relationship; nil otherwise.
    func toManySteps(_ path: KeyPath, _ entity: EntityDescription) -> [PathStep]? {
        var steps: [PathStep] = []
        var current = entity
        for name in path.components {
            guard current.relationship(named: name) != nil, let step = try? self.step(name, from: current, path: path) else { return nil }
            steps.append(step)
            if step.relationship.isToMany { return steps }
            current = step.destination
        }
        return nil
    }

    private func call(_ function: BuiltinFunction, _ arguments: [Expression], _ column: Int, _ entity: EntityDescription) throws
        -> BoundPredicate.Operand
    {
        if function == .now { return .value(.date(Date().timeIntervalSince1970)) }
        guard let argument = arguments.first else { return .value(.null) }
        if function.isAggregate { return try aggregate(function, argument, column, entity) }
        if function.isString {
            let bound = try computed(argument, entity)
            switch bound {
            case .value(let v):
                guard case .text = v else {
                    if v.isNull { return bound }
                    throw PredicateError(.typeMismatch, "'\(function.selector)' takes a string, got \(v.described)", column: argument.column)
                }
                return .value(ExpressionValues.apply(function, v))
            default:
                guard bound.typeAttribute?.type == .string else {
                    throw PredicateError(
                        .typeMismatch, "'\(function.selector)' takes a string, and '\(Self.text(argument))' is not one", column: argument.column)
                }
                return .function(function, bound)
            }
        }
        let bound = try number(argument, entity)
        if case .value(let v) = bound { return .value(ExpressionValues.apply(function, v)) }
        return .function(function, bound)
    }

    /// `sum:({1, 2})` folds; `sum:(items.price)` is `items.@sum.price`; `count:(items)`
    /// is `items.@count`.
    private func aggregate(_ function: BuiltinFunction, _ argument: Expression, _ column: Int, _ entity: EntityDescription) throws
        -> BoundPredicate.Operand
    {
        let collection: BoundPredicate.CollectionFunction
        switch function {
        case .count: collection = .count
        case .sum: collection = .sum
        case .average: collection = .avg
        case .min: collection = .min
        default: collection = .max
        }
        switch argument {
        case .aggregate:
            guard case .list(let values) = try operand(argument, entity) else { return .value(.null) }
            return .value(ExpressionValues.aggregate(collection, values))
        case .keyPath(let path):
            if let steps = toManySteps(path, entity) {
                var components = path.components
                components.insert("@" + collection.rawValue, at: steps.count)
                if collection == .count, steps.count < path.components.count {
                    throw PredicateError(
                        .invalidUse, "'count:' counts the members of a to-many relationship, as count:(items)", column: argument.column)
                }
                return try operand(.keyPath(KeyPath(components, column: path.column)), entity)
            }
            if let column = columnNamedAsCall(path, entity) {
                // `sum(profit) > 3000` on the table an export of a grouped fetch made: its
                // column is named as the call is written, which %K reads as a name.
                throw PredicateError(
                    .invalidUse,
                    "'\(column)' is read as a call of the function \(function.selector); \(entity.name) has a column named '\(column)': "
                        + "write %K and give its name as the argument (\"%K ...\", \"\(column)\")", column: argument.column)
            }
            fallthrough
        default:
            throw PredicateError(
                .invalidUse, "'\(function.selector)' takes a list { } or a key path through a to-many relationship", column: argument.column)
        }
    }

    /// The column of `entity` named as an aggregate's call over `path` is written
    /// (`sum(profit)`, `count(*)`), as an imported export of grouped rows names them.
    private func columnNamedAsCall(_ path: KeyPath, _ entity: EntityDescription) -> String? {
        let argument = "(" + path.string.lowercased() + ")"
        return entity.attributeNames.first { name in
            let lowered = name.lowercased()
            return lowered.hasSuffix(argument) && ["sum", "count", "avg", "average", "min", "max"].contains(String(lowered.dropLast(argument.count)))
        }
    }

    /// `children.name CONTAINS 'x'`, `'x' IN children.name`, `%@ IN children`: Foundation
    /// tests whether the collection holds the value, which is `ANY children.name == 'x'`.
    func membership(_ c: Comparison, _ entity: EntityDescription) throws -> BoundPredicate.Node? {
        guard c.modifier == .direct else { return nil }
        let collection: Expression
        let element: Expression
        switch c.op {
        case .contains: (collection, element) = (c.lhs, c.rhs)
        case .in: (collection, element) = (c.rhs, c.lhs)
        default: return nil
        }
        guard case .keyPath(let path) = collection, !path.components.contains(where: { $0.hasPrefix("@") }),
            let steps = toManySteps(path, entity)
        else { return nil }
        if case .aggregate = element { return nil }
        if steps.count == path.components.count, let last = steps.last {
            try refuseMemberConstant(path, last.destination, element, c.op)
        }
        // A path that ends at the relationship compares members by identity.
        let components = steps.count == path.components.count ? path.components + ["SELF"] : path.components
        let rewritten = Comparison(
            lhs: .keyPath(KeyPath(components, column: path.column)), op: .equal, rhs: element,
            options: c.options, modifier: .any)
        return try bind(.comparison(rewritten), entity)
    }

    /// A computed number compared with a string, a date or a relationship is refused,
    /// as Foundation refuses it, rather than answered by SQLite's ordering of kinds.
    func checkComputed(_ side: BoundPredicate.Operand, against other: BoundPredicate.Operand, _ expression: Expression, _ otherExpression: Expression)
        throws
    {
        guard side.isComputedNumber else { return }
        if case .value(let v) = other {
            switch v {
            case .integer, .real, .decimal, .bool, .null: return
            default:
                throw PredicateError(
                    .typeMismatch, "'\(Self.text(expression))' is a number and cannot be compared with \(v.described)", column: otherExpression.column
                )
            }
        }
        if let a = other.typeAttribute, ![.int16, .int32, .int64, .double, .decimal, .bool].contains(a.type) {
            throw PredicateError(
                .typeMismatch, "'\(Self.text(expression))' is a number and cannot be compared with '\(a.name)', which is \(a.type.rawValue)",
                column: otherExpression.column)
        }
    }

    /// The expression as written, for messages.
    static func text(_ expression: Expression) -> String {
        Predicate.comparison(Comparison(lhs: expression, op: .equal, rhs: .constant(.null, column: 0))).description
            .replacingOccurrences(of: " == nil", with: "")
    }
}

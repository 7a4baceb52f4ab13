import QuarryModel
import QuarryStore

/// An expression on its own, bound to an entity: a dictionary request's computed column
/// (`UnitPrice * Quantity`, the argument of `sum(...)`). It is bound and compiled as the
/// same expression in a predicate is, so `/` divides as reals and division by zero is nil
/// in both (`ExpressionValues`, through `quarry_arith` in SQL).
public struct BoundExpression {
    public let operand: BoundPredicate.Operand
    /// Where the entity's rows are (the store's mapping).
    public let storage: EntityStorage

    public init(_ expression: Expression, entity: EntityDescription, context: ObjectContext?) throws {
        storage = StoreMapping.storage(of: entity, in: context)
        let bound = try Binder(context: context).operand(expression, entity)
        if case .list = bound { throw PredicateError(.invalidUse, "a list { } is not a value of one row", column: expression.column) }
        if case .path(let steps, let a) = bound,
            steps.last.map({ a.name == $0.destinationStorage.keyColumn && $0.destination.attribute(named: a.name) == nil }) == true
        {
            throw PredicateError(
                .invalidUse, "'\(Binder.text(expression))' is a relationship; name one of its attributes, as \(Binder.text(expression)).name",
                column: expression.column)
        }
        operand = bound
        // SQLite's parser stack is small (see BoundPredicate.maximumNesting).
        if BoundPredicate.nesting(.comparison(lhs: bound, op: .equal, rhs: .value(.null), options: [])) > BoundPredicate.maximumNesting {
            throw PredicateError(
                .tooDeep, "the expression nests more than \(BoundPredicate.maximumNesting) levels deep, more than SQLite takes", column: 1)
        }
    }

    /// The type of the values it gives, as far as it is known: an attribute's own, a count's
    /// integer, a quotient's real; nil for nil.
    public var type: AttributeType? { Self.type(of: operand) }

    static func type(of operand: BoundPredicate.Operand) -> AttributeType? {
        let integers: [AttributeType] = [.int16, .int32, .int64, .bool]
        switch operand {
        case .attribute(let a), .path(_, let a): return a.type
        case .collection: return operand.typeAttribute?.type
        case .value(let v):
            switch v {
            case .integer: return .int64
            case .real: return .double
            case .bool: return .bool
            case .text, .textBytes: return .string
            case .date: return .date
            case .blob: return .binary
            case .decimal: return .decimal
            case .null: return nil
            }
        case .list: return nil
        case .outer(let o): return type(of: o)
        case .datePart(let part, _): return part.type
        case .arithmetic(let op, let l, let r):
            // Integers stay integers for + - * (ExpressionValues.arithmetic); nil is either.
            guard op != .divide, op != .power else { return .double }
            let types = [type(of: l), type(of: r)].compactMap { $0 }
            // Exact while decimals meet decimals and integers (`ExpressionValues.arithmetic`).
            if types.contains(.decimal), op != .modulus, types.allSatisfy({ $0 == .decimal || integers.contains($0) }) { return .decimal }
            return types.allSatisfy(integers.contains) ? .int64 : .double
        case .function(let f, let a):
            if f.isString { return .string }
            switch f {
            case .length, .characters: return .int64
            case .abs, .floor, .ceiling, .trunc:
                return type(of: a).map { integers.contains($0) ? .int64 : .double } ?? .double
            default: return .double
            }
        }
    }

    /// True when it reads nothing but constants.
    public var isConstant: Bool {
        if case .value = operand { return true }
        return false
    }
}

import QuarryStore

/// A predicate checked against one entity: key paths resolved to attributes, constants
/// converted to the type of what they are compared with. SQL and in-memory evaluation
/// both read this, so they see the same values.
public struct BoundPredicate {
    public let entity: EntityDescription
    public let root: Node
    /// The predicate as parsed, for formatting.
    public let source: Predicate

    public indirect enum Node {
        case constant(Bool)
        case comparison(lhs: Operand, op: ComparisonOperator, rhs: Operand, options: ComparisonOptions)
        case not(Node)
        case and([Node])
        case or([Node])
    }

    public enum Operand {
        case attribute(AttributeDescription)
        case value(Value)
        /// The right side of IN and BETWEEN.
        case list([Value])
    }

    /// Resolves `predicate` against `entity`; unknown keys and values of the wrong type
    /// are errors that name the column.
    public init(_ predicate: Predicate, entity: EntityDescription) throws {
        self.entity = entity
        self.source = predicate
        self.root = try Self.bind(predicate, entity)
    }

    private static func bind(_ predicate: Predicate, _ entity: EntityDescription) throws -> Node {
        switch predicate {
        case .constant(let b): return .constant(b)
        case .not(let p): return .not(try bind(p, entity))
        case .and(let ps): return .and(try ps.map { try bind($0, entity) })
        case .or(let ps): return .or(try ps.map { try bind($0, entity) })
        case .comparison(let c):
            var lhs = try operand(c.lhs, entity)
            var rhs = try operand(c.rhs, entity)
            if case .list = lhs { throw PredicateError("a list { } can only stand after IN or BETWEEN", column: c.lhs.column) }
            if case .list = rhs, c.op != .in, c.op != .between {
                throw PredicateError("a list { } can only stand after IN or BETWEEN", column: c.rhs.column)
            }
            if c.op == .in || c.op == .between {
                guard case .list(let values) = rhs else {
                    throw PredicateError("\(c.op.rawValue) needs a list such as {1, 2} or a list argument; IN a to-many key path needs relationships, which are not supported yet", column: c.rhs.column)
                }
                if case .attribute(let a) = lhs { rhs = .list(try values.map { try convert($0, to: a, at: c.rhs) }) }
                return .comparison(lhs: lhs, op: c.op, rhs: rhs, options: c.options)
            }
            if c.op.isStringOperator {
                try requireString(lhs, c.op, c.lhs)
                try requireString(rhs, c.op, c.rhs)
                if c.op == .matches, case .value(.text(let pattern)) = rhs, StringMatching.regex(pattern, c.options) == nil {
                    throw PredicateError("MATCHES: '\(pattern)' is not a valid regular expression", column: c.rhs.column)
                }
                return .comparison(lhs: lhs, op: c.op, rhs: rhs, options: c.options)
            }
            if case .attribute(let a) = lhs, case .attribute(let b) = rhs, (a.type == .string) != (b.type == .string) {
                // SQLite would convert the text by column affinity; Foundation would refuse.
                throw PredicateError("'\(a.name)' is \(a.type.rawValue) and cannot be compared with '\(b.name)', which is \(b.type.rawValue)", column: c.lhs.column)
            }
            if case .attribute(let a) = lhs, case .value(let v) = rhs { rhs = .value(try convert(v, to: a, at: c.rhs)) }
            if case .value(let v) = lhs, case .attribute(let a) = rhs { lhs = .value(try convert(v, to: a, at: c.lhs)) }
            return .comparison(lhs: lhs, op: c.op, rhs: rhs, options: c.options)
        }
    }

    private static func requireString(_ operand: Operand, _ op: ComparisonOperator, _ expression: Expression) throws {
        switch operand {
        case .attribute(let a) where a.type != .string:
            throw PredicateError("\(op.rawValue) compares strings, but '\(a.name)' is \(a.type.rawValue)", column: expression.column)
        case .value(let v):
            switch v {
            case .text, .null: break
            default: throw PredicateError("\(op.rawValue) compares strings, got \(v.kindName) \(v.displayString)", column: expression.column)
            }
        default: break
        }
    }

    private static func operand(_ expression: Expression, _ entity: EntityDescription) throws -> Operand {
        switch expression {
        case .constant(let value, _): return .value(value)
        case .aggregate(let elements, _):
            return .list(try elements.map { element in
                guard case .constant(let value, _) = element else {
                    throw PredicateError("a list { } holds values, not key paths", column: element.column)
                }
                return value
            })
        case .keyPath(let path):
            guard path.components.count == 1, let attribute = entity.attribute(named: path.components[0]) else {
                let suggestion = closestMatch(to: path.string, in: entity.attributeNames)
                throw PredicateError("unknown key path '\(path.string)' on entity \(entity.name)"
                    + (suggestion.map { " (did you mean '\($0)'?)" } ?? ""), column: path.column)
            }
            return .attribute(attribute)
        }
    }

    private static func convert(_ value: Value, to attribute: AttributeDescription, at expression: Expression) throws -> Value {
        if case .null = value { return value }
        if attribute.type == .bool, case .integer(let i) = value, i == 0 || i == 1 { return .bool(i == 1) }
        // `n < 2.5` on an integer attribute compares numerically, as SQLite and Foundation do.
        if [.int16, .int32, .int64].contains(attribute.type), case .real(let d) = value, d.isFinite, d != d.rounded() || abs(d) >= 9.2e18 { return value }
        switch attribute.type.coerce(value) {
        case .success(let v): return v
        case .failure:
            let column = expression.column
            let shown: String
            if case .text(let s) = value { shown = "string \"\(s)\"" } else { shown = "\(value.kindName) \(value.displayString)" }
            throw PredicateError("'\(attribute.name)' is \(attribute.type.rawValue) and cannot be compared with \(shown)", column: column)
        }
    }
}

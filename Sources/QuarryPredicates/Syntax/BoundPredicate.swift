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
            if case .attribute(let a) = lhs, case .value(let v) = rhs { rhs = .value(try convert(v, to: a, at: c.rhs)) }
            if case .value(let v) = lhs, case .attribute(let a) = rhs { lhs = .value(try convert(v, to: a, at: c.lhs)) }
            return .comparison(lhs: lhs, op: c.op, rhs: rhs, options: c.options)
        }
    }

    private static func operand(_ expression: Expression, _ entity: EntityDescription) throws -> Operand {
        switch expression {
        case .constant(let value, _): return .value(value)
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
        switch attribute.type.coerce(value) {
        case .success(let v): return v
        case .failure:
            var column: Int?
            if case .constant(_, let c) = expression { column = c }
            let shown: String
            if case .text(let s) = value { shown = "string \"\(s)\"" } else { shown = "\(value.kindName) \(value.displayString)" }
            throw PredicateError("'\(attribute.name)' is \(attribute.type.rawValue) and cannot be compared with \(shown)", column: column)
        }
    }
}

import QuarryModel
import QuarryStore

/// A relationship compared with a constant (`value == 'arXiv Fulltext PDF'` where `value`
/// is the to-one to `itemDataValues`, `creators CONTAINS 'Togelius'`): a relationship
/// holds objects, so the comparison is a mistake. Read as the related row's key it
/// would compare the key column with the text and answer nothing, in SQL and in memory
/// alike, without a word; it is refused instead, naming attributes that hold such a
/// value (`value.value`). Nil and objects (`%@`) stay the relationship's own comparisons.
extension Binder {
    /// Refuses `operand` (bound from `expression`) when it names a to-one relationship and
    /// `other` is a constant, or a list of them, that is neither nil nor an object.
    func refuseRelationshipConstant(
        _ operand: BoundPredicate.Operand, _ expression: Expression, against other: Expression, _ op: ComparisonOperator
    ) throws {
        guard let value = Self.constantValue(other), case .keyPath(let path) = expression else { return }
        var side = operand
        if case .outer(let own) = operand { side = own }
        // A path that ends at a to-one: one step for each name written.
        guard case .path(let steps, _) = side, steps.count == path.components.count, let last = steps.last, !last.relationship.isToMany
        else { return }
        if let quantifiedPrefix {
            // `ANY itemDatas.value == 'x'`: the member's relationship, named with its path.
            let written = String(quantifiedPrefix.drop(while: { $0 != " " }).dropFirst()) + "." + path.string
            let paths = attributePaths(written, last.destination, for: value)
            let such = paths.first.map { "; compare one of its attributes, such as \(quantifiedPrefix.prefix(while: { $0 != " " })) \($0)" } ?? ""
            throw PredicateError(
                .typeMismatch, "'\(written)' is a relationship to \(last.destination.name): it compares with an object (%@) or nil\(such)",
                column: path.column)
        }
        throw relationshipConstantError(path.string, last.destination, value: value, op: op, column: path.column)
    }

    /// `ANY creators == 'x'`: a key of the members to compare instead, of the constant's
    /// kind when the other side is one (`creators.lastName`), else the members' key
    /// attribute (`employees.emp_no`), else their first attribute: a key that exists.
    func memberKey(_ written: String, _ destination: EntityDescription, against other: Expression) -> String {
        if let value = Self.constantValue(other), let path = attributePaths(written, destination, for: value).first { return path }
        let key = storage(of: destination).keyColumn
        let links = Set(destination.toOneRelationships.flatMap(\.linkColumns))
        let name =
            destination.attribute(named: key)?.name ?? destination.attributes.first { !links.contains($0.name) }?.name
            ?? destination.attributes.first?.name ?? "SELF"
        return "\(written).\(name)"
    }

    /// `creators CONTAINS 'x'`, `'x' IN creators`: membership of a constant in a to-many.
    func refuseMemberConstant(_ path: KeyPath, _ destination: EntityDescription, _ element: Expression, _ op: ComparisonOperator) throws {
        guard let value = Self.constantValue(element) else { return }
        throw relationshipConstantError(path.string, destination, value: value, op: op, column: path.column, toMany: true)
    }

    /// The constant `expression` stands for, nil for nil, objects and everything else; a
    /// list's first value that is not nil.
    private static func constantValue(_ expression: Expression) -> Value? {
        switch expression {
        case .constant(let v, _): return v.isNull ? nil : v
        case .aggregate(let elements, _):
            for case .constant(let v, _) in elements where !v.isNull { return v }
            return nil
        default: return nil
        }
    }

    private func relationshipConstantError(
        _ written: String, _ destination: EntityDescription, value: Value, op: ComparisonOperator, column: Int, toMany: Bool = false
    ) -> PredicateError {
        let paths = attributePaths(written, destination, for: value)
        let such: String
        if paths.isEmpty {
            such = "compare one of its attributes"
        } else if toMany {
            let literal: String
            if case .text(let s) = value {
                literal = "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
            } else {
                literal = value.displayString
            }
            such = "compare one of its members' attributes, as ANY \(paths[0]) \(op == .in ? "==" : op.rawValue) \(literal)"
        } else {
            such = "compare one of its attributes, such as \(paths.joined(separator: " or "))"
        }
        let kind = value.kindName.first.map { "aeiou".contains($0) } == true ? "an " : "a "
        return PredicateError(
            .typeMismatch,
            "'\(written)' is a relationship to \(destination.name): it compares with an object (%@) or nil, not \(kind)\(value.kindName); \(such)",
            column: column)
    }

    /// Up to two key paths through `written` to attributes of `destination` that hold
    /// values of `value`'s kind: text in its string attributes (not the columns of its
    /// own links), a number in its key, then its number attributes, a date in its dates.
    func attributePaths(_ written: String, _ destination: EntityDescription, for value: Value) -> [String] {
        let links = Set(destination.toOneRelationships.flatMap(\.linkColumns))
        let key = storage(of: destination).keyColumn
        let kinds: [AttributeType]
        switch value {
        case .text, .textBytes: kinds = [.string, .uuid]
        case .date: kinds = [.date]
        case .blob: kinds = [.binary]
        default: kinds = [.int16, .int32, .int64, .double, .decimal, .bool]
        }
        var names = destination.attributes.filter { kinds.contains($0.type) && !links.contains($0.name) }.map(\.name)
        if kinds.contains(.int64), destination.attribute(named: key) != nil {
            names.removeAll { $0 == key }
            names.insert(key, at: 0)
        }
        if names.isEmpty { names = destination.attributes.filter { !links.contains($0.name) && $0.name != key }.map(\.name) }
        return names.prefix(2).map { "\(written).\($0)" }
    }
}

import QuarryModel
import QuarryStore

/// Key paths that name a part of a date (`start.year`, `flight.time_hour.date`) and the
/// seconds between two dates (`arr - dep`), as Lua reads them (`d.year`, `d1 - d2`).
extension Binder {
    /// `start.year`: the part, when the path without its last name reaches a date
    /// attribute (through to-one relationships); nil for any other path.
    func datePart(_ path: KeyPath, _ entity: EntityDescription) throws -> BoundPredicate.Operand? {
        guard path.components.count >= 2, let last = path.components.last, entity.attribute(named: path.string) == nil else { return nil }
        let date = KeyPath(Array(path.components.dropLast()), column: path.column)
        guard reachedAttribute(date, entity)?.type == .date else { return nil }
        guard let part = DatePart(rawValue: last) else {
            let parts = DatePart.allCases.map(\.rawValue)
            throw PredicateError(
                .unknownKey, "'\(date.string)' is a date, whose parts are \(parts.joined(separator: ", ")); '\(last)' is none of them",
                column: path.column, suggestion: closestMatch(to: last, in: parts))
        }
        if let dialect = context?.sqlDialect, dialect.function(part.rawValue, integer: false) == nil {
            throw PredicateError(.unsupported, "'\(path.string)': this store's SQL computes no date parts", column: path.column)
        }
        return .datePart(part, try operand(.keyPath(date), entity))
    }

    /// The attribute a key path ends at, through relationships by name only; nil where it
    /// ends elsewhere or names no key.
    private func reachedAttribute(_ path: KeyPath, _ entity: EntityDescription) -> AttributeDescription? {
        var current = entity
        for (i, name) in path.components.enumerated() {
            if i == path.components.count - 1 { return current.attribute(named: name) }
            guard let relationship = current.relationship(named: name), let context,
                let next = try? context.entity(named: relationship.destination)
            else { return nil }
            current = next
        }
        return nil
    }

    /// `a - b` of two dates: their seconds apart, a real (`SQLDialect.function`, `seconds`); nil
    /// when it is not a subtraction of two dates.
    func dateDifference(_ expression: Expression, _ entity: EntityDescription) throws -> BoundPredicate.Operand? {
        guard case .arithmetic(.subtract, let lhs, let rhs, _) = expression else { return nil }
        let a = try computed(lhs, entity)
        let b = try computed(rhs, entity)
        guard a.isDate, b.isDate else { return nil }
        if case .value(let x) = a, case .value(let y) = b { return .value(ExpressionValues.arithmetic(.subtract, x, y)) }
        return .arithmetic(.subtract, a, b)
    }
}

extension Binder {
    /// What a number column compared with a date needs, ready to paste: `format()` with
    /// the entity's name and, first, the unit that reads the column's numbers near today
    /// (`ObjectContext.timeLayoutNearToday`), else Unix seconds.
    func timeUnitHint(_ attribute: AttributeDescription, _ owner: EntityDescription?) -> String {
        if let owner, context?.holdsDigitDays(owner, attribute.name) == true { return "; " + ObjectContext.digitDaysAdvice(attribute.name) }
        let near = owner.flatMap { context?.timeLayoutNearToday($0, attribute.name) }
        let unit = near?.name ?? "unix"
        let others = ["unix", "unix-ms", "unix-us", "cocoa", "webkit"].filter { $0 != unit }.joined(separator: ", ")
        let reads = near.map { " (as \($0.name), one of its values reads \($0.reading))" } ?? ""
        // The key rows are known by stays a number: format() refuses it, so say what works.
        if let owner, let format = ColumnFormat(name: unit), let advice = context?.keyTimeAdvice(owner, attribute.name, as: format) {
            return "; \(advice)" + reads
        }
        return
            "; if another program keeps times there, declare their unit: format(\"\(owner?.name ?? "entity")\", \"\(attribute.name)\", \"\(unit)\")"
            + reads + (near == nil ? ", or \(others), ..." : "")
    }

    /// The entity whose attribute `operand` reads (an attribute's, a key path's last).
    func owner(of operand: BoundPredicate.Operand, _ entity: EntityDescription, outer: EntityDescription?) -> EntityDescription? {
        switch operand {
        case .attribute: return entity
        case .path(let steps, _): return steps.last?.destination
        case .outer(let o): return outer.flatMap { owner(of: o, $0, outer: nil) }
        default: return nil
        }
    }
}

import QuarryModel
import QuarryStore

/// Operands: key paths resolved to attributes and relationship steps (an unknown key
/// refused with the key near it), constants, lists and SUBQUERY counts.
extension Binder {
    func step(_ name: String, from entity: EntityDescription, path: KeyPath) throws -> PathStep {
        guard let relationship = entity.relationship(named: name) else {
            if entity.attribute(named: name) != nil { throw attributeNotRelationship(name, entity, path: path) }
            throw unknown(path, entity, name)
        }
        guard let context, let storage = context.storage(of: relationship, in: entity.name),
            let destination = try? context.entity(named: relationship.destination)
        else {
            throw PredicateError(
                .invalidUse, "'\(path.string)' crosses '\(name)', whose entity \(relationship.destination) is not available here", column: path.column
            )
        }
        let destinationStorage = context.mapped(destination)
        return PathStep(
            relationship: relationship, storage: storage, destination: destination, destinationStorage: destinationStorage,
            convertsDestination: convertsDestination(storage, from: entity, in: context, to: destination, destinationStorage))
    }

    /// Whether SQLite's join on a link matched by value converts the destination's column
    /// (`PathStep.convertsDestination`), from the two columns' affinities as another
    /// program's file declares them.
    private func convertsDestination(
        _ storage: RelationshipStorage, from entity: EntityDescription, in context: ObjectContext, to destination: EntityDescription,
        _ destinationStorage: EntityStorage
    ) -> Bool {
        guard case .foreignKey(let column, let targetKey) = storage,
            let own = entity.attribute(named: column).flatMap({ ColumnAffinity(of: $0, in: context.mapped(entity)) })
        else { return false }
        let target = destination.attribute(named: targetKey ?? destinationStorage.keyColumn).flatMap {
            ColumnAffinity(of: $0, in: destinationStorage)
        }
        return own.convertsInJoin(target)
    }

    /// A constant as the store compares it: a decimal as the double a SQLite store keeps
    /// it as (`SQLDialect.keepsDecimalsAsDoubles`), so that SQL binds, and memory compares
    /// and computes, the same number (an exact decimal argument bound as text never equals
    /// a REAL column's value in SQLite, where memory found it equal).
    func constant(_ value: Value) -> Value {
        guard case .decimal(let text) = value, context?.sqlDialect.keepsDecimalsAsDoubles == true else { return value }
        return .real(DecimalText.double(text))
    }

    func unknown(_ path: KeyPath, _ entity: EntityDescription, _ name: String) -> PredicateError {
        let subject = path.components.count == 1 ? "key path '\(path.string)'" : "key '\(name)' in key path '\(path.string)'"
        // A column that names rows of another table the file declares no key for: the way
        // is relate(), not the column (`dashboard_id`) that the name resembles.
        if let relate = relateSuggestion(for: name, on: entity) {
            return PredicateError(
                .unknownKey, "unknown \(subject) on entity \(entity.name); no relationship '\(name)' is declared: \(relate) makes it",
                column: path.column)
        }
        if entity.attribute(named: name) == nil, let join = joinSuggestion(for: name, on: entity, path: path) {
            return PredicateError(.unknownKey, "unknown \(subject) on entity \(entity.name); \(join)", column: path.column)
        }
        let suggestion = closestMatch(to: name, in: entity.keyNames)
        if suggestion == nil, path.components.count == 1, let objectID = KeyWayForward.objectID(for: name, on: entity) {
            return PredicateError(.unknownKey, "unknown \(subject) on entity \(entity.name); \(objectID)", column: path.column)
        }
        var error = PredicateError(.unknownKey, "unknown \(subject) on entity \(entity.name)", column: path.column, suggestion: suggestion)
        // `Density_P/Km² > 5000`: the grammar ends a key at the `/`, so the key suggested
        // cannot be typed bare either; %K takes it, as it takes a name with a space.
        if let suggestion, path.components.count == 1, suggestion.hasPrefix(name),
            let odd = suggestion.dropFirst(name.count).first(where: { !($0.isLetter || $0.isNumber || $0 == "_") })
        {
            error.remedy =
                "a key with '\(odd)' in its name is written %K with the name among the arguments, as \"%K == %@\", \"\(suggestion)\", value"
        }
        return error
    }

    func operand(_ expression: Expression, _ entity: EntityDescription) throws -> BoundPredicate.Operand {
        switch expression {
        case .constant(let value, _): return .value(constant(value))
        case .object(let reference, let column): return .value(.integer(try identityKey(reference, column)))
        case .aggregate(let elements, _):
            return .list(
                try elements.map { element in
                    if case .object(let reference, let column) = element { return .integer(try identityKey(reference, column)) }
                    guard case .constant(let value, _) = element else {
                        throw PredicateError(.invalidUse, "a list { } holds values, not key paths", column: element.column)
                    }
                    return constant(value)
                })
        case .subqueryCount(let collection, _, let predicate, _):
            // On a quantified comparison's left, a SUBQUERY is the object's own.
            if let side = quantifiedSide { return try outerOperand(expression, side.outer) }
            var steps: [PathStep] = []
            var current = entity
            for name in collection.components {
                let step = try self.step(name, from: current, path: collection)
                steps.append(step)
                current = step.destination
            }
            guard steps.last?.relationship.isToMany == true, steps.dropLast().allSatisfy({ !$0.relationship.isToMany }) else {
                throw PredicateError(.invalidUse, "SUBQUERY needs a key path that ends in a to-many relationship", column: collection.column)
            }
            return .collection(.count, path: steps, nil, filter: try bind(predicate, current))
        case .arithmetic, .negate, .index, .function:
            return try computed(expression, entity)
        case .conditional(_, _, _, let column):
            // A comparison distributes its TERNARYs before its sides are bound; one left here
            // stands where no comparison is (a dictionary request's column).
            throw PredicateError(
                .unsupported, "TERNARY(...) is read in a comparison (TERNARY(p, a, b) == x), not as a value on its own", column: column)
        case .keyPath(let path):
            if let side = quantifiedSide {
                // The left side of a quantified comparison: the member's keys, else the object's.
                // The path is matched by the relationships it reaches, not by its words: a
                // to-one may be named by another name it answers to (`airlines` for `airline`).
                if let steps = toManySteps(path, side.outer), steps.map(\.relationship.name) == side.prefix,
                    path.components.count > steps.count
                {
                    var unscoped = self
                    unscoped.quantifiedSide = nil
                    return try unscoped.operand(.keyPath(KeyPath(Array(path.components.dropFirst(steps.count)), column: path.column)), side.member)
                }
                return try outerOperand(expression, side.outer)
            }
            if path.components == ["SELF"] {
                // A column named `self` (any case): SELF is the object in NSPredicate's
                // grammar, which compared its key with the value and named that column.
                if let named = entity.attributes.first(where: { $0.name.lowercased() == "self" }) {
                    throw PredicateError(
                        .syntax, "'self' is SELF, the object itself, in a predicate (write #\(named.name) for the key of that name)",
                        column: path.column)
                }
                return .attribute(storage(of: entity).keyAttribute)
            }
            if let part = try datePart(path, entity) { return part }
            if let count = try stringCount(path, entity) { return count }
            if path.components.count == 1 {
                guard let attribute = entity.attribute(named: path.components[0]) else {
                    if let relationship = entity.relationship(named: path.components[0]) {
                        if !relationship.isToMany, context != nil {
                            // `owner == nil`: the related object's key, nil when there is none.
                            let step = try self.step(relationship.name, from: entity, path: path)
                            return .path([step], step.destinationStorage.keyAttribute)
                        }
                        throw PredicateError(
                            .invalidUse, "'\(path.string)' is a relationship; compare one of its keys, as \(path.string).name, or use @count",
                            column: path.column)
                    }
                    throw unknown(path, entity, path.components[0])
                }
                return .attribute(attribute)
            }
            var steps: [PathStep] = []
            var current = entity
            var index = 0
            while index < path.components.count {
                let name = path.components[index]
                // A composite's element (a SwiftData struct's `author.person`) is an
                // attribute named by its path: the rest of the path names it. Joined as an
                // Array, as every other name is: the first join of an ArraySlice has the
                // runtime look up its conformances (0.29M instructions).
                if index + 1 < path.components.count, !name.hasPrefix("@"),
                    let attribute = current.attribute(named: Array(path.components[index...]).joined(separator: "."))
                {
                    if let toMany = steps.first(where: { $0.relationship.isToMany }) {
                        throw PredicateError.crossing(toMany.relationship.name, in: path.string, column: path.column)
                    }
                    return steps.isEmpty ? .attribute(attribute) : .path(steps, attribute)
                }
                if name.hasPrefix("@") {
                    guard let function = BoundPredicate.CollectionFunction(rawValue: String(name.dropFirst()).lowercased()),
                        let last = steps.last, last.relationship.isToMany
                    else {
                        throw PredicateError(.invalidUse, "'\(name)' must follow a to-many relationship, as tags.@count", column: path.column)
                    }
                    if function == .count {
                        guard index == path.components.count - 1 else {
                            throw PredicateError(.invalidUse, "nothing may follow @count", column: path.column)
                        }
                        return .collection(.count, path: steps, nil)
                    }
                    if index == path.components.count - 2, path.components[index + 1].lowercased() == "self" {
                        throw PredicateError(
                            .unsupported,
                            "'\(path.components[..<(index + 1)].joined(separator: ".")).#self' takes the members themselves, a scalar array's values, which Quarry has not: write @\(function.rawValue) of one of their attributes, as \(path.components[..<(index + 1)].joined(separator: ".")).value",
                            column: path.column)
                    }
                    guard index == path.components.count - 2, let attribute = current.attribute(named: path.components[index + 1]) else {
                        throw PredicateError(
                            .invalidUse, "@\(function.rawValue) needs one attribute after it, as items.@\(function.rawValue).price",
                            column: path.column)
                    }
                    return .collection(function, path: steps, attribute)
                }
                if index == path.components.count - 1 {
                    if let relationship = current.relationship(named: name), !relationship.isToMany {
                        let step = try self.step(name, from: current, path: path)
                        return .path(steps + [step], step.destinationStorage.keyAttribute)
                    }
                    guard let attribute = current.attribute(named: name) else { throw unknown(path, current, name) }
                    if let toMany = steps.first(where: { $0.relationship.isToMany }) {
                        throw PredicateError.crossing(toMany.relationship.name, in: path.string, column: path.column)
                    }
                    return .path(steps, attribute)
                }
                let step = try self.step(name, from: current, path: path)
                if step.relationship.isToMany, index + 1 < path.components.count, !path.components[index + 1].hasPrefix("@"),
                    steps.contains(where: { $0.relationship.isToMany })
                {
                    throw PredicateError(.invalidUse, "'\(path.string)' crosses more than one to-many relationship", column: path.column)
                }
                // A collection function reads the members of the last relationship, so
                // nothing may come between a to-many step and it (found by fuzzing:
                // owner.items.owner.items.@max.s compiled to SQL that names no table).
                if let toMany = steps.first(where: { $0.relationship.isToMany }),
                    path.components[index...].contains(where: { $0.hasPrefix("@") })
                {
                    throw PredicateError(
                        .invalidUse,
                        "'\(path.string)' continues past the to-many relationship '\(toMany.relationship.name)'; @count, @sum, @avg, @min and @max must follow it directly",
                        column: path.column)
                }
                steps.append(step)
                current = step.destination
                index += 1
            }
            throw unknown(path, current, path.components.last ?? "")
        }
    }
}

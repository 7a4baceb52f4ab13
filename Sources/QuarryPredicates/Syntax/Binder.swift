import QuarryModel
import QuarryStore

/// Resolves a parsed predicate against an entity: key paths to attributes and
/// relationships, constants to the types they meet. Computed expressions and membership
/// are in `Binder+Expressions.swift`.
struct Binder {
    let context: ObjectContext?
    /// While the left side of `ANY reports.salary * 2 > budget` is bound: key paths that
    /// start with `prefix` (the path through the to-many) are the member's, read from
    /// `member` without it; any other is the object's own, read from `outer`.
    var quantifiedSide: (prefix: [String], member: EntityDescription, outer: EntityDescription)?
    /// While a quantified comparison's rest is bound (`value == 'x'` of `ANY itemDatas.value
    /// == 'x'`): the quantifier and the path before it, as written, for messages.
    var quantifiedPrefix: String?

    init(context: ObjectContext?) { self.context = context }

    /// Where `entity`'s rows are: the context's mapping, else Quarry's own layout (a
    /// predicate bound with no store).
    func storage(of entity: EntityDescription) -> EntityStorage { StoreMapping.storage(of: entity, in: context) }

    func bind(_ predicate: Predicate, _ entity: EntityDescription) throws -> BoundPredicate.Node {
        switch predicate {
        case .constant(let b): return .constant(b)
        case .not(let p): return .not(try bind(p, entity))
        case .and(let ps): return .and(try ps.map { try bind($0, entity) })
        case .or(let ps): return .or(try ps.map { try bind($0, entity) })
        case .comparison(let c):
            if let distributed = try distributingConditionals(c, entity) { return distributed }
            if let test = try entityNameTest(c, entity) { return test }
            if let rewritten = try rewritten(c, entity) { return try bind(rewritten, entity) }
            if c.modifier != .direct { return try quantified(c, entity) }
            return try comparison(c, entity)
        }
    }

    /// `ANY tags.name == 'x'`: the path up to the to-many step, then the rest of the
    /// comparison bound to the destination.
    private func quantified(_ c: Comparison, _ entity: EntityDescription) throws -> BoundPredicate.Node {
        guard case .keyPath(let path) = c.lhs else { return try quantifiedExpression(c, entity) }
        var steps: [PathStep] = []
        var current = entity
        for (i, name) in path.components.enumerated() {
            let step = try self.step(name, from: current, path: path)
            steps.append(step)
            current = step.destination
            if step.relationship.isToMany {
                let rest = Array(path.components[(i + 1)...])
                guard !rest.isEmpty else {
                    throw PredicateError(
                        .invalidUse,
                        "\(c.modifier.rawValue) \(path.string) compares objects; compare one of their keys instead, as \(memberKey(path.string, current, against: c.rhs))",
                        column: path.column)
                }
                // A second to-many step (`ANY chats.handles.id`): refused, as Core Data's
                // store refuses it, giving the SUBQUERY that says it.
                if let second = toManySteps(KeyPath(rest, column: path.column), current), second.count < rest.count,
                    !rest[second.count].hasPrefix("@")
                {
                    let form = c.subqueryForm(through: Array(path.components[...i]), rest: rest, column: path.column)
                    throw PredicateError(
                        .invalidUse,
                        "\(c.modifier.rawValue) \(path.string) crosses two to-many relationships ('\(name)', then '\(rest[second.count - 1])'), "
                            + "and \(c.modifier.rawValue) ranges over one; write \(form)",
                        column: path.column)
                }
                var inner = c
                inner.modifier = .direct
                inner.lhs = .keyPath(KeyPath(rest, column: path.column))
                let quantifier: Quantifier = c.modifier == .some ? .any : c.modifier
                // The quantifier ranges over the left side only: the right side is read
                // from the object itself (`ANY reports.hireDate < hireDate`), as Foundation
                // evaluates both expressions of a comparison against the object.
                // A refusal inside names the path as written, quantifier and all.
                var scoped = self
                scoped.quantifiedPrefix = "\(c.modifier.rawValue) " + path.components[...i].joined(separator: ".")
                return .quantified(quantifier, path: steps, inner: try scoped.comparison(inner, current, outer: entity))
            }
        }
        throw PredicateError(.invalidUse, "\(c.modifier.rawValue) needs a to-many relationship in '\(path.string)'", column: path.column)
    }

    /// `ANY reports.salary * 2 > budget`: a computed left side that reads one to-many
    /// relationship's members (every key path through it is the member's; any other key
    /// path is the object's own, as on the right).
    private func quantifiedExpression(_ c: Comparison, _ entity: EntityDescription) throws -> BoundPredicate.Node {
        let refusal = PredicateError(
            .invalidUse, "\(c.modifier.rawValue) needs a key path through a to-many relationship on its left", column: c.lhs.column)
        var prefixes: [[PathStep]] = []
        for path in Self.keyPaths(in: c.lhs) {
            guard let steps = toManySteps(path, entity), steps.count < path.components.count else { continue }
            if !prefixes.contains(where: { $0.map(\.relationship.name) == steps.map(\.relationship.name) }) { prefixes.append(steps) }
        }
        guard let steps = prefixes.first, let member = steps.last?.destination else { throw refusal }
        guard prefixes.count == 1 else {
            throw PredicateError(
                .invalidUse, "\(c.modifier.rawValue) ranges over one to-many relationship, and its left side reads two", column: c.lhs.column)
        }
        var scoped = self
        scoped.quantifiedSide = (steps.map(\.relationship.name), member, entity)
        var inner = c
        inner.modifier = .direct
        let quantifier: Quantifier = c.modifier == .some ? .any : c.modifier
        return .quantified(quantifier, path: steps, inner: try scoped.comparison(inner, member, outer: entity))
    }

    /// The key paths an expression reads, outside SUBQUERY.
    static func keyPaths(in expression: Expression) -> [KeyPath] {
        switch expression {
        case .keyPath(let k): return [k]
        case .arithmetic(_, let l, let r, _): return keyPaths(in: l) + keyPaths(in: r)
        case .negate(let e, _), .index(let e, _, _): return keyPaths(in: e)
        case .function(_, let arguments, _): return arguments.flatMap(keyPaths(in:))
        case .aggregate(let elements, _): return elements.flatMap(keyPaths(in:))
        case .conditional(_, let a, let b, _): return keyPaths(in: a) + keyPaths(in: b)
        case .constant, .object, .subqueryCount: return []
        }
    }

    /// `outer`: inside ANY/ALL/NONE, the entity of the object the quantifier ranges from,
    /// whose keys the right side names; `entity` is then the members'.
    private func comparison(_ c: Comparison, _ entity: EntityDescription, outer: EntityDescription? = nil) throws -> BoundPredicate.Node {
        // `SELF == SELF`: the object compared with itself, true of every object (`!=`, of
        // none), as a #Predicate's `$0 == $0` is read; SELF is no relationship to compare.
        if outer == nil, c.modifier == .direct, c.op == .equal || c.op == .notEqual, case .keyPath(let l) = c.lhs, l.components == ["SELF"],
            case .keyPath(let r) = c.rhs, r.components == ["SELF"]
        {
            return .constant(c.op == .equal)
        }
        if outer == nil, let composite = try compositeNilTest(c, entity) { return composite }
        if outer == nil, let membership = try membership(c, entity) { return membership }
        let node = try convertedComparison(c, entity, outer: outer)
        // SQLite's text API stops at a NUL byte, so SQL would see such a string cut short
        // where `matches` sees all of it (found by fuzzing: '\0' > ''). String attributes
        // refuse NUL already; this covers strings that meet no attribute.
        if case .comparison(let lhs, _, let rhs, _) = node {
            for (operand, expression) in [(lhs, c.lhs), (rhs, c.rhs)] {
                let values: [Value]
                switch operand {
                case .value(let v): values = [v]
                case .list(let vs): values = vs
                default: values = []
                }
                // (Text that is not UTF-8 is bound with its length, NULs and all.)
                for case .text(let s) in values where s.utf8.contains(0) {
                    throw PredicateError(
                        .argument, "a string in a predicate holds no NUL bytes (SQLite would cut it there)", column: expression.column)
                }
            }
        }
        return node
    }

    private func convertedComparison(_ c: Comparison, _ entity: EntityDescription, outer: EntityDescription? = nil) throws -> BoundPredicate.Node {
        var lhs: BoundPredicate.Operand
        do { lhs = try operand(c.lhs, entity) } catch let error as PredicateError {
            throw quotedWordMeant(error, c.lhs, against: outer == nil ? try? operand(c.rhs, entity) : nil)
        }
        var rhs: BoundPredicate.Operand
        do { rhs = try outer.map { try outerOperand(c.rhs, $0) } ?? operand(c.rhs, entity) } catch let error as PredicateError {
            throw quotedWordMeant(error, c.rhs, against: lhs)
        }
        try refuseRelationshipConstant(lhs, c.lhs, against: c.rhs, c.op)
        try refuseRelationshipConstant(rhs, c.rhs, against: c.lhs, c.op)
        if case .list = lhs { throw PredicateError(.invalidUse, "a list { } can only stand after IN or BETWEEN", column: c.lhs.column) }
        if case .list = rhs, c.op != .in, c.op != .between {
            throw PredicateError(.invalidUse, "a list { } can only stand after IN or BETWEEN", column: c.rhs.column)
        }
        if c.op == .in, c.modifier == .direct, !isList(rhs), rhs.typeAttribute?.type == .string || isText(rhs) {
            // `'ell' IN title`: with a string on the right, IN tests for a substring.
            try requireString(rhs, .in, c.rhs)
            try requireString(lhs, .in, c.lhs)
            return .comparison(lhs: rhs, op: .contains, rhs: lhs, options: c.options)
        }
        if c.op == .in || c.op == .between {
            guard case .list(let values) = rhs else {
                throw PredicateError(
                    .invalidUse, "\(c.op.rawValue) needs a list such as {1, 2} or a list argument; for a to-many key path write ANY path == value",
                    column: c.rhs.column)
            }
            if let a = lhs.typeAttribute {
                let loose = takesText(lhs, entity, outer: outer)
                let any = untyped(lhs, entity, outer: outer)
                rhs = .list(try values.map { try convert($0, to: a, at: c.rhs, takesText: loose, untyped: any) })
            }
            if c.op == .between { try checkEnumOrder(lhs, c.op, rhs, c) }
            return .comparison(lhs: lhs, op: c.op, rhs: rhs, options: c.options)
        }
        if c.op.isStringOperator {
            try requireString(lhs, c.op, c.lhs, takesText: takesText(lhs, entity, outer: outer))
            try requireString(rhs, c.op, c.rhs, takesText: takesText(rhs, outer ?? entity, outer: outer))
            if c.op == .matches, case .value(.text(let pattern)) = rhs, StringMatching.regex(pattern, c.options) == nil {
                throw PredicateError(.syntax, "MATCHES: '\(pattern)' is not a valid regular expression", column: c.rhs.column)
            }
            return .comparison(lhs: lhs, op: c.op, rhs: rhs, options: c.options)
        }
        for (written, other, expression, otherExpression, owner) in [(lhs, rhs, c.lhs, c.rhs, entity), (rhs, lhs, c.rhs, c.lhs, outer ?? entity)] {
            var side = written
            if case .outer(let own) = written { side = own }
            let objects = Self.objects(in: otherExpression)
            var target: String?
            // A path to the destination's key stands for the relationship, unless the key
            // is an attribute of its own (a foreign file's `id`: `author.id == 7` compares it).
            if case .path(let steps, let a) = side, let last = steps.last, a.name == last.destinationStorage.keyColumn,
                last.destination.attribute(named: a.name) == nil
            {
                target = last.destination.name
            }
            if case .attribute(let a) = side, a.name == storage(of: owner).keyColumn, owner.attribute(named: a.name) == nil { target = owner.name }
            guard let target else { continue }
            if let objects {
                // A relationship to an entity with sub-entities holds instances of any of
                // them, as Core Data compares it: a hierarchy shares one table and one
                // sequence of keys, so the key alone names the row.
                for object in objects where !(context?.isKind(object.entity.name, of: target) ?? (object.entity.name == target)) {
                    throw PredicateError(
                        .typeMismatch, "'\(Self.describe(expression))' holds \(target) objects, not \(object.entity.name)",
                        column: otherExpression.column)
                }
                continue
            }
            guard case .value(.null) = other, c.op == .equal || c.op == .notEqual else {
                throw PredicateError(
                    .invalidUse, "a relationship compares with an object (%@) or nil; compare one of its keys otherwise", column: expression.column)
            }
        }
        try checkComputed(lhs, against: rhs, c.lhs, c.rhs)
        try checkComputed(rhs, against: lhs, c.rhs, c.lhs)
        if case .value(.bool(let b)) = rhs, lhs.isComputedNumber { rhs = .value(.integer(b ? 1 : 0)) }
        if case .value(.bool(let b)) = lhs, rhs.isComputedNumber { lhs = .value(.integer(b ? 1 : 0)) }
        if let a = lhs.typeAttribute, let b = rhs.typeAttribute, (a.type == .string) != (b.type == .string) {
            // SQLite would convert the text by column affinity; Foundation would refuse.
            // Another program's text of ISO times beside a date: a date once `format()` says so.
            let (text, textSide, sideEntity) = a.type == .string ? (a, lhs, entity) : (b, rhs, outer ?? entity)
            var why = ""
            if (a.type == .string ? b : a).type == .date, let owner = owner(of: textSide, sideEntity, outer: outer),
                let hint = context?.isoTextHint(owner, text.name)
            {
                why = "; " + hint
            }
            throw PredicateError(
                .typeMismatch, "'\(a.name)' is \(a.type.rawValue) and cannot be compared with '\(b.name)', which is \(b.type.rawValue)\(why)",
                column: c.lhs.column)
        }
        if let a = lhs.typeAttribute, case .value(let v) = rhs {
            rhs = .value(
                try convert(
                    v, to: a, at: c.rhs, takesText: takesText(lhs, entity, outer: outer), untyped: untyped(lhs, entity, outer: outer),
                    owner: owner(of: lhs, entity, outer: outer)))
        }
        if case .value(let v) = lhs, let a = rhs.typeAttribute {
            lhs = .value(
                try convert(
                    v, to: a, at: c.lhs, takesText: takesText(rhs, outer ?? entity, outer: outer),
                    untyped: untyped(rhs, outer ?? entity, outer: outer), owner: owner(of: rhs, outer ?? entity, outer: outer)))
        }
        try checkEnumOrder(lhs, c.op, rhs, c)
        return .comparison(lhs: lhs, op: c.op, rhs: rhs, options: c.options)
    }

    /// An enum's values ordered (`<`, BETWEEN) by its labels' order, as the server orders
    /// them, need the other side to have a place in that order: one of its labels, nil,
    /// or a value of the same enum. Anything else the server refuses ("invalid input
    /// value for enum"), so it is refused here, before any SQL runs and the same for
    /// `matches`. Folding ([c], [d]) has no meaning in that order.
    private func checkEnumOrder(_ lhs: BoundPredicate.Operand, _ op: ComparisonOperator, _ rhs: BoundPredicate.Operand, _ c: Comparison) throws {
        guard op.isOrdering else { return }
        let sides = [(lhs, c.lhs), (rhs, c.rhs)]
        guard let (ordered, expression) = sides.first(where: { $0.0.enumeration != nil }), let enumeration = ordered.enumeration else { return }
        let name = ordered.typeAttribute?.name ?? Self.describe(expression)
        if !c.options.isEmpty {
            throw PredicateError(
                .invalidUse,
                "'\(name)' is of enum \(enumeration.name), ordered \(enumeration.shownLabels); \(op.rawValue) takes no [c] or [d] in that order",
                column: expression.column)
        }
        for (operand, written) in sides {
            switch operand {
            case .value(let v):
                if let why = enumeration.refusal(v, attribute: name) { throw PredicateError(.typeMismatch, why, column: written.column) }
            case .list(let values):
                for v in values {
                    if let why = enumeration.refusal(v, attribute: name) { throw PredicateError(.typeMismatch, why, column: written.column) }
                }
            default:
                guard operand.enumeration != enumeration else { continue }
                throw PredicateError(
                    .typeMismatch,
                    "'\(name)' is of enum \(enumeration.name), ordered \(enumeration.shownLabels); \(op.rawValue) orders it against its labels or another value of \(enumeration.name), not '\(Self.describe(written))'",
                    column: written.column)
            }
        }
    }

    /// `author == nil` on a SwiftData composite (kept as its elements, `author.person`, ...):
    /// nil is every element nil, as SwiftData reads an absent optional struct; `!= nil`, any
    /// element set. A composite compares with nothing else: one of its elements does.
    private func compositeNilTest(_ c: Comparison, _ entity: EntityDescription) throws -> BoundPredicate.Node? {
        guard case .keyPath(let path) = c.lhs, path.components.count == 1, quantifiedSide == nil,
            entity.attribute(named: path.components[0]) == nil
        else { return nil }
        let elements = entity.compositeElements(of: path.components[0])
        guard !elements.isEmpty else { return nil }
        guard case .constant(.null, _) = c.rhs, c.op == .equal || c.op == .notEqual else {
            throw PredicateError(
                .typeMismatch, "'\(path.string)' is a composite; compare one of its elements, as \(elements[0].name), or compare it with nil",
                column: path.column)
        }
        let tests = try elements.map { element in
            try comparison(
                Comparison(
                    lhs: .keyPath(KeyPath(element.name.split(separator: ".").map(String.init), column: path.column)),
                    op: .equal, rhs: c.rhs), entity)
        }
        return c.op == .equal ? .and(tests) : .not(.and(tests))
    }

    /// `expression` read from the object an ANY/ALL/NONE ranges from (`outer`), marked
    /// so; constants and lists are the same wherever they are read.
    private func outerOperand(_ expression: Expression, _ outer: EntityDescription) throws -> BoundPredicate.Operand {
        let bound = try Binder(context: context).operand(expression, outer)
        switch bound {
        case .value, .list: return bound
        default: return .outer(bound)
        }
    }

    private func isList(_ operand: BoundPredicate.Operand) -> Bool {
        if case .list = operand { return true }
        return false
    }
    private func isText(_ operand: BoundPredicate.Operand) -> Bool {
        if case .value(.text) = operand { return true }
        return false
    }

    /// The objects an expression stands for (`%@` given an object or a list of them).
    private static func objects(in expression: Expression) -> [ManagedObject]? {
        switch expression {
        case .object(let reference, _): return [reference.object]
        case .aggregate(let elements, _):
            let objects = elements.compactMap { e -> ManagedObject? in if case .object(let r, _) = e { return r.object } else { return nil } }
            return objects.isEmpty ? nil : objects
        default: return nil
        }
    }

    /// The key an object argument compares by; an object of another store would compare
    /// equal to whatever row of this one has its key, so it is refused.
    func identityKey(_ reference: ObjectReference, _ column: Int) throws -> Int64 {
        if let context, reference.object.isForeign(to: context) {
            throw PredicateError(
                .argument,
                "the object \(reference.object.objectID) comes from another store than the one open (closed by .open?); fetch it again from this store",
                column: column)
        }
        return reference.object.identityKey
    }

    private static func describe(_ expression: Expression) -> String {
        if case .keyPath(let k) = expression { return k.string }
        return "value"
    }

    /// Whether `operand` reads a number column of a SQLite file that holds text as well
    /// (`EntityStorage.takesText`): `owner` is the entity it is bound against, `outer` the
    /// one an ANY/ALL/NONE ranges from.
    private func takesText(_ operand: BoundPredicate.Operand, _ owner: EntityDescription, outer: EntityDescription?) -> Bool {
        reads(operand, owner, outer: outer, of: [.int16, .int32, .int64, .double, .decimal], in: \EntityStorage.takesText)
    }

    /// Whether `operand` reads a string column of a SQLite file that declares no type
    /// (`EntityStorage.untyped`), arguments as `takesText`.
    private func untyped(_ operand: BoundPredicate.Operand, _ owner: EntityDescription, outer: EntityDescription?) -> Bool {
        reads(operand, owner, outer: outer, of: [.string], in: \EntityStorage.untyped)
    }

    /// Whether `operand` reads an attribute of one of `types` that its entity's storage
    /// lists in `columns`.
    private func reads(
        _ operand: BoundPredicate.Operand, _ owner: EntityDescription, outer: EntityDescription?, of types: [AttributeType],
        in columns: Swift.KeyPath<EntityStorage, Set<String>>
    ) -> Bool {
        switch operand {
        case .attribute(let a):
            return types.contains(a.type) && owner.attribute(named: a.name) != nil && storage(of: owner)[keyPath: columns].contains(a.name)
        case .path(let steps, let a):
            guard let last = steps.last, types.contains(a.type), last.destination.attribute(named: a.name) != nil else { return false }
            return last.destinationStorage[keyPath: columns].contains(a.name)
        case .outer(let o): return outer.map { reads(o, $0, outer: nil, of: types, in: columns) } ?? false
        default: return false
        }
    }

    /// `takesText`: the operand is a number column that may hold text, matched as its text
    /// (a number as SQLite writes it), as SQLite's LIKE matches it.
    private func requireString(
        _ operand: BoundPredicate.Operand, _ op: ComparisonOperator, _ expression: Expression, takesText: Bool = false
    ) throws {
        switch operand {
        case .value(let v):
            switch v {
            case .text, .null: break
            // Matching reads characters, which bytes that are not UTF-8 are not; `==`, `<`
            // and IN { } compare such text by its bytes.
            case .textBytes:
                throw PredicateError(
                    .typeMismatch, "\(op.rawValue) matches characters, and \(v.described) is not UTF-8 text; compare it with == or IN { }",
                    column: expression.column)
            default: throw PredicateError(.typeMismatch, "\(op.rawValue) compares strings, got \(v.described)", column: expression.column)
            }
        default:
            if let a = operand.typeAttribute, a.type != .string, !takesText {
                throw PredicateError(
                    .typeMismatch, "\(op.rawValue) compares strings, but '\(a.name)' is \(a.type.rawValue)", column: expression.column)
            }
        }
    }

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
        return PathStep(relationship: relationship, storage: storage, destination: destination, destinationStorage: context.mapped(destination))
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
        return PredicateError(
            .unknownKey, "unknown \(subject) on entity \(entity.name)", column: path.column,
            suggestion: closestMatch(to: name, in: entity.keyNames))
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
            if path.components == ["SELF"] { return .attribute(storage(of: entity).keyAttribute) }
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
                // attribute named by its path: the rest of the path names it.
                if index + 1 < path.components.count, !name.hasPrefix("@"),
                    let attribute = current.attribute(named: path.components[index...].joined(separator: "."))
                {
                    if let toMany = steps.first(where: { $0.relationship.isToMany }) {
                        throw PredicateError(
                            .invalidUse,
                            "'\(path.string)' crosses the to-many relationship '\(toMany.relationship.name)'; write ANY \(path.string), ALL or NONE, or use @count",
                            column: path.column)
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
                        throw PredicateError(
                            .invalidUse,
                            "'\(path.string)' crosses the to-many relationship '\(toMany.relationship.name)'; write ANY \(path.string), ALL or NONE, or use @count",
                            column: path.column)
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

    /// `takesText`: the attribute's column is a SQLite file's number column that holds text
    /// as well; a text there is what SQLite's numeric affinity makes of it (`'42'` is 42,
    /// `'apple'` stays text, ordered after every number), as SQLite compares it.
    /// `owner`: the entity whose attribute it is, for a refusal that names it.
    func convert(
        _ value: Value, to attribute: AttributeDescription, at expression: Expression, takesText: Bool = false, untyped: Bool = false,
        owner: EntityDescription? = nil
    ) throws -> Value {
        if case .null = value { return value }
        if takesText, case .text(let text) = value { return NumericAffinity.numeric(text) }
        // NaN is nil, as SQLite binds and stores it: else SQL (`d IS NULL`) and `matches`
        // (NaN equals nothing) would answer `d == $nan` two ways.
        if case .real(let d) = value, d.isNaN { return .null }
        // A column with no type keeps numbers as numbers and compares them so, as SQLite
        // does with no affinity to convert them (`value > 1` over a key-value table).
        if untyped {
            switch value {
            case .integer, .real: return value
            case .bool(let b): return .integer(b ? 1 : 0)
            default: break
            }
        }
        if attribute.type == .bool, case .integer(let i) = value, i == 0 || i == 1 { return .bool(i == 1) }
        // `qty == YES`: Foundation's booleans are NSNumbers, 1 and 0.
        if case .bool(let b) = value, [.int16, .int32, .int64, .double, .decimal].contains(attribute.type) {
            return try convert(.integer(b ? 1 : 0), to: attribute, at: expression)
        }
        // `n < 2.5` on an integer attribute compares numerically, as SQLite and Foundation do.
        if [.int16, .int32, .int64].contains(attribute.type), case .real(let d) = value, d.isFinite, d != d.rounded() || abs(d) >= 9.2e18 {
            return value
        }
        switch attribute.type.coerce(value) {
        case .success(let v): return v
        case .failure:
            let shown: String
            var why = ""
            if case .text(let s) = value {
                shown = "string \"\(s)\""
                // A string attribute holds no NUL byte (SQLite's text API would cut it there): say so.
                if attribute.type == .string, s.utf8.contains(0) { why = " (a string attribute holds no NUL bytes)" }
            } else {
                shown = value.described
            }
            // A number column of times (Chrome's microseconds since 1601) is a date once its
            // unit is declared: the way there, not epoch arithmetic in Lua.
            if case .date = value, [.int16, .int32, .int64, .double, .decimal].contains(attribute.type) {
                why = timeUnitHint(attribute, owner)
            }
            // Another program's text of ISO 8601 times: a date once `format()` says so.
            if case .date = value, attribute.type == .string, let owner, let hint = context?.isoTextHint(owner, attribute.name) {
                why = "; " + hint
            }
            throw PredicateError(
                .typeMismatch, "'\(attribute.name)' is \(attribute.type.rawValue) and cannot be compared with \(shown)\(why)",
                column: expression.column)
        }
    }
}

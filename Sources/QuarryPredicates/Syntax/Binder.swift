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

    /// `outer`: inside ANY/ALL/NONE, the entity of the object the quantifier ranges from,
    /// whose keys the right side names; `entity` is then the members'.
    func comparison(_ c: Comparison, _ entity: EntityDescription, outer: EntityDescription? = nil) throws -> BoundPredicate.Node {
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

    func convertedComparison(_ c: Comparison, _ entity: EntityDescription, outer: EntityDescription? = nil) throws -> BoundPredicate.Node {
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
                let holder = owner(of: lhs, entity, outer: outer)
                rhs = .list(try values.map { try convert($0, to: a, at: c.rhs, takesText: loose, untyped: any, owner: holder) })
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
            var error = PredicateError(
                .typeMismatch, "'\(a.name)' is \(a.type.rawValue) and cannot be compared with '\(b.name)', which is \(b.type.rawValue)",
                column: c.lhs.column)
            if (a.type == .string ? b : a).type == .date, let owner = owner(of: textSide, sideEntity, outer: outer) {
                error.remedy = context?.isoTextHint(owner, text.name)
            }
            throw error
        }
        if let a = lhs.typeAttribute, case .value(let v) = rhs {
            rhs = .value(
                try convert(
                    v, to: a, at: c.rhs, takesText: takesText(lhs, entity, outer: outer), untyped: untyped(lhs, entity, outer: outer),
                    owner: owner(of: lhs, entity, outer: outer), op: c.op))
        }
        if case .value(let v) = lhs, let a = rhs.typeAttribute {
            lhs = .value(
                try convert(
                    v, to: a, at: c.lhs, takesText: takesText(rhs, outer ?? entity, outer: outer),
                    untyped: untyped(rhs, outer ?? entity, outer: outer), owner: owner(of: rhs, outer ?? entity, outer: outer), op: c.op.swapped))
        }
        try checkEnumOrder(lhs, c.op, rhs, c)
        return .comparison(lhs: lhs, op: c.op, rhs: rhs, options: c.options)
    }

    /// An enum's values ordered (`<`, BETWEEN) by its labels' order, as the server orders
    /// them, need the other side to have a place in that order: one of its labels, nil,
    /// or a value of the same enum. Anything else the server refuses ("invalid input
    /// value for enum"), so it is refused here, before any SQL runs and the same for
    /// `matches`. Folding ([c], [d]) has no meaning in that order.
    func checkEnumOrder(_ lhs: BoundPredicate.Operand, _ op: ComparisonOperator, _ rhs: BoundPredicate.Operand, _ c: Comparison) throws {
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
    func compositeNilTest(_ c: Comparison, _ entity: EntityDescription) throws -> BoundPredicate.Node? {
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
    func outerOperand(_ expression: Expression, _ outer: EntityDescription) throws -> BoundPredicate.Operand {
        let bound = try Binder(context: context).operand(expression, outer)
        switch bound {
        case .value, .list: return bound
        default: return .outer(bound)
        }
    }

    func isList(_ operand: BoundPredicate.Operand) -> Bool {
        if case .list = operand { return true }
        return false
    }
    func isText(_ operand: BoundPredicate.Operand) -> Bool {
        if case .value(.text) = operand { return true }
        return false
    }

    /// The objects an expression stands for (`%@` given an object or a list of them).
    static func objects(in expression: Expression) -> [ManagedObject]? {
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

    static func describe(_ expression: Expression) -> String {
        if case .keyPath(let k) = expression { return k.string }
        return "value"
    }

    /// `takesText`: the operand is a number column that may hold text, matched as its text
    /// (a number as SQLite writes it), as SQLite's LIKE matches it.
    func requireString(
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
}

import QuarryModel
import QuarryPredicates
import QuarryStore
import SwiftSyntax

/// What the text defines before the `#Predicate` it reads, besides plain values: other
/// `#Predicate`s it evaluates (`let a = #Predicate<T> { ... }`, then `a.evaluate($0)`),
/// read in their place as their own tests of the same object; and structs made with their
/// memberwise initializer from constants (`let s = S(a: 1, b: [1, 2])`), whose fields
/// are those constants (`s.a` is 1). Nothing is run: each is read as the text spells it.
extension SwiftPredicateTranslator {
    /// A `#Predicate` defined before the one read, by the name of its `let`.
    struct Definition {
        let typeName: String?
        let closure: ClosureExprSyntax
        /// Its place among the definitions: it may evaluate only those before it.
        let order: Int
    }

    /// `let name = #Predicate<T> { ... }` before the `#Predicate` read, or an
    /// `#Expression<T, Bool> { ... }`, which `name.evaluate($0)` reads the same way.
    mutating func define(predicate name: String, _ macro: some FreestandingMacroExpansionSyntax) throws {
        if macro.macroName.text == "Expression" {
            // Only a test has a place in a predicate; a value (`#Expression<T, Int>`) would
            // need a store's expression of its own.
            guard let generic = macro.genericArgumentClause, generic.arguments.count == 2,
                generic.arguments.last?.argument.trimmedDescription == "Bool",
                macro.arguments.isEmpty, macro.additionalTrailingClosures.isEmpty, let closure = macro.trailingClosure
            else {
                throw refuse("#Expression is read as a test of the entity's object, #Expression<Entity, Bool> { object in ... }", macro)
            }
            let typeName = generic.arguments.first.map { String($0.argument.trimmedDescription.filter { !$0.isWhitespace }) }
            definitions[name] = Definition(typeName: typeName, closure: closure, order: definitions.count)
            return
        }
        guard macro.macroName.text == "Predicate" else { throw refuse("expected #Predicate<Entity> { object in ... }", macro) }
        if let generic = macro.genericArgumentClause, generic.arguments.count != 1 {
            throw refuse(
                "#\(Self.oneLine(macro.macroName.text + generic.trimmedDescription)) takes \(generic.arguments.count) inputs: Quarry reads a #Predicate of one, the entity's object",
                generic)
        }
        guard macro.arguments.isEmpty, macro.additionalTrailingClosures.isEmpty, let closure = macro.trailingClosure else {
            throw refuse("#Predicate takes one closure, as #Predicate<Entity> { object in ... }", macro)
        }
        let typeName = macro.genericArgumentClause?.arguments.first.map { String($0.argument.trimmedDescription.filter { !$0.isWhitespace }) }
        definitions[name] = Definition(typeName: typeName, closure: closure, order: definitions.count)
    }

    /// `name.evaluate(object)` of a `#Predicate` defined before: its test of the closure's
    /// object, read here; nil when `receiver` names no such predicate.
    mutating func evaluation(_ receiver: ExprSyntax, _ call: FunctionCallExprSyntax) throws -> Predicate? {
        guard let name = unparenthesised(receiver).as(DeclReferenceExprSyntax.self), scopeIndex(of: name.baseName.text) == nil,
            let definition = definitions[Self.unescaped(name.baseName.text)]
        else { return nil }
        guard definition.order < visibleDefinitions else {
            throw refuse("'\(name.baseName.text)' is defined after the #Predicate that evaluates it", name)
        }
        guard call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil,
            let object = unparenthesised(argument.expression).as(DeclReferenceExprSyntax.self),
            let index = scopeIndex(of: object.baseName.text), index == scopes.count - 1, case .root = scopes[index].scope
        else {
            throw refuse("\(name.baseName.text).evaluate(...) is read of the closure's own object, as \(name.baseName.text).evaluate($0)", call)
        }
        if let inner = definition.typeName, let outer = rootType, inner != outer {
            throw refuse("'\(name.baseName.text)' tests \(inner) objects, and this #Predicate tests \(outer) objects", name)
        }
        evaluationsRead += 1
        guard evaluationsRead <= Self.maximumEvaluations else {
            throw refuse(
                "the #Predicate evaluates defined predicates more than \(Self.maximumEvaluations) times once read in place: Quarry reads at most that many",
                call)
        }
        let before = visibleDefinitions
        visibleDefinitions = definition.order
        defer { visibleDefinitions = before }
        return try closureBody(definition.closure, scope: .root, parameterCount: 1) { translator, body in try translator.predicate(body) }
    }

    /// The `evaluate` calls read in place in one #Predicate, counted through the definitions
    /// they reach: far more than any written by hand, and a bound on a chain of definitions
    /// each evaluating the one before twice.
    static let maximumEvaluations = 256

    /// `S(a: 1, b: [1, 2, 3])` captured in a `let`: its fields by their labels, as a
    /// struct's memberwise initializer sets them; nil for any other value. Foundation's
    /// own types are read as their values (`constant`).
    mutating func structFields(_ node: ExprSyntax) throws -> [String: PredicateArgument]? {
        guard let call = node.as(FunctionCallExprSyntax.self), let type = call.calledExpression.as(DeclReferenceExprSyntax.self),
            let first = type.baseName.text.first, first.isUppercase, !Self.foundationValues.contains(type.baseName.text),
            call.trailingClosure == nil, !call.arguments.isEmpty, call.arguments.allSatisfy({ $0.label != nil })
        else { return nil }
        var fields: [String: PredicateArgument] = [:]
        for argument in call.arguments {
            guard let label = argument.label?.text else { continue }
            fields[Self.unescaped(label)] = try constant(argument.expression)
        }
        return fields
    }

    /// The types whose values `constant` reads, not as structs of fields.
    static let foundationValues: Set<String> = ["Date", "UUID", "Data", "URL", "NSPredicate", "Double", "Int", "String"]

    /// `s.a` of a struct captured by `structFields`: the field's value; nil when `node` is
    /// no field of one.
    func field(_ node: ExprSyntax) throws -> Expression? {
        guard let member = unparenthesised(node).as(MemberAccessExprSyntax.self), let base = member.base,
            let root = unparenthesised(base).as(DeclReferenceExprSyntax.self), scopeIndex(of: root.baseName.text) == nil,
            let fields = structs[Self.unescaped(root.baseName.text)]
        else { return nil }
        let name = Self.unescaped(member.declName.baseName.text)
        guard let value = fields[name] else {
            throw refuse(
                "'\(root.baseName.text)' has no field '\(name)' in its initializer (\(fields.keys.sorted().joined(separator: ", ")))", member.declName
            )
        }
        return PredicateParser.expression(value, column: columns.column(of: member))
    }

    /// `[1, 2, 3].contains([1, 2])` of constants: whether the first holds the second as a
    /// run of its elements, as Swift's `contains(_:)` of a collection finds it; nil when
    /// either is no constant list.
    mutating func constantContains(_ receiver: ExprSyntax, _ argument: ExprSyntax) throws -> Bool? {
        guard let haystack = try constantValues(receiver), let needle = try constantValues(argument) else { return nil }
        if needle.isEmpty { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle {
            return true
        }
        return false
    }

    /// The values of an array literal or a captured struct's list field; nil for anything else.
    private mutating func constantValues(_ e: ExprSyntax) throws -> [Value]? {
        let r = unparenthesised(e)
        let isField = try field(r) != nil
        guard r.is(ArrayExprSyntax.self) || isField else { return nil }
        guard case .aggregate(let elements, _) = try value(r) else { return nil }
        var values: [Value] = []
        for element in elements {
            guard case .constant(let v, _) = element else { return nil }
            values.append(v)
        }
        return values
    }

    /// `$0 == $0`: the object compared with itself, true of every object (`!=`, of none);
    /// nil when the sides are not both the closure's object.
    func objectComparedWithItself(_ lhs: SwiftTerm, _ rhs: SwiftTerm, _ op: ComparisonOperator) -> Predicate? {
        func root(_ term: SwiftTerm) -> Int? {
            guard case .operand(let e) = term, let name = unparenthesised(e).as(DeclReferenceExprSyntax.self),
                let index = scopeIndex(of: name.baseName.text), case .root = scopes[index].scope
            else { return nil }
            return index
        }
        guard op == .equal || op == .notEqual, let l = root(lhs), let r = root(rhs), l == r else { return nil }
        return .constant(op == .equal)
    }
}

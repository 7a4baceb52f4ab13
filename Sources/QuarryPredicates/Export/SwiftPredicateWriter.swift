import Foundation
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Why a predicate (or a part of a request) has no Swift form in the style asked for: one
/// line, shown where the Swift would have been.
public struct SwiftExportRefusal: Error, Equatable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// A `#Predicate` as Swift: the `let`s its closure captures (dates, UUIDs, data, lists:
/// values the macro cannot build inside the closure), then the macro itself.
public struct SwiftPredicateMacro: Equatable {
    public let captures: [String]
    public let macro: String
}

extension BoundPredicate {
    /// This predicate as a SwiftData/Foundation `#Predicate<typeName>`, or the reason the
    /// macro cannot say it. Names that are not plain Swift identifiers are written as the
    /// generated classes write them (`names`, the model's; without it each name on its
    /// own, `SwiftModelSource.identifier`); `reserved` names are taken (other captures in
    /// the same code), so captures and closure variables avoid them.
    public func swiftPredicateMacro(typeName: String? = nil, reserved: Set<String> = [], names: SwiftNames? = nil) throws -> SwiftPredicateMacro {
        let type = names?.type(of: entity.name) ?? SwiftModelSource.identifier(typeName ?? entity.name)
        func written(typed: Bool) throws -> (SwiftPredicateWriter, String, String) {
            let writer = SwiftPredicateWriter(reserved: reserved, typed: typed, names: names)
            let variable = writer.variable(for: entity.name)
            return (writer, variable, try writer.write(root, Scope(variable: variable, entity: entity)))
        }
        var (writer, variable, body) = try written(typed: false)
        // Swift's type checker tries every literal type and overload of a closure's parts
        // together: four comparisons with literals take it 6 s, two `?? false` as long
        // (Swift 6.3). Typed captures and a typed closure take it under a second, so a
        // #Predicate of more than two tests is written so.
        if writer.optionalTests > 2 || writer.optionalTests == 2 && writer.deepOptionalTests > 0 {
            throw SwiftExportRefusal(
                "\(writer.optionalTests) tests of values that may be nil: Swift's type checker gives up on a #Predicate with more than one such `??` (two when both test an optional attribute of the object itself)"
            )
        }
        if writer.tests > 2 || writer.arithmetic > 3 {
            (writer, variable, body) = try written(typed: true)
            if writer.weight > SwiftPredicateWriter.mostWeight {
                throw SwiftExportRefusal(
                    "\(writer.tests) tests: Swift's type checker gives up on a #Predicate this large (it counts \(writer.weight), the most is \(SwiftPredicateWriter.mostWeight): a test 1, IN 2, a value that may be nil 3); split it into several"
                )
            }
            return SwiftPredicateMacro(captures: writer.captures, macro: "#Predicate<\(type)> { (\(variable): \(type)) -> Bool in \(body) }")
        }
        return SwiftPredicateMacro(captures: writer.captures, macro: "#Predicate<\(type)> { \(variable) in \(body) }")
    }

    /// Keys of this predicate Core Data would not find on its entity: keys only a
    /// sub-entity declares (`isLimitedEdition` over `Car`). Quarry answers them (nil on
    /// the parent's own rows); a Core Data fetch raises "keypath not found in entity".
    public var subentityOnlyKeys: [String] {
        var found: [String] = []
        SwiftPredicateWriter.visitKeys(root, entity) { entity, key in
            if entity.subentityKeys.contains(key), !found.contains(key) { found.append(key) }
        }
        return found
    }
}

/// A value of the object as Swift code (see `SwiftPredicateWriter.swiftValue`).
struct SwiftValue {
    let text: String
    let optional: Bool
    let attribute: AttributeDescription?
    let type: String?

    init(text: String, optional: Bool, attribute: AttributeDescription?, type: String? = nil) {
        self.text = text
        self.optional = optional
        self.attribute = attribute
        self.type = type ?? attribute.flatMap(SwiftModelSource.swiftType(of:))
    }
}

/// The object a closure's key paths start from: its variable and entity.
struct Scope {
    let variable: String
    let entity: EntityDescription
    /// The scopes around it, innermost last: a member's closure names the object its
    /// collection belongs to (`dept.employees.contains { $0.salary > dept.budget }`).
    var enclosing: [Scope] = []
}

/// Writes the body of a `#Predicate` closure, collecting the values it captures. Forms
/// follow what swift-foundation's macro takes (checked against it in the tests):
/// `contains(where:)`, `allSatisfy`, `filter { }.count`, `starts(with:)`, `contains(_:)`,
/// optional chains with `flatMap` and `??`. It has no `hasSuffix`, `lowercased()`, and
/// on Linux no `caseInsensitiveCompare` or `localizedStandardContains`.
final class SwiftPredicateWriter {
    private(set) var captures: [String] = []
    var used: Set<String>
    /// What a comparison whose answer SQL leaves unknown (`age > 40` with no age) is
    /// written as, so that the whole predicate selects what Quarry's three-valued logic
    /// selects: `false` where the comparison is not negated, `true` under a NOT (NOT
    /// unknown is unknown, which selects nothing, as `!true` does).
    var unknown = "false"
    /// How many tests of an optional value (`?? false`) the closure has, and how many
    /// tests of any kind: more than one of the first takes Swift 6.3's type checker 5-30 s
    /// (see `deepOptionalTests`), so such a predicate is refused; past a few of the second,
    /// the closure is written with typed captures (`swiftPredicateMacro`).
    private(set) var optionalTests = 0
    /// Of those, the ones of a value through a to-one (`item.owner?.name?.contains(...)`,
    /// `(item.owner?.age).flatMap { ... }`): two of these, or one with any other, take
    /// Swift 6.3 15-30 s; two tests of the object's own optional attributes take it 1-5 s,
    /// three 6 s.
    private(set) var deepOptionalTests = 0
    private(set) var tests = 0
    /// How many arithmetic operators: past three, literals in them took Swift's type
    /// checker past its limit in an untyped closure (typed, under 0.2 s).
    private(set) var arithmetic = 0
    /// How hard the typed closure is for Swift's type checker, and the most it may be: each
    /// test counts 1, an IN (`contains`) 2, a test of an optional value (`flatMap`, `??`) 3.
    /// Measured with Swift 6.3 over random predicates: at 6 a closure takes it under 2 s;
    /// 9 took 6 s and 10 gave up after 10 s.
    private(set) var weight = 0
    static let mostWeight = 6
    /// Whether constants are typed captures rather than literals (see `swiftPredicateMacro`).
    let typed: Bool
    /// The captures of `true`, `false` and `0` in a typed closure, made once.
    var typedLiterals: [String: String] = [:]

    /// `body` with unknown answers written as `value`.
    func with<T>(unknown value: String, _ body: () throws -> T) rethrows -> T {
        let outer = unknown
        unknown = value
        defer { unknown = outer }
        return try body()
    }

    /// The model's property names (nil: each name made an identifier on its own).
    let names: SwiftNames?
    /// Attributes read in this closure that the model declares as Float, by name: the
    /// constants compared with them are `Float`s, as `let value: Double` would not compile
    /// against a `Float` property. (Two attributes of one name, one Float and one Double,
    /// in one closure would take Float for both.)
    var floatNames: Set<String> = []

    /// Notes `a` of `entity` as a Float where the model says so.
    func noteFloat(_ a: AttributeDescription, of entity: EntityDescription) {
        if names?.isFloat(a.name, of: entity.name) == true { floatNames.insert(a.name) }
    }

    /// The Swift type of `a` as the classes declare it: `Float` where the model says so.
    func swiftType(of a: AttributeDescription) -> String? {
        a.type == .double && floatNames.contains(a.name) ? "Float" : SwiftModelSource.swiftType(of: a)
    }

    init(reserved: Set<String>, typed: Bool = false, names: SwiftNames? = nil) {
        used = reserved
        self.typed = typed
        self.names = names
    }

    /// The property of `name` in `entity`'s class, as the generated classes write it.
    func property(_ name: String, of entity: EntityDescription) -> String {
        names?.property(name, of: entity.name) ?? SwiftModelSource.identifier(name)
    }

    /// `literal` (`false`, `true`, `0`) where the closure needs a value of `type`: itself,
    /// or in a typed closure a capture of it.
    func plain(_ literal: String, _ type: String) -> String {
        guard typed else { return literal }
        if let name = typedLiterals[literal] { return name }
        let name = capture(literal == "0" ? "zero" : literal == "true" ? "yes" : "no", type, literal)
        typedLiterals[literal] = name
        return name
    }

    /// A closure variable named after the entity (`car`), unique in this code.
    func variable(for entityName: String) -> String {
        let base = entityName.prefix(1).lowercased() + entityName.dropFirst()
        return unique(base.isEmpty ? "object" : base)
    }

    func unique(_ base: String) -> String {
        var name = SwiftModelSource.identifier(base)
        var n = 2
        while used.contains(name) {
            name = SwiftModelSource.identifier(base + String(n))
            n += 1
        }
        used.insert(name)
        return name
    }

    /// `let name: type = expression` before the closure; the closure reads `name`.
    func capture(_ base: String, _ type: String, _ expression: String) -> String {
        let name = unique(base)
        captures.append("let \(name): \(type) = \(expression)")
        return name
    }

    func write(_ node: BoundPredicate.Node, _ scope: Scope) throws -> String {
        switch node {
        case .constant(let b): return b ? "true" : "false"
        case .entity: throw SwiftExportRefusal("entity.name: a #Predicate has no test of an object's entity")
        // Swift's tests are true or false: an unknown comparison inside is false.
        case .holds(let n): return try with(unknown: "false") { try write(n, scope) }
        // The macro takes a Bool literal as the whole closure or after `??`, but not as an
        // operand of `!`, `&&` or `||` (`!(false)` does not compile): constants, and
        // comparisons whose answer is always unknown, are folded away here.
        case .not(let n):
            let inner = try with(unknown: unknown == "false" ? "true" : "false") { try write(n, scope) }
            if inner == "true" || inner == "false" { return inner == "true" ? "false" : "true" }
            return "!(\(inner))"
        case .and(let ns): return try fold(ns.map { try write($0, scope) }, absorbing: "false", neutral: "true", joiner: " && ")
        case .or(let ns): return try fold(ns.map { try write($0, scope) }, absorbing: "true", neutral: "false", joiner: " || ")
        case .comparison(let lhs, let op, let rhs, let options):
            if let range = try yearRange(lhs, op, rhs, scope) { return range }
            return try comparison(lhs, op, rhs, options, scope)
        case .quantified(let quantifier, let path, let inner):
            guard let last = path.last else { throw SwiftExportRefusal("ANY/ALL/NONE without a relationship") }
            let (chain, optional) = try steps(path, scope)
            let member = Scope(variable: variable(for: last.destination.name), entity: last.destination, enclosing: scope.enclosing + [scope])
            // A member whose answer is unknown counts for nothing: not a match for ANY and
            // NONE, not a mismatch for ALL.
            let test = try with(unknown: quantifier == .all ? "true" : "false") { try write(inner, member) }
            // After a to-one step the chain is optional already: `car.owner?.cars.contains(...)`.
            let contains = "\(chain).contains(where: { \(member.variable) in \(test) })"
            switch quantifier {
            case .all:
                let all = "\(chain).allSatisfy { \(member.variable) in \(test) }"
                return optional ? "(\(all) ?? true)" : all
            case .none: return optional ? "!(\(contains) ?? false)" : "!\(contains)"
            default: return optional ? "(\(contains) ?? false)" : contains
            }
        }
    }

    /// Parts joined by `joiner`, with the constants among them folded: one `absorbing`
    /// constant is the answer, `neutral` ones are left out.
    func fold(_ parts: [String], absorbing: String, neutral: String, joiner: String) -> String {
        if parts.contains(absorbing) { return absorbing }
        let kept = parts.filter { $0 != neutral }
        if kept.isEmpty { return neutral }
        if kept.count == 1 { return kept[0] }
        return kept.map { "(\($0))" }.joined(separator: joiner)
    }

    /// `car.owner?.cars`: the relationships of `path` from the scope's variable, and whether
    /// a to-one step made it optional. A key only a sub-entity has is refused.
    func steps(_ path: [PathStep], _ scope: Scope) throws -> (String, Bool) {
        var text = scope.variable
        var entity = scope.entity
        var optional = false
        for step in path {
            try checkKey(step.relationship.name, of: entity)
            text += (optional ? "?." : ".") + property(step.relationship.name, of: entity)
            if !step.relationship.isToMany { optional = true }
            entity = step.destination
        }
        return (text, optional)
    }

    func checkKey(_ key: String, of entity: EntityDescription) throws {
        if entity.subentityKeys.contains(key) {
            throw SwiftExportRefusal(
                "'\(key)' is a key of a sub-entity of \(entity.name), not of \(entity.name): Core Data refuses it (keypath not found in entity)")
        }
    }

    /// A value of the object in Swift: its text, whether it may be nil, the attribute
    /// constants compared with it take their type from, and its Swift type (`Int` for a
    /// count, nil for a related object): `car.year`, `car.owner?.name`, `car.tags.count`;
    /// nil for constants.
    func swiftValue(_ operand: BoundPredicate.Operand, _ scope: Scope) throws -> SwiftValue? {
        switch operand {
        case .attribute(let a):
            try checkKey(a.name, of: scope.entity)
            noteFloat(a, of: scope.entity)
            return SwiftValue(
                text: "\(scope.variable).\(property(a.name, of: scope.entity))", optional: a.isOptional, attribute: a, type: swiftType(of: a))
        case .path(let path, let a):
            let (chain, _) = try steps(path, scope)
            // A path to the destination's key stands for the related object (`owner == nil`).
            if let last = path.last, a.name == last.destinationStorage.keyColumn, last.destination.attribute(named: a.name) == nil {
                return SwiftValue(text: chain, optional: true, attribute: nil, type: nil)
            }
            try checkKey(a.name, of: path.last?.destination ?? scope.entity)
            let name = property(a.name, of: path.last?.destination ?? scope.entity)
            noteFloat(a, of: path.last?.destination ?? scope.entity)
            // The macro takes `?.` only onto a property that is itself optional; a required
            // one past a to-one is read inside a flatMap (`car.owner.flatMap { $0.year }`).
            if !a.isOptional {
                let text = (chain.contains("?") ? "(\(chain))" : chain) + ".flatMap { $0.\(name) }"
                return SwiftValue(text: text, optional: true, attribute: a, type: swiftType(of: a))
            }
            return SwiftValue(text: chain + "?." + name, optional: true, attribute: a, type: swiftType(of: a))
        case .collection(let function, let path, _, let filter):
            guard function == .count else {
                throw SwiftExportRefusal("@sum, @avg, @min and @max over relationships have no #Predicate form")
            }
            guard let last = path.last else { throw SwiftExportRefusal("@count without a relationship") }
            let (chain, optional) = try steps(path, scope)
            var text = chain
            if let filter {
                let member = Scope(variable: variable(for: last.destination.name), entity: last.destination)
                text += ".filter { \(member.variable) in \(try with(unknown: "false") { try write(filter, member) }) }"
            }
            text += ".count"
            // Through a nil to-one the collection is empty, as in Quarry's SQL: count 0.
            if optional { text = "(\(text) ?? \(plain("0", "Int")))" }
            return SwiftValue(text: text, optional: false, attribute: nil, type: "Int")
        case .arithmetic(let op, let lhs, let rhs):
            guard op != .power else { throw SwiftExportRefusal("** has no #Predicate operator") }
            arithmetic += 1
            let l = try swiftValue(lhs, scope)
            let r = try swiftValue(rhs, scope)
            if l?.optional == true || r?.optional == true { throw SwiftExportRefusal("arithmetic on a value that may be nil") }
            if op == .divide { throw SwiftExportRefusal("/ divides as Double in NSPredicate but may be integer division in Swift") }
            // Swift's % takes integers and stops the program dividing by 0, where Quarry's remainder is nil.
            if op == .modulus, r != nil || !["Int", "Int16", "Int32", "Int64"].contains(l?.type ?? "") || Self.zeroOrNotInteger(rhs) {
                throw SwiftExportRefusal("% is written only as an integer key's remainder by a nonzero integer constant")
            }
            if let lt = l?.type, let rt = r?.type, lt != rt {
                throw SwiftExportRefusal("arithmetic on \(lt) and \(rt): Swift needs one type")
            }
            let typed = l ?? r
            let lhs = try Self.integral(lhs, as: typed?.type)
            let rhs = try Self.integral(rhs, as: typed?.type)
            let lt = try l?.text ?? literal(lhs, typed?.attribute, scope)
            let rt = try r?.text ?? literal(rhs, typed?.attribute, scope)
            return SwiftValue(
                text: "(\(lt) \(op == .modulus ? "%" : op == .quotient ? "/" : op.rawValue) \(rt))", optional: false, attribute: typed?.attribute,
                type: typed?.type)
        case .function(.characters, let a):
            // Swift's own count, in characters, as Quarry read `$0.name.count`.
            guard let text = try swiftValue(a, scope), !text.optional else {
                throw SwiftExportRefusal("a count of a string that may be nil")
            }
            return SwiftValue(text: "\(text.text).count", optional: false, attribute: nil, type: "Int")
        case .function(.length, _):
            throw SwiftExportRefusal("NSString's length counts UTF-16 units, and Swift's count characters: compare text.utf16.count in the app")
        case .function: throw SwiftExportRefusal("NSExpression functions have no #Predicate form")
        case .datePart: throw SwiftExportRefusal("a date's part (.year, .day) has no #Predicate form; compare the date with a range")
        case .outer(let o):
            guard let outer = scope.enclosing.last else { return try swiftValue(o, scope) }
            return try swiftValue(o, outer)
        case .value, .list: return nil
        }
    }

    func comparison(
        _ lhs: BoundPredicate.Operand, _ op: ComparisonOperator, _ rhs: BoundPredicate.Operand,
        _ options: ComparisonOptions, _ scope: Scope
    ) throws -> String {
        tests += 1
        weight += op == .in ? 2 : 1
        // `3 < qty` is written `qty > 3`; `'ell' IN title` was bound as `title CONTAINS 'ell'`.
        var (lhs, op, rhs) = (lhs, op, rhs)
        func isConstant(_ o: BoundPredicate.Operand) -> Bool {
            if case .value = o { return true }
            if case .list = o { return true }
            return false
        }
        if isConstant(lhs), !op.isStringOperator, op != .in, op != .between, !isConstant(rhs) {
            (lhs, op, rhs) = (rhs, op.swapped, lhs)
        }
        guard let left = try swiftValue(lhs, scope) else {
            throw SwiftExportRefusal(op.isStringOperator ? "\(op.rawValue) with a constant on its left" : "a comparison of two constants")
        }
        let path = left.text
        let optional = left.optional
        rhs = try Self.integral(rhs, as: left.type)
        // A column with no type compares its strings with numbers (`EntityStorage.untyped`);
        // a Swift String never equals or orders against a number.
        if left.type == "String" {
            let values: [Value]
            switch rhs {
            case .value(let v): values = [v]
            case .list(let vs): values = vs
            default: values = []
            }
            if values.contains(where: { if case .integer = $0 { return true } else if case .real = $0 { return true } else { return false } }) {
                throw SwiftExportRefusal("\(op.rawValue) between a String and a number: #Predicate compares values of one type")
            }
        }
        let right = try swiftValue(rhs, scope)
        // A to-one compared with a stored object (`owner == %@` given one) compares keys in
        // SQL; written as `owner == 1` it would compare a model object with a number.
        if left.attribute == nil, left.type == nil, right == nil, case .value(let v) = rhs, v != .null {
            throw SwiftExportRefusal(
                "a comparison with a stored object: a #Predicate cannot capture a model object; compare one of its keys, or its persistentModelID in the app"
            )
        }
        if !options.isEmpty, !(op == .contains && options == [.caseInsensitive, .diacriticInsensitive]) {
            throw SwiftExportRefusal(
                "\(op.rawValue) with [c] or [d]: #Predicate has no case- or diacritic-insensitive form that Foundation has on every platform")
        }
        if let r = right?.type, let l = left.type, l != r {
            throw SwiftExportRefusal("\(op.rawValue) between a \(l) and a \(r): #Predicate compares values of one type")
        }
        if [.less, .lessOrEqual, .greater, .greaterOrEqual, .between].contains(op) {
            // A server's enum orders by its labels; Swift's String by its characters.
            if let enumeration = lhs.enumeration ?? rhs.enumeration {
                throw SwiftExportRefusal(
                    "\(op.rawValue) on enum \(enumeration.name), ordered \(enumeration.shownLabels): Swift orders its String by characters, so it would select other rows"
                )
            }
            // Bool and Data have no order in Swift (`$0 < true` does not compile).
            if let type = left.type, type == "Bool" || type == "Data" {
                throw SwiftExportRefusal("\(op.rawValue) on a \(type): Swift's \(type) has no order")
            }
            // `d >= nil` is unknown for every object, as in SQL.
            if case .value(.null) = rhs { return unknown }
            if case .list(let bounds) = rhs, bounds.contains(where: \.isNull) { throw SwiftExportRefusal("BETWEEN with nil as a bound") }
        }
        // An optional chain is parenthesised before `.flatMap`, so it applies to the whole chain.
        let wrapped = path.contains("?") || path.contains("{") ? "(\(path))" : path
        switch op {
        case .equal, .notEqual:
            // Both sides of == have one type in the macro: a capture compared with an
            // optional is itself optional.
            // A required attribute is never nil in Swift: `year == nil` does not compile.
            if case .value(.null) = rhs, !optional, left.attribute != nil {
                throw SwiftExportRefusal(
                    "\(op.rawValue) nil on '\(left.attribute?.name ?? "")', which the model does not make optional: in Swift it is never nil")
            }
            let r = try right?.text ?? literal(rhs, left.attribute, scope, optional: optional)
            if let right, right.optional != optional, left.attribute != nil, right.attribute != nil || right.type != nil {
                throw SwiftExportRefusal("\(op.rawValue) between a value that may be nil and one that may not")
            }
            if right?.optional == true, !optional, left.attribute != nil {
                throw SwiftExportRefusal("== between a value that may be nil and one that may not")
            }
            return "\(path) \(op.rawValue) \(r)"
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if right?.optional == true { throw SwiftExportRefusal("\(op.rawValue) with a value that may be nil on its right") }
            let r = try right?.text ?? literal(rhs, left.attribute, scope)
            if optional { return optionalTest(wrapped, "$0 \(op.rawValue) \(r)") }
            return "\(path) \(op.rawValue) \(r)"
        case .beginsWith, .contains:
            if right?.optional == true { throw SwiftExportRefusal("\(op.rawValue) with a value that may be nil on its right") }
            let r = try right?.text ?? literal(rhs, left.attribute, scope)
            let call: String
            switch op {
            case .beginsWith: call = "starts(with: \(r))"
            // localizedStandardContains finds no empty string, as CONTAINS (NSString's search).
            case _ where !options.isEmpty: call = "localizedStandardContains(\(r))"
            default:
                // Swift's contains("") holds for every string; CONTAINS finds no empty string.
                if case .value(.text("")) = rhs {
                    throw SwiftExportRefusal("CONTAINS \"\": Swift's contains(\"\") holds for every string, where CONTAINS finds no empty string")
                }
                if case .value = rhs {
                    call = "contains(\(r))"
                } else {
                    guard !optional else {
                        throw SwiftExportRefusal(
                            "CONTAINS a key path on a value that may be nil: Swift's contains finds an empty string, CONTAINS none")
                    }
                    return "(!\(r).isEmpty && \(path).contains(\(r)))"
                }
            }
            guard optional else { return "\(path).\(call)" }
            weight += 2
            optionalTests += 1
            if wrapped != path { deepOptionalTests += 1 }
            return "\(wrapped)?.\(call) ?? \(plain(unknown, "Bool"))"
        case .in:
            guard case .list(let values) = rhs else { throw SwiftExportRefusal("IN with a key path on its right") }
            if values.contains(where: \.isNull) { throw SwiftExportRefusal("IN with nil in its list") }
            let list = try listCapture(values, left.attribute)
            return optional ? optionalTest(wrapped, "\(list).contains($0)") : "\(list).contains(\(path))"
        case .between:
            guard case .list(let bounds) = rhs, bounds.count == 2 else { throw SwiftExportRefusal("BETWEEN without two bounds") }
            let low = try literal(.value(bounds[0]), left.attribute, scope)
            let high = try literal(.value(bounds[1]), left.attribute, scope)
            if optional { return optionalTest(wrapped, "$0 >= \(low) && $0 <= \(high)") }
            return "\(path) >= \(low) && \(path) <= \(high)"
        case .endsWith:
            throw SwiftExportRefusal("ENDSWITH: #Predicate has no hasSuffix")
        case .like, .matches:
            throw SwiftExportRefusal("\(op.rawValue) has no #Predicate form")
        }
    }

    /// `test` of a value that may be nil: `(car.owner?.age).flatMap { $0 > 3 } ?? false`.
    func optionalTest(_ wrapped: String, _ test: String) -> String {
        optionalTests += 1
        if wrapped.hasPrefix("(") { deepOptionalTests += 1 }
        weight += 2
        return "\(wrapped).flatMap { \(test) } ?? \(plain(unknown, "Bool"))"
    }
}

import QuarryModel
import QuarryStore
import QuarryTestSupport

/// Random predicates in the forms `#Predicate` can say, for the evaluation against Apple's
/// macro: the differential generator aims at what SQL and memory may disagree on ([c],
/// LIKE, numbers against strings), most of which the export refuses, and it never writes
/// BEGINSWITH, CONTAINS, IN or BETWEEN. These mix its comparisons with those forms, with
/// constants of each attribute's own type, so most cases are compared, not refused.
struct SwiftFormsGenerator {
    var base: DifferentialTests.Generator

    init(seed: UInt64) { base = DifferentialTests.Generator(rng: SplitMix64(seed: seed)) }

    /// A row for an entity whose attributes `required` may not be nil.
    mutating func row(required: Set<String>) -> [String: Value] {
        var values = base.row()
        for key in required where values[key] == .null { values[key] = typed(key) }
        return values.mapValues(Self.composed)
    }

    /// A string in NFC. Swift compares strings by canonical equivalence ("cafe\u{301}" ==
    /// "café"), SQLite by code points: the two agree on composed strings only, which is
    /// what Quarry's export assumes (docs/swift.md, "Swift in and out").
    static func composed(_ value: Value) -> Value {
        if case .text(let s) = value { return .text(s.precomposedStringWithCanonicalMapping) }
        return value
    }

    /// A constant of attribute `a`'s own type.
    mutating func typed(_ a: String) -> Value {
        switch a {
        case "i": return .integer(base.int())
        case "d": return .real(base.double())
        case "s", "u": return .text(base.string())
        case "b": return .bool(base.rng.chance(0.5))
        default: return .date(base.date())
        }
    }

    /// `%@` for `value`, or a literal where the format has one.
    mutating func constant(_ value: Value, _ args: inout [Value]) -> String {
        base.constant(value, &args)
    }

    mutating func comparison(_ args: inout [Value]) -> String {
        let attributes = ["i", "d", "s", "u", "b", "t"]
        switch base.rng.int(0...9) {
        case 0, 1:
            return base.comparison(&args)
        case 2: // a string operator, with a prefix or part of a value the rows may hold
            let a = base.rng.pick(["s", "u"])
            let text = base.string()
            let part = base.rng.chance(0.5) ? text : String(text.prefix(base.rng.int(0...2)))
            let op = base.rng.pick(["BEGINSWITH", "CONTAINS", "CONTAINS[cd]"])
            return "\(base.key(a, &args)) \(op) \(constant(.text(part), &args))"
        case 3, 4: // IN a list of the attribute's type
            // Arguments in the order of their placeholders: the key's first.
            let a = base.rng.pick(attributes.filter { $0 != "b" })
            let key = base.key(a, &args)
            var list: [String] = []
            for _ in 0..<base.rng.int(1...4) { list.append(constant(typed(a), &args)) }
            return "\(key) IN {\(list.joined(separator: ", "))}"
        case 5, 6: // BETWEEN two bounds of the attribute's type
            let a = base.rng.pick(["i", "d", "t"])
            let key = base.key(a, &args)
            let low = constant(typed(a), &args)
            let high = constant(typed(a), &args)
            return "\(key) BETWEEN {\(low), \(high)}"
        case 7: // nil, or not, of the one attribute Strict has optional
            return "\(base.key("u", &args)) \(base.rng.pick(["==", "!="])) nil"
        default: // an ordering against a constant of the attribute's own type
            let a = base.rng.pick(attributes.filter { $0 != "b" })
            return "\(base.key(a, &args)) \(base.randomOp()) \(constant(typed(a), &args))"
        }
    }

    mutating func predicate(depth: Int, _ args: inout [Value]) -> String {
        if depth == 0 || base.rng.chance(0.4) { return comparison(&args) }
        switch base.rng.int(0...3) {
        case 0:
            return "NOT (" + predicate(depth: depth - 1, &args) + ")"
        default:
            let joiner = base.rng.chance(0.5) ? " AND " : " OR "
            var parts: [String] = []
            for _ in 0..<base.rng.int(2...3) { parts.append("(" + predicate(depth: depth - 1, &args) + ")") }
            return parts.joined(separator: joiner)
        }
    }
}

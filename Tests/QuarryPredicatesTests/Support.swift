import QuarryModel
import QuarryPredicates
import QuarryStore
import QuarryTestSupport
import Testing

/// A parsed predicate without the columns the parser records, so that trees from
/// differently spaced format strings compare equal when they mean the same.
indirect enum Shape: Equatable, CustomStringConvertible {
    case constant(Bool)
    case comparison(Term, String, Term, Int)
    case not(Shape)
    case and([Shape])
    case or([Shape])
    case other(String)

    var description: String {
        switch self {
        case .constant(let b): return b ? "TRUE" : "FALSE"
        case .comparison(let l, let op, let r, let o): return "(\(l) \(op)\(o == 0 ? "" : "[\(o)]") \(r))"
        case .not(let s): return "NOT\(s)"
        case .and(let ss): return "AND" + ss.description
        case .or(let ss): return "OR" + ss.description
        case .other(let s): return s
        }
    }
}

enum Term: Equatable, CustomStringConvertible {
    case key(String)
    case value(Value)
    case other(String)

    var description: String {
        switch self {
        case .key(let k): return k
        case .value(let v): return "\(v)"
        case .other(let s): return s
        }
    }
}

func shape(_ p: QuarryPredicates.Predicate) -> Shape {
    switch p {
    case .constant(let b): return .constant(b)
    case .not(let q): return .not(shape(q))
    case .and(let qs): return .and(qs.map(shape))
    case .or(let qs): return .or(qs.map(shape))
    case .comparison(let c): return .comparison(term(c.lhs), c.op.rawValue, term(c.rhs), c.options.rawValue)
    }
}

func term(_ e: QuarryPredicates.Expression) -> Term {
    if case .keyPath(let k) = e { return .key(k.string) }
    if case .constant(let v, _) = e { return .value(v) }
    return .other(String(describing: e))
}

func parse(_ format: String, _ args: [Value] = [], vars: [String: Value] = [:]) throws -> QuarryPredicates.Predicate {
    try PredicateParser.parse(format, arguments: PredicateArguments(args, variables: vars))
}

func parsedShape(_ format: String, _ args: [Value] = [], vars: [String: Value] = [:]) throws -> Shape {
    shape(try parse(format, args, vars: vars))
}

/// The error that parsing `format` raises, or nil (recorded as an issue) when it parses.
func parseError(
    _ format: String, _ args: [Value] = [], vars: [String: Value] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) -> PredicateError? {
    do {
        let p = try parse(format, args, vars: vars)
        Issue.record("'\(format)' parsed as \(p) but should not", sourceLocation: sourceLocation)
        return nil
    } catch let error as PredicateError {
        return error
    } catch {
        Issue.record("'\(format)' threw \(error), not a PredicateError", sourceLocation: sourceLocation)
        return nil
    }
}

/// `key op value`, as the expected shape of a comparison.
func cmp(_ key: String, _ op: String, _ value: Value, _ options: Int = 0) -> Shape {
    .comparison(.key(key), op, .value(value), options)
}

let int1 = Value.integer(1)
let int2 = Value.integer(2)
let int3 = Value.integer(3)

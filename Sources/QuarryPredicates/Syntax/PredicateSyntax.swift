import QuarryModel
import QuarryStore

/// A parsed predicate: the one syntax tree that SQL compilation, in-memory evaluation
/// and formatting all read. Codable, as the Swift reader's process sends it back
/// (`QuarrySwiftReading`); objects in it go by number (`ObjectNumbering`).
public indirect enum Predicate: Equatable, Sendable, Codable {
    case constant(Bool)
    case comparison(Comparison)
    case not(Predicate)
    case and([Predicate])
    case or([Predicate])
}

/// `lhs op rhs`, with string options such as `[cd]`, and `ANY`/`ALL`/`NONE` before it.
public struct Comparison: Equatable, Sendable, Codable {
    public var lhs: Expression
    public var op: ComparisonOperator
    public var rhs: Expression
    public var options: ComparisonOptions
    public var modifier: Quantifier

    public init(lhs: Expression, op: ComparisonOperator, rhs: Expression, options: ComparisonOptions = [], modifier: Quantifier = .direct) {
        self.lhs = lhs
        self.op = op
        self.rhs = rhs
        self.options = options
        self.modifier = modifier
    }
}

/// How a comparison over a to-many key path is decided.
public enum Quantifier: String, Equatable, Sendable, Codable {
    case direct = "", any = "ANY", some = "SOME", all = "ALL", none = "NONE"
}

public enum ComparisonOperator: String, Equatable, Sendable, Codable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", contains = "CONTAINS", like = "LIKE", matches = "MATCHES"
    case `in` = "IN", between = "BETWEEN"

    /// `<`, `<=`, `>`, `>=` and BETWEEN: an order decides them.
    public var isOrdering: Bool {
        switch self {
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .between: return true
        default: return false
        }
    }

    /// BEGINSWITH, ENDSWITH, CONTAINS, LIKE and MATCHES: both sides are strings.
    public var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .matches: return true
        default: return false
        }
    }

    /// The operator that gives the same answer with its operands swapped (`5 < n` is `n > 5`).
    public var swapped: ComparisonOperator {
        switch self {
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return self
        }
    }
}

/// The `[c]`, `[d]` and `[cd]` modifiers.
public struct ComparisonOptions: OptionSet, Equatable, Sendable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
}

/// A key path as written, with where it was written for messages.
public struct KeyPath: Equatable, Sendable, Codable {
    public var components: [String]
    public var column: Int
    public init(_ components: [String], column: Int) {
        self.components = components
        self.column = column
    }
    public var string: String { components.joined(separator: ".") }
}

public indirect enum Expression: Equatable, Sendable, Codable {
    case keyPath(KeyPath)
    /// A literal or a substituted argument; `column` is where it stood.
    case constant(Value, column: Int)
    /// `{a, b}`, or a list given for `%@`.
    case aggregate([Expression], column: Int)
    /// `SUBQUERY(collection, $v, predicate).@count`: how many members match; key paths in
    /// `predicate` that start with `$v` are relative to the member.
    case subqueryCount(collection: KeyPath, variable: String, predicate: Predicate, column: Int)
    /// An object given for `%@`, compared by identity.
    case object(ObjectReference, column: Int)
    /// `a + b`, `a - b`, `a * b`, `a / b`, `a ** b`; `column` is the operator's.
    case arithmetic(ArithmeticOperator, Expression, Expression, column: Int)
    /// `-a` on anything but a number literal (which the parser folds).
    case negate(Expression, column: Int)
    /// `collection[SIZE]`, `[FIRST]`, `[LAST]`, `[n]`.
    case index(Expression, CollectionIndex, column: Int)
    /// `name(arguments)` or `FUNCTION(receiver, 'name:', ...)`: one of the NSExpression
    /// functions Quarry evaluates (see `BuiltinFunction`).
    case function(BuiltinFunction, [Expression], column: Int)
    /// `TERNARY(predicate, then, otherwise)`: Apple's conditional expression (Swift's
    /// `?:`). The comparison it stands in is bound as the same comparison of each branch,
    /// under the predicate and under its negation (`Binder+Conditionals`), so SQL and
    /// memory test what they already test.
    case conditional(Predicate, Expression, Expression, column: Int)
}

/// The binary operators of Apple's arithmetic expressions, by precedence: `**` binds
/// tightest, then `*`, `/` and `modulus:by:` (Swift's `%`), then `+` and `-`. The format
/// grammar has no infix remainder: `modulus:by:` is written as a function
/// (`modulus:by:(a, 3)`), and added last so the codes SQL names the others by stay.
public enum ArithmeticOperator: String, Equatable, Sendable, CaseIterable, Codable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", power = "**"
    case modulus = "modulus:by:"
    /// Swift's `/` between integers, which drops the fraction (`7 / 2` is 3), by a nonzero
    /// integer constant other than -1 (which Swift stops the program for at Int64.min):
    /// Quarry's own function, `quotient:by:(a, 2)`, as Apple's grammar divides as reals only.
    /// Between reals it is `/` (`Binder`).
    case quotient = "quotient:by:"

    /// Higher binds tighter.
    var precedence: Int {
        switch self {
        case .add, .subtract: return 1
        case .multiply, .divide, .modulus, .quotient: return 2
        case .power: return 3
        }
    }
}

/// What an index expression selects from a collection.
public enum CollectionIndex: Equatable, Sendable, Codable {
    case size, first, last
    case position(Int64)

    var text: String {
        switch self {
        case .size: return "SIZE"
        case .first: return "FIRST"
        case .last: return "LAST"
        case .position(let n): return String(n)
        }
    }
}

/// Seconds from 1970-01-01 to 2001-01-01, Foundation's reference date.
public let referenceDateOffset: Double = 978_307_200

extension Expression {
    /// Where the expression starts in the format string.
    public var column: Int {
        switch self {
        case .keyPath(let k): return k.column
        case .constant(_, let c), .aggregate(_, let c), .subqueryCount(_, _, _, let c), .object(_, let c): return c
        case .negate(_, let c), .index(_, _, let c), .function(_, _, let c), .conditional(_, _, _, let c): return c
        case .arithmetic(_, let lhs, _, _): return lhs.column
        }
    }
}

/// An object in a predicate: equal when it is the same object. Unchecked: a predicate
/// reads only what names the object (its key, its ID, its entity), never its values, on
/// the thread of the context that owns it.
public struct ObjectReference: Equatable, @unchecked Sendable {
    public let object: ManagedObject
    public init(_ object: ManagedObject) { self.object = object }
    public static func == (a: ObjectReference, b: ObjectReference) -> Bool { a.object === b.object }
}

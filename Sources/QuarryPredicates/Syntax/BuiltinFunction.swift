/// The NSExpression functions Quarry evaluates, by the names Apple's format grammar
/// gives them (`lowercase:(name)`, `abs(x)`, `FUNCTION(name, 'uppercaseString')`).
/// Others (`median:`, `random`, methods of the app's own classes) are refused by name:
/// they would run code Quarry does not have, or give an answer SQLite cannot repeat.
public enum BuiltinFunction: String, Equatable, Sendable, CaseIterable, Codable {
    case now, lowercase, uppercase, abs, sqrt, floor, ceiling, trunc, ln, log, exp
    case count, sum, average, min, max
    /// A string's count: `length`, NSString's, in UTF-16 units (a format string's
    /// `name.length`); `characters`, Swift's `String.count`, in characters (grapheme
    /// clusters: a `#Predicate`'s `$0.name.count`). Neither is a name a format string calls.
    case length, characters

    /// The functions that reduce a collection to one value.
    public var isAggregate: Bool { [.count, .sum, .average, .min, .max].contains(self) }
    /// The functions whose argument and answer are strings.
    public var isString: Bool { self == .lowercase || self == .uppercase }

    /// The string counts, which key paths name (`name.length`), not calls.
    public var countsText: Bool { self == .length || self == .characters }

    /// How many arguments it takes.
    var arity: Int { self == .now ? 0 : 1 }

    /// The NSExpression selector, as `p:swift` and formatting write it.
    public var selector: String { self == .now ? "now" : rawValue + ":" }

    /// The function a name stands for: `abs`, `abs:`, or a method FUNCTION may call on a
    /// string or number (`uppercaseString`).
    static func named(_ name: String) -> BuiltinFunction? {
        let bare = name.hasSuffix(":") ? String(name.dropLast()) : name
        switch bare {
        case "uppercaseString": return .uppercase
        case "lowercaseString": return .lowercase
        case "ceil": return .ceiling
        default: return BuiltinFunction(rawValue: bare).flatMap { $0.countsText ? nil : $0 }
        }
    }

    /// Apple's two-operand selectors, which are arithmetic.
    static let arithmeticSelectors: [String: ArithmeticOperator] = [
        "add:to:": .add, "from:subtract:": .subtract, "multiply:by:": .multiply, "divide:by:": .divide, "raise:toPower:": .power,
        "modulus:by:": .modulus, "quotient:by:": .quotient
    ]

    /// Every name accepted, for the message that refuses another.
    static var supportedNames: String {
        (allCases.filter { !$0.countsText }.map(\.selector) + arithmeticSelectors.keys.sorted()).joined(separator: ", ")
    }
}

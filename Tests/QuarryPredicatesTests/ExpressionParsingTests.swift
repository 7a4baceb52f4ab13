import QuarryModel
import QuarryPredicates
import QuarryStore
import Testing

/// Apple's "BNF Definition of Cocoa Predicates": binary_expression, index_expression and
/// function_expression, as parsed and written back.
@Suite struct ExpressionParsingTests {
    /// Precedence shows in the normalized text: parentheses only where they are needed.
    @Test(arguments: [
        ("a + b * c == 1", "a + b * c == 1"),
        ("(a + b) * c == 1", "(a + b) * c == 1"),
        ("a - (b - c) == 1", "a - (b - c) == 1"),
        ("(a - b) - c == 1", "a - b - c == 1"),
        ("a ** b ** c == 1", "a ** b ** c == 1"),
        ("(a ** b) ** c == 1", "(a ** b) ** c == 1"),
        ("-a * 2 == -(b + 1)", "-a * 2 == -(b + 1)"),
        ("a[SIZE] == {1, 2}[LAST]", "a[SIZE] == {1, 2}[LAST]"),
        ("abs(a) > lowercase:(b)", "abs:(a) > lowercase:(b)"),
        ("now() > a", "now() > a"),
        ("(a + 1) * 2 > 3 AND (b < 2)", "(a + 1) * 2 > 3 AND b < 2")
    ])
    func normalizedText(_ format: String, _ normalized: String) throws {
        let parsed = try parse(format)
        #expect(parsed.description == normalized)
        #expect(try parse(normalized).description == normalized)
    }

    /// Constants fold when bound, then convert to the attribute's type (512.0 to 512).
    @Test func constantsFoldWhenBound() throws {
        let entity = EntityDescription(name: "Item", attributes: [AttributeDescription(name: "n", type: .int64, isOptional: true)])
        for (format, value) in [
            ("n == 7 / 2", Value.real(3.5)), ("n == 2 ** 3 ** 2", .integer(512)), ("n == -(2 - 5)", .integer(3)),
            ("n == {4, 5, 6}[1]", .integer(5)), ("n == sum:({1, 2, YES})", .integer(4)),
            ("n == 9223372036854775807 + 1", .real(9_223_372_036_854_775_808))
        ] {
            let bound = try BoundPredicate(try parse(format), entity: entity)
            guard case .comparison(_, _, .value(let v), _) = bound.root else {
                Issue.record("\(format) did not fold")
                continue
            }
            #expect(v == value, "\(format): \(v)")
        }
    }

    @Test func aLongArithmeticChainIsBoundedLikeNesting() {
        let format = "a" + String(repeating: " + a", count: 300) + " > 1"
        let error = parseError(format)
        #expect(error?.message.contains("nests more than") == true)
        #expect(error?.column != nil)
    }

    @Test(arguments: [
        ("a == -'x'", "expected a number after '-'"),
        ("a[TOP] == 1", "expected SIZE, FIRST, LAST or a number"),
        ("median:(a) == 1", "unknown function 'median:'"),
        ("FUNCTION(a, 'doSomething:', 1) == 1", "'doSomething:' is not a function Quarry can evaluate"),
        ("abs(a, b) == 1", "takes 1 argument"),
        ("month(shipped) == 3", "a date's month is written shipped.month, not month(shipped)"),
        ("YEAR(order.placed) > 2020", "a date's year is written order.placed.year, not YEAR(order.placed)"),
        ("a: == 1", "expected '('")
    ])
    func refusals(_ format: String, _ fragment: String) {
        let error = parseError(format)
        #expect(error?.message.contains(fragment) == true, "\(format): \(String(describing: error))")
        #expect(error?.column != nil)
    }

    /// Found by fuzzing: a string whose first scalar is a combining mark joined the quote
    /// before it into one character, so its text did not parse back.
    @Test(arguments: ["\u{0899}R", "\u{0301}", "a\u{0600}", "\u{1D165}x", "cafe\u{301}", "\u{0602}\"\\q", "\u{0602}\u{0301}", "\"\u{0301}"])
    func stringsThatWouldJoinAQuoteAreEscaped(_ text: String) throws {
        let parsed = try parse("s == %@", [.text(text)])
        let again = try parse(parsed.description)
        #expect(again.description == parsed.description)
        guard case .comparison(let c) = again, case .constant(.text(let read), _) = c.rhs else {
            Issue.record("\(parsed.description) read back as \(again)")
            return
        }
        #expect(read == text)
    }
}

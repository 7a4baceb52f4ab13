import QuarryModel
import QuarryPredicates
import QuarryStore
import Testing

/// A predicate's refusal says its kind as a value (issue 46), so a caller decides by
/// it, never by the words: the fetch layer's own remedy for an unknown function is
/// chosen by `.unknownFunction`, with the name it carries.
@Suite struct PredicateErrorKindTests {
    static let entity = EntityDescription(
        name: "Item",
        attributes: [
            AttributeDescription(name: "n", type: .int64, isOptional: true),
            AttributeDescription(name: "s", type: .string, isOptional: true)
        ])

    @Test(arguments: [
        ("n ==", PredicateError.Kind.syntax),
        ("n == 'x", .syntax),
        ("median:(n) == 1", .unknownFunction(name: "median:")),
        ("n == %@", .argument),
        ("n == $missing", .argument),
        ("FUNCTION(n, 'doSomething:') == 1", .unsupported)
    ])
    func parsingRefusalsSayTheirKind(_ format: String, _ kind: PredicateError.Kind) {
        #expect(parseError(format)?.kind == kind, "\(format)")
    }

    @Test(arguments: [
        ("titel == 1", PredicateError.Kind.unknownKey),
        ("s + 1 == 2", .typeMismatch),
        ("s BEGINSWITH 5", .typeMismatch),
        ("n[FIRST] == 1", .invalidUse),
        ("n == 1" + String(repeating: " AND (n == 1", count: 120) + String(repeating: ")", count: 120), .tooDeep)
    ])
    func bindingRefusalsSayTheirKind(_ format: String, _ kind: PredicateError.Kind) throws {
        do {
            _ = try BoundPredicate(try parse(format), entity: Self.entity)
            Issue.record("\(format) was bound")
        } catch let error as PredicateError {
            #expect(error.kind == kind, "\(format): \(error)")
        }
    }

    /// The kind does not change the line: the words are the same as before it was kept.
    @Test func theKindIsNotRendered() {
        let error = PredicateError(.unknownKey, "unknown key 'titel' on entity Item", column: 1, suggestion: "title")
        #expect(error.description == "predicate: unknown key 'titel' on entity Item (did you mean 'title'?) at column 1")
    }
}

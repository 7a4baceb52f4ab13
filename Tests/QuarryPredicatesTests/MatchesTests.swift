import QuarryPredicates
import Testing

/// MATCHES asks whether the whole text matches, as ICU's matches() that NSPredicate calls:
/// the first match from the start need not be the one that reaches the end.
@Suite struct WholeMatchTests {
    @Test(arguments: [
        ("a|ab", "ab", true), ("a*?", "aaa", true), ("(a|ab)(c|bcd)?", "abcd", true), ("(ab)+?", "abab", true),
        ("a|ab", "abc", false), ("a.", "a\n", false), ("(?x) a b # a comment", "ab", true),
        // Where the plain wrapping does not compile (found by review).
        ("(?x)a|ab#", "ab", true), ("(?x) a | a b # c", "ab", true), ("a|ab\\Q", "ab", true), ("a|a\\Qb", "ab", true),
        ("a|a\\Qb", "a\\Qb", false)
    ])
    func wholeText(_ pattern: String, _ text: String, _ expected: Bool) {
        #expect(StringMatching.matches(.matches, text, pattern, []) == expected, "\(pattern) on \(text.debugDescription)")
    }

    /// Patterns Swift calls equal (canonically) but ICU does not are compiled apart: one
    /// cache entry answered for both, whichever came first (the differential test failed
    /// by test order).
    @Test func canonicallyEqualPatternsAreTwo() {
        #expect(StringMatching.matches(.matches, "\u{E9}", "\u{E9}", []))
        #expect(!StringMatching.matches(.matches, "\u{E9}", "e\u{301}", []))
        #expect(StringMatching.matches(.matches, "e\u{301}", "e\u{301}", []))
        #expect(!StringMatching.matches(.matches, "e\u{301}", "\u{E9}", []))
    }
}

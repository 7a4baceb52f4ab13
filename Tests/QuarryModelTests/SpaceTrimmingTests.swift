import Foundation
import QuarryModel
import Testing

/// `trimmingSpaces` asks Foundation only when an end may be trimmed, and answers as
/// `trimmingCharacters(in: .whitespaces)` does for any text.
@Suite struct SpaceTrimmingTests {
    @Test(arguments: [
        "", "abc", " a", "a ", "\ta\t", "  ", "\u{00A0}a", "a\u{3000}", "\n a \n", "é", "a é ", "'x' ", "CURRENT_TIMESTAMP"
    ])
    func trimsAsFoundationTrimsWhitespace(_ text: String) {
        #expect(text.trimmingSpaces == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
    }
}

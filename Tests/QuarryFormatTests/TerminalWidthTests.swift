import QuarryTestSupport
import Testing

@testable import QuarryFormat

/// Columns a text takes: ASCII is counted by its bytes, as one column a character
/// ("\r\n" one character), the same as counting its characters; other text by each.
@Suite struct TerminalWidthTests {
    @Test func asciiTakesOneColumnACharacter() {
        var rng = SplitMix64(seed: 80)
        let alphabet = Array("ab 1\r\n\t\u{7F}\u{0}".utf8)
        for _ in 0..<2_000 {
            let bytes = (0..<Int(rng.next() % 12)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(TerminalWidth.of(text) == text.count, "\(bytes)")
        }
        #expect(TerminalWidth.of("a\r\nb") == 3)
        #expect(TerminalWidth.of("") == 0)
        #expect(TerminalWidth.of("ab数据") == 6)
        #expect(TerminalWidth.of("e\u{301}\r\n") == 2)
    }
}

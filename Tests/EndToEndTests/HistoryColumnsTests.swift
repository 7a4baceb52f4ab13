import Foundation
import QuarryTestSupport
import Testing

/// `.history` in columns (a trial on an app's store, issue 80): a time's fraction has as
/// many digits as it needs (`.55Z`, `.545Z`), which shifted the rest of its line, and a
/// long author (Core Data's migration words) pushed the counts off the screen.
@Suite struct HistoryColumnsTests {
    @Test func historyLinesKeepTheirColumnsWhateverTheTimeOrAuthor() async throws {
        let sandbox = try Sandbox()
        let store = try CoreDataTests().copy("photos/Photos.sqlite", into: sandbox)
        // Wide enough for the migrator's author on one line.
        let repl = try await TmuxSession(sandbox, arguments: [store], columns: 300)
        try await repl.waitForPrompt()
        // Photos' last transactions: 391 at 21:17:00.55Z, the others with three digits;
        // 386 by the schema migrator, whose author is a line long.
        let lines = try await repl.enter(".history 6")
        try #require(lines.count == 6, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("391  2023-07-15T21:17:00.55Z   +1 ~0 -0") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("386  2023-07-15T21:17:00.331Z  +0 ~0 -0   com.apple.coredata.schemamigrator") }, "\(lines)")
        let counts = Set(lines.compactMap { line in line.firstIndex(of: "+").map { line.distance(from: line.startIndex, to: $0) } })
        #expect(counts.count == 1, "\(lines)")
    }
}

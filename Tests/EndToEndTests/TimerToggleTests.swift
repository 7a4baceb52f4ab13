import Foundation
import Testing

/// `.timer` alone (and psql's `\timing`, which runs it) turns the timer over and says
/// which way, as psql's `\timing` says "Timing is on."; it left the timer on for good.
@Suite struct TimerToggleTests {
    @Test func timerAloneTurnsItOverAndSaysWhichWay() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["-"], stdin: ".timer\n.timer\n.timer on\n.show\n")
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        #expect(Array(lines.prefix(2)) == ["timer: on", "timer: off"], "\(lines)")
        // `.timer on` says nothing, and `.show` then lists it on.
        #expect(lines.filter { $0.trimmingCharacters(in: .whitespaces) == "timer: on" }.count == 2, "\(lines)")
    }
}

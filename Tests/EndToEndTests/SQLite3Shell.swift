import Foundation
import Testing

/// Runs `sql` in the `sqlite3` shell on `file` of the sandbox, as the program that made a
/// file Quarry opens, or as the peer a figure is checked against; a failure stops the test.
/// Returns what the shell printed, without its last newline.
@discardableResult
func sqlite3(_ sandbox: Sandbox, _ file: String, _ sql: String) async throws -> String {
    let result = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(file), sql])
    try #require(result.status == 0, "\(result)")
    return result.stdout.trimmingCharacters(in: .newlines)
}

/// The same, its output as lines (a row of `sqlite3`'s list mode each).
@discardableResult
func sqlite3Lines(_ sandbox: Sandbox, _ file: String, _ sql: String) async throws -> [String] {
    let result = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(file), sql])
    try #require(result.status == 0, "\(result)")
    return result.lines
}

import Foundation
import GRDB
import Testing

/// A SQLite file Quarry did not create, made by running `sql` in a new temporary file;
/// returns its path.
func foreignFile(_ sql: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-foreign-\(UUID().uuidString).db").path
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in try db.execute(sql: sql) }
    try queue.close()
    return path
}

/// What plain SQL answers to `query` on the file at `path`: its first column, joined by
/// commas.
func sqlAnswer(_ path: String, _ query: String) throws -> String {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in try String.fetchAll(db, sql: query).joined(separator: ",") }
}

/// Each predicate of `cases` counted over `table` of the file at `path`, in SQL (`count`)
/// and in memory (`p:matches` over every object), against plain SQL's answer for the
/// condition beside it: the two ways Quarry answers agree with SQLite.
func expectCountsAgreeWithSQLite(
    _ h: Harness, _ path: String, table: String, _ cases: [(predicate: String, sql: String)],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    for (predicate, sql) in cases {
        let expected = try sqlAnswer(path, "SELECT count(*) FROM \(table) WHERE \(sql)")
        #expect(h.string(#"count("\#(table)", "\#(predicate)")"#) == expected, "\(predicate): SQL", sourceLocation: sourceLocation)
        let inMemory = h.string(
            #"(function() local p, k = predicate("\#(predicate)"), 0; for _, o in ipairs(fetch("\#(table)")) do if p:matches(o) then k = k + 1 end end; return k end)()"#
        )
        #expect(inMemory == expected, "\(predicate): in memory", sourceLocation: sourceLocation)
    }
}

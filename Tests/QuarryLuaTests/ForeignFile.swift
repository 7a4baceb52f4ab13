import Foundation
import GRDB

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

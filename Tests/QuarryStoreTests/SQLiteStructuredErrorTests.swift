import Foundation
import GRDB
import QuarryModel
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarrySQLite
@testable import QuarryStore

/// Errors keep their parts until they are rendered: SQLite's code and statement, an
/// import's line and field, readable from the value while the line reads as it did.
@Suite struct SQLiteStructuredErrorTests {
    @Test func aRefusedStatementKeepsSQLitesCodeAndItsSQL() throws {
        let context = try makeContext(itemEntity)
        if let error = try duplicateCodeRefusal(in: context) {
            #expect(error.sqliteCode == .SQLITE_CONSTRAINT_UNIQUE)
            #expect(error.sqliteCode?.primaryResultCode == .SQLITE_CONSTRAINT)
            #expect(error.sql?.contains("Item") == true, "\(String(describing: error.sql))")
            #expect(error.isDatabaseFailure)
            // The line is SQLite's message, then the value and the object holding it.
            #expect(error.description.hasPrefix("UNIQUE constraint failed: Item.code 'A' of Item/t"), "\(error)")
        }
    }

    @Test func sqlitesCodesReadAsTheyDid() {
        let busy = StoreError(DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked", sql: "UPDATE t SET x = 1"))
        #expect(busy == .sqlite(code: .SQLITE_BUSY, sql: "UPDATE t SET x = 1", message: "database is locked"))
        #expect(busy.description == "database is locked (another connection held it for more than 5 seconds)")
        let full = StoreError(DatabaseError(resultCode: .SQLITE_IOERR_WRITE, message: "disk I/O error"))
        #expect(full.sqliteCode == .SQLITE_IOERR_WRITE && full.sql == nil)
        #expect(full.description == "disk I/O error while writing (is the disk full, or the file at its size limit?)")
        // Another I/O error says no more than SQLite does.
        #expect(StoreError(DatabaseError(resultCode: .SQLITE_IOERR_READ, message: "disk I/O error")).description == "disk I/O error")
        let stopped = StoreError(DatabaseError(resultCode: .SQLITE_INTERRUPT))
        #expect(stopped.sqliteCode == .SQLITE_INTERRUPT)
        #expect(stopped.description == "interrupted!")
        #expect(
            StoreError.during(operation: "save", busy).description
                == "save: database is locked (another connection held it for more than 5 seconds)")
        #expect(StoreError.during(operation: "save", busy).sql == "UPDATE t SET x = 1")
    }

    @Test func aRefusedCSVCellNamesItsLineAndField() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-structured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let context = try OpenFileRequest.open(path: nil)
        try context.define(
            EntityDescription(
                name: "Pair",
                attributes: [
                    AttributeDescription(name: "a", type: .string), AttributeDescription(name: "b", type: .int64)
                ]))
        let path = dir.appendingPathComponent("pairs.csv").path
        try "a,b\nx,1\ny,two\n".write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try ImportRequest(path, into: "Pair").execute(in: context)
            Issue.record("a word was taken for an integer")
        } catch let error as StoreError {
            guard case .importFailed(_, let line, _, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(line == 3)
            #expect(error.importField == ImportField(name: "b", column: 2))
            #expect(error.description == "import: \(path):3: 'b' expects int64, got \"two\"")
            // The field is detail: the error equals the one that says the same without it.
            #expect(error == .importFailed(path: path, line: 3, reason: "'b' expects int64, got \"two\""))
        }

        let header = dir.appendingPathComponent("twice.csv").path
        try "a,b,a\n1,2,3\n".write(toFile: header, atomically: true, encoding: .utf8)
        #expect(throws: StoreError.self) { try ImportRequest(header, into: "Twice").execute(in: context) }
        do { _ = try ImportRequest(header, into: "Twice").execute(in: context) } catch let error as StoreError {
            #expect(error.importField == ImportField(name: "a", column: 3))
            #expect(error.description == "import: \(header):1: column 'a' appears twice in the header")
        }
    }

    @Test func aRefusedJSONValueNamesItsElementAndKey() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-structured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let context = try OpenFileRequest.open(path: nil)
        try context.define(EntityDescription(name: "N", attributes: [AttributeDescription(name: "n", type: .int64)]))
        let path = dir.appendingPathComponent("n.json").path
        try #"[{"n": 1}, {"n": "x"}]"#.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try ImportRequest(path, into: "N").execute(in: context)
            Issue.record("text was taken for an integer")
        } catch let error as StoreError {
            #expect(error.importField == ImportField(name: "n", element: 2))
            #expect(error.location == .file(path: path, line: nil, column: nil))
            #expect(error.description.hasPrefix("import: \(path): element 2: 'n' expects int64"), "\(error)")
        }
    }
}

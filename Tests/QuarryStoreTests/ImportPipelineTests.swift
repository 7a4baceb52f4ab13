import Foundation
import GRDB
import QuarryModel
import QuarrySQLite
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// The import's two threads (a parser thread filling batches of cells, the connection's
/// thread inserting them several rows a statement) give what one thread reading row by
/// row gave: every value, the widening restarts, and errors at their line.
@Suite struct ImportPipelineTests {
    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-pipeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func write(_ text: String, _ dir: URL, _ name: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func column(_ context: ObjectContext, _ sql: String) throws -> [DatabaseValue] {
        try context.connection.read { db in try DatabaseValue.fetchAll(db, sql: sql) }
    }

    @Test func valuesSplitAcrossTheReadBufferAndBatchesComeBackWhole() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Rows of uneven length, past three read chunks, so chunk edges fall inside
        // numbers, dates, plain, quoted and non-ASCII text; the batches (1,024 rows, 32
        // rows a statement) end at other rows than the chunks do.
        var text = "n,x,when,s,q\n"
        var expected: [[DatabaseValue]] = []
        var i = 0
        while text.utf8.count < 3 * CSVReader.chunkSize + 12_345 {
            let s = String(repeating: i % 2 == 0 ? "é" : "ab", count: i % 37)
            let q = "say \"\(i)\", ok"
            let x = Double(i) / 4
            text +=
                "\(i * 1_000_003),\(x),2024-02-\(String(format: "%02d", 1 + i % 28))T10:00:00Z,\(s.isEmpty ? "NA" : s),\"\(q.replacingOccurrences(of: "\"", with: "\"\""))\"\n"
            let seconds = Value.parseISO8601("2024-02-\(String(format: "%02d", 1 + i % 28))T10:00:00Z") ?? 0
            expected.append([
                (Int64(i) * 1_000_003).databaseValue, x.databaseValue, seconds.databaseValue,
                s.isEmpty ? .null : s.databaseValue, q.databaseValue
            ])
            i += 1
        }
        let path = try write(text, dir, "split.csv")
        let context = try OpenFileRequest.open(path: nil)
        #expect(try ImportRequest(path, into: "Split").execute(in: context).rows == expected.count)
        let types = context.entities.first { $0.name == "Split" }?.attributes.map(\.type)
        #expect(types == [.int64, .double, .date, .string, .string])
        let rows = try context.connection.read { db in
            try Row.fetchAll(db, sql: "SELECT n, x, \"when\", s, q FROM Split ORDER BY _pk").map { row in (0..<5).map { row[$0] as DatabaseValue } }
        }
        #expect(rows.count == expected.count)
        #expect(rows == expected)
    }

    @Test func aColumnOnlyNilInTheSampleTakesTextOrWidensLater() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Column b is NA for the whole sample: text afterwards fits (an optional string);
        // column c is NA too, and a number after the sample makes it an integer column.
        var text = "a,b,c\n"
        for k in 1...45_000 { text += "\(k),\(k > 30_000 ? "t\(k)" : "NA"),\(k == 44_000 ? "12" : "NA")\n" }
        let path = try write(text, dir, "late.csv")
        let context = try OpenFileRequest.open(path: nil)
        #expect(try ImportRequest(path, into: "Late").execute(in: context).rows == 45_000)
        let entity = context.entities.first { $0.name == "Late" }
        #expect(entity?.attribute(named: "b")?.type == .string)
        #expect(entity?.attribute(named: "c")?.type == .int64)
        #expect(entity?.attribute(named: "c")?.isOptional == true)
        #expect(try column(context, "SELECT b FROM Late WHERE _pk IN (30000, 30001) ORDER BY _pk") == [.null, "t30001".databaseValue])
        #expect(try column(context, "SELECT c FROM Late WHERE c IS NOT NULL") == [Int64(12).databaseValue])
        #expect(try column(context, "SELECT typeof(c) FROM Late WHERE _pk = 44000") == ["integer".databaseValue])
    }

    @Test func errorsFoundOnTheParserThreadNameTheirLineAndLeaveNothing() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let context = try OpenFileRequest.open(path: nil)
        let rows = (1...50_000).map { "\($0),x\($0)\n" }.joined()
        // A quoted field left open far past the first batches.
        let open = try write("a,b\n" + rows + "7,\"never closed\n8,y\n", dir, "open.csv")
        #expect(throws: StoreError.importFailed(path: open, line: 50_002, reason: "a quoted field is not closed")) {
            try ImportRequest(open, into: "Open").execute(in: context)
        }
        #expect(!context.entities.contains { $0.name == "Open" })
        // A NUL in a UTF-8 text cell: the slow path's refusal, with its line. (Bytes that
        // are not UTF-8 go into a string as they are: TextBytesTests.)
        var bytes = Array(("a,b\n" + rows).utf8)
        bytes += Array("9,bad ".utf8) + [0x00, 0x28] + Array("\n".utf8)
        let bad = dir.appendingPathComponent("bad.csv").path
        #expect(FileManager.default.createFile(atPath: bad, contents: Data(bytes)))
        let nul = "'b' holds a NUL byte, which a string cannot (import into a binary attribute)"
        #expect(throws: StoreError.importFailed(path: bad, line: 50_002, reason: nul)) {
            try ImportRequest(bad, into: "Bad").execute(in: context)
        }
        #expect(!context.entities.contains { $0.name == "Bad" })
        // A required attribute left empty, into an existing entity, in a later batch.
        try context.define(
            EntityDescription(
                name: "Needs",
                attributes: [
                    AttributeDescription(name: "a", type: .int64), AttributeDescription(name: "b", type: .string)
                ]))
        let empty = try write("a,b\n" + rows + "10,\n", dir, "empty.csv")
        do {
            _ = try ImportRequest(empty, into: "Needs").execute(in: context)
            Issue.record("an empty required cell was taken")
        } catch {
            #expect(error as? StoreError == .importFailed(path: empty, line: 50_002, reason: "'b' is required but empty"))
            let shown = "\(error)"
            #expect(shown.contains("50002") && !shown.contains("\n"), "\(shown)")
        }
        #expect(try context.connection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM Needs") } == 0)
    }

    @Test func aConstraintBrokenInsideAMultiRowInsertNamesItsRow() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let context = try OpenFileRequest.open(path: nil)
        try context.define(EntityDescription(name: "Coded", attributes: [AttributeDescription(name: "code", type: .int64)]))
        try context.connection.database.write { db in try db.execute(sql: "CREATE UNIQUE INDEX coded_code ON Coded(code)") }
        // Row 5,000 repeats row 10's code: the 32-row INSERT holding it fails as a whole,
        // and its rows are tried one by one to find which.
        let text = "code\n" + (1...6_000).map { "\($0 == 5_000 ? 10 : $0)\n" }.joined()
        let path = try write(text, dir, "dup.csv")
        do {
            _ = try ImportRequest(path, into: "Coded").execute(in: context)
            Issue.record("a duplicate was taken")
        } catch let StoreError.importFailed(_, line, _, reason) {
            #expect(line == 5_001)
            #expect(reason.contains("UNIQUE"), "\(reason)")
        }
        #expect(try context.connection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM Coded") } == 0)
    }

    @Test func defaultsAndJSONGoThroughTheSameBatches() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let context = try OpenFileRequest.open(path: nil)
        try context.define(
            EntityDescription(
                name: "Tagged",
                attributes: [
                    AttributeDescription(name: "n", type: .int64),
                    AttributeDescription(name: "tag", type: .string, defaultValue: .text("dflt"))
                ]))
        let csv = try write("n\n" + (1...3_000).map { "\($0)\n" }.joined(), dir, "n.csv")
        #expect(try ImportRequest(csv, into: "Tagged").execute(in: context).rows == 3_000)
        #expect(try column(context, "SELECT count(*) FROM Tagged WHERE tag = 'dflt'") == [Int64(3_000).databaseValue])
        let json = try write("[" + (1...3_000).map { "{\"n\": \($0), \"tag\": \"j\($0)\"}" }.joined(separator: ",") + "]", dir, "n.json")
        #expect(try ImportRequest(json, into: "Tagged").execute(in: context).rows == 3_000)
        #expect(try column(context, "SELECT sum(n), count(*) FROM Tagged WHERE tag LIKE 'j%'").first == Int64(3_000 * 3_001 / 2).databaseValue)
        #expect(try column(context, "SELECT tag FROM Tagged ORDER BY _pk DESC LIMIT 1") == ["j3000".databaseValue])
    }
}

import Foundation
import GRDB
import QuarryModel
import QuarrySQLite
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// Import streams: the reader asks its source for a chunk at a time, and types inferred
/// from a sample never give a wrong value when a later row contradicts them.
@Suite struct StreamingImportTests {
    /// A source that hands out its bytes in reads no larger than asked, and remembers
    /// the largest read asked for.
    struct CountingSource: ByteSource {
        let bytes: [UInt8]
        var bytesRead = 0
        var largestRequest = 0
        var reads = 0
        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            largestRequest = max(largestRequest, buffer.count)
            reads += 1
            // Short reads, as a pipe gives them: never more than 100,003 bytes at once.
            let n = min(buffer.count, 100_003, bytes.count - bytesRead)
            guard n > 0 else { return 0 }
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[bytesRead..<(bytesRead + n)])) }
            bytesRead += n
            return n
        }
    }

    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func theReaderAsksForChunksAndReadsRecordsAcrossTheirEdges() throws {
        // About 3 MB of records whose quoted fields hold commas, quotes and line ends,
        // so chunk edges fall inside quoted fields, escaped quotes and CRLF pairs.
        var text = "id,note,n\r\n"
        var expected: [[String]] = []
        for i in 0..<60_000 {
            let note = i % 3 == 0 ? "say \"hi\", \(i)\nnext line" : "plain \(i) " + String(repeating: "x", count: i % 50)
            expected.append([String(i), note, String(i * 7)])
            text += "\(i),\"\(note.replacingOccurrences(of: "\"", with: "\"\""))\",\(i * 7)\r\n"
        }
        let bytes = Array(text.utf8)
        #expect(bytes.count > 2 * CSVReader.chunkSize)
        let reader = CSVReader(source: CountingSource(bytes: bytes))
        #expect(try reader.next())
        var read: [[String]] = []
        while try reader.next() {
            read.append((0..<reader.fields.count).map { i in reader.withField(i) { b, _ in String(decoding: b, as: UTF8.self) } })
        }
        #expect(read == expected)
        guard let source = reader.source as? CountingSource else {
            Issue.record("not the source given")
            return
        }
        // Never the whole input at once: one chunk per read.
        #expect(source.largestRequest <= CSVReader.chunkSize)
        #expect(source.reads > bytes.count / CSVReader.chunkSize)
    }

    @Test func aRecordLongerThanAChunkIsReadWhole() throws {
        let long = String(repeating: "é", count: CSVReader.chunkSize) // two chunks of bytes
        let reader = CSVReader(source: CountingSource(bytes: Array("a,b\n1,\"\(long)\"\n2,x\n".utf8)))
        #expect(try reader.next())
        #expect(try reader.next())
        #expect(reader.withField(1) { b, _ in String(decoding: b, as: UTF8.self) } == long)
        #expect(try reader.next())
        #expect(reader.line == 3)
        #expect(try !reader.next())
    }

    @Test func aFieldOfManyChunksIsReadAFewTimesNotOncePerChunk() throws {
        // 3 MiB in one quoted field, with escaped quotes, from a source of short reads.
        let unit = "abc\"\"def,\n"
        let count = 3 * CSVReader.chunkSize / unit.utf8.count
        let long = String(repeating: unit, count: count)
        let reader = CSVReader(source: CountingSource(bytes: Array("a,b\n1,\"\(long)\"\n2,x\n".utf8)))
        #expect(try reader.next())
        #expect(try reader.next())
        #expect(reader.withField(1) { b, _ in b.count } == count * (unit.utf8.count - 1))
        #expect(reader.withField(1) { b, _ in String(decoding: b.prefix(9), as: UTF8.self) } == "abc\"def,\n")
        #expect(try reader.next())
        #expect(reader.withField(1) { b, _ in String(decoding: b, as: UTF8.self) } == "x")
        #expect(try !reader.next())
        // Each fill doubles what the record has: about log2(3) + 2 of them, where one per
        // short read of the source (32) read the field again from its start.
        #expect(reader.refills <= 5, "\(reader.refills) fills")
    }

    /// A file of `rows` rows of two columns, `a` an integer and `b` text, with `late`
    /// written into column `a` of row `at` (1-based, after the header).
    private func file(_ dir: URL, rows: Int, at: Int, late: String, name: String = "late.csv") throws -> String {
        var text = "a,b\n"
        for i in 1...rows { text += "\(i == at ? late : String(i)),r\(i)\n" }
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func values(_ context: ObjectContext, _ entity: String, _ key: String, row: Int64) throws -> Value {
        try context.connection.read { db in
            Value(
                try DatabaseValue.fetchOne(db, sql: "SELECT \(quoteIdentifier(key)) FROM \(quoteIdentifier(entity)) WHERE _pk = ?", arguments: [row])
                    ?? .null)
        }
    }

    @Test func aLaterCellWidensTheColumnInsteadOfGivingAWrongValue() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let context = try OpenFileRequest.open(path: nil)
        // Row 50,000 is far past the sample of 20,000 rows.
        let cases: [(late: String, type: AttributeType, optional: Bool, stored: Value)] = [
            ("1.5", .double, false, .real(1.5)),
            ("x", .string, false, .text("x")),
            ("NA", .int64, true, .null),
            ("\"NA\"", .string, false, .text("NA")),
            ("9007199254740993", .int64, false, .integer(9_007_199_254_740_993)),
            ("true", .string, false, .text("true"))
        ]
        for (n, c) in cases.enumerated() {
            let path = try file(dir, rows: 60_000, at: 50_000, late: c.late, name: "late\(n).csv")
            let summary = try ImportRequest(path, into: "Late\(n)").execute(in: context)
            #expect(summary.rows == 60_000)
            let attribute = context.entities.first { $0.name == "Late\(n)" }?.attribute(named: "a")
            #expect(attribute?.type == c.type, "\(c.late)")
            #expect(attribute?.isOptional == c.optional, "\(c.late)")
            #expect(try values(context, "Late\(n)", "a", row: 50_000) == c.stored, "\(c.late)")
            // The rows before keep their values, as the wider type holds them.
            let before = try values(context, "Late\(n)", "a", row: 49_999)
            #expect(before == (c.type == .string ? .text("49999") : c.type == .double ? .real(49_999) : .integer(49_999)), "\(c.late)")
        }
    }

    @Test func digitsADoubleWouldRoundMakeTheColumnTextEvenAfterTheSample() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "a\n"
        for i in 1...30_000 { text += "\(i)\n" }
        text += "9007199254740993\n1.5\n"
        let path = dir.appendingPathComponent("mixed.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let context = try OpenFileRequest.open(path: nil)
        #expect(try ImportRequest(path, into: "Mixed").execute(in: context).rows == 30_002)
        #expect(context.entities.first { $0.name == "Mixed" }?.attribute(named: "a")?.type == .string)
        #expect(try values(context, "Mixed", "a", row: 30_001) == .text("9007199254740993"))
        #expect(try values(context, "Mixed", "a", row: 30_002) == .text("1.5"))
    }

    @Test func intoAnExistingEntityALaterBadCellStopsWithItsLineAndChangesNothing() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let context = try OpenFileRequest.open(path: nil)
        try context.define(
            EntityDescription(
                name: "Fixed",
                attributes: [
                    AttributeDescription(name: "a", type: .int64), AttributeDescription(name: "b", type: .string)
                ]))
        let path = try file(dir, rows: 60_000, at: 50_000, late: "1.5")
        #expect(throws: StoreError.importFailed(path: path, line: 50_001, reason: "'a' expects int64, got \"1.5\"")) {
            try ImportRequest(path, into: "Fixed").execute(in: context)
        }
        #expect(try context.connection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM Fixed") } == 0)
        // A ragged row after the sample is found too, with nothing written.
        let ragged = dir.appendingPathComponent("ragged.csv").path
        try ("a,b\n" + (1...30_000).map { "\($0),x\n" }.joined() + "7\n").write(toFile: ragged, atomically: true, encoding: .utf8)
        #expect(throws: StoreError.importFailed(path: ragged, line: 30_002, reason: "expected 2 fields, got 1")) {
            try ImportRequest(ragged, into: "Ragged").execute(in: context)
        }
        #expect(!context.entities.contains { $0.name == "Ragged" })
    }

    @Test func aFIFOImportsToo() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("in.csv").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(Data("a,b\n1,x\n2,y\n".utf8))
                try? handle.close()
            }
        }
        writer.start()
        let context = try OpenFileRequest.open(path: nil)
        #expect(try ImportRequest(fifo, into: "Piped").execute(in: context).rows == 2)
    }

    /// Every row of an import table, each cell converted as the attribute inferred for its
    /// column, the columns taken in their names' order: the stream's columns are in the
    /// file's order, the whole document's in sorted order element by element (a parsed
    /// dictionary keeps none).
    private func contents(_ table: ImportTable) throws -> [[Value]] {
        let attributes = zip(table.columns, table.types).map {
            AttributeDescription(name: $0.isEmpty ? "x" : $0, type: $1.attributeType, isOptional: true)
        }
        let byName = table.columns.indices.sorted { table.columns[$0] < table.columns[$1] }
        var rows: [[Value]] = []
        try table.rows(nil) { _, cells in rows.append(try byName.map { try cells($0, attributes[$0]) }) }
        return rows
    }

    /// Each column's inferred type and whether it may be nil, by the column's name.
    private func types(_ table: ImportTable) -> [String: String] {
        Dictionary(uniqueKeysWithValues: zip(table.columns, table.types).map { ($0, "\($1.attributeType)\($1.isOptional ? "?" : "")") })
    }

    @Test func jsonStreamsInChunksAndReadsAsTheWholeDocumentReadsIt() throws {
        // Escapes, surrogate pairs, nested values, keys that come late, nil and absent keys,
        // integers past 2^53, reals and dates: streamed and parsed whole, the same table.
        var elements: [String] = []
        for i in 0..<40_000 {
            var members = ["\"n\": \(i)", "\"t\": \"line\\n\\\"q\\\" \\u00e9\\ud83d\\ude00 \(i)\""]
            if i % 7 == 0 { members.append("\"nested\": {\"b\": [1, 2.5, null], \"a\": \"x\"}") }
            if i % 5 == 0 { members.append("\"maybe\": null") }
            if i > 30_000 { members.append("\"late\": \(i).5") }
            members.append("\"when\": \"2024-01-\(10 + i % 20)T10:00:00Z\"")
            members.append("\"big\": \(i == 3 ? "9007199254740993" : String(i))")
            elements.append("{" + members.joined(separator: ", ") + "}")
        }
        let text = "[\n" + elements.joined(separator: ",\n") + "\n]\n"
        let bytes = Array(text.utf8)
        #expect(bytes.count > 3 * CSVReader.chunkSize)
        var largest = 0
        let streamed = try JSONImport(
            path: "t.json",
            open: {
                let source = CountingSource(bytes: bytes)
                defer { largest = max(largest, source.largestRequest) }
                return source
            }
        ).table()
        let whole = try JSONImport(path: "t.json", open: { BytesSource(bytes) }).wholeTable(Data(bytes))
        // The columns in the order their keys first come in the file (`nested` in the
        // first element, `late` past the 30,000th), as a CSV header's are.
        #expect(streamed.columns == ["n", "t", "nested", "maybe", "when", "big", "late"])
        #expect(Set(whole.columns) == Set(streamed.columns) && whole.columns.count == streamed.columns.count)
        #expect(types(streamed) == types(whole))
        #expect(streamed.count == 40_000)
        #expect(try contents(streamed) == contents(whole))
        #expect(largest <= CSVReader.chunkSize)
    }

    @Test func jsonRefusalsAreTheWholeDocumentsOnes() throws {
        let documents = [
            "[1, {\"a\": 1}", "[{\"a\": 1}, 2]", "[{\"a\": 18446744073709551615}]", "[{\"a\": 01}]", "[{\"a\": \"\\ud800\"}]",
            "[{\"a\": tru}]", "[{\"a\": 1} x", "[{\"a\": [1, {\"b\": }]}]", "[{\"a\\u0000b\": 1}]",
            "[{\"a\": 1}] [", "[{\"a\": 1e999}]", "[{\"a\": \"\u{1}\"}]", "[{\"a\": -}]", "[{\"a\": 1.}]"
        ]
        // JSONSerialization takes a comma before a closing bracket; so does the stream.
        for document in ["[{\"a\": 1},]", "[{\"a\": 1,}]", "[{\"a\": [1, {\"b\": 2,},]}]"] {
            let bytes = Array(document.utf8)
            let importer = JSONImport(path: "t.json", open: { BytesSource(bytes) })
            #expect(try contents(try importer.table()) == contents(try importer.wholeTable(Data(bytes))), "\(document)")
        }
        for document in documents {
            let bytes = Array(document.utf8)
            let importer = JSONImport(path: "t.json", open: { BytesSource(bytes) })
            var streamed: String?
            var whole: String?
            do { _ = try contents(try importer.table()) } catch { streamed = "\(error)" }
            do { _ = try contents(try importer.wholeTable(Data(bytes))) } catch { whole = "\(error)" }
            #expect(streamed != nil, "\(document) was taken")
            if document.contains("e999") || document.contains("ud800") { continue } // refused by both, for reasons of their own
            #expect(streamed == whole, "\(document)")
        }
    }
}

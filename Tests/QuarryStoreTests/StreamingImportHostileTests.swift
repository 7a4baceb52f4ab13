import Foundation
import GRDB
import QuarryModel
import QuarryStores
import Testing

@testable import QuarryStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
    @testable import QuarrySQLite
    @testable import QuarryCoreData
    import QuarryStores
    @testable import QuarryEngine
#endif

/// Hostile input, round three: imports from a stream (a FIFO, a pipe) hold one chunk in
/// memory, not the stream, and give the answers the same bytes give from a plain file;
/// a JSON number no double holds is refused by name.
@Suite struct StreamingImportHostileTests {
    fileprivate func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-hostile-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A FIFO at `path` and a thread that writes `bytes` into it (a chunk at a time, as
    /// a pipe takes them) and closes it; `join` waits for the writer.
    fileprivate final class FIFOWriter: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private(set) var written = 0

        init(path: String, bytes: [UInt8]) throws {
            guard mkfifo(path, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            Thread.detachNewThread { [self] in
                let fd = open(path, O_WRONLY) // waits for the reader, on this thread
                if fd >= 0 {
                    bytes.withUnsafeBytes { all in
                        while written < all.count {
                            let n = write(fd, all.baseAddress! + written, min(1 << 16, all.count - written))
                            if n <= 0 { break }
                            written += n
                        }
                    }
                    close(fd)
                }
                done.signal()
            }
        }

        func join() -> Int {
            done.wait()
            return written
        }
    }

    @Test func aFIFOIsCopiedAChunkAtATimeNotHeldWhole() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 24 MB, a pattern that tells every offset apart in its first bytes.
        var bytes = [UInt8](repeating: 0, count: 24 << 20)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 31 &+ i >> 16) }
        let path = dir.appendingPathComponent("in.fifo").path
        let writer = try FIFOWriter(path: path, bytes: bytes)
        let source = try FileSource(path: path)
        #expect(!source.isRewindable)
        let spool = try ImportSpool(copying: source)
        #expect(writer.join() == bytes.count)
        #expect(spool.size == bytes.count)
        // What memory held of the stream at once: one chunk, not the 24 MB (the import
        // used to keep the whole stream in an array: 400 MB took 535 MB).
        #expect(spool.largestHeld > 0 && spool.largestHeld <= CSVReader.chunkSize)
        // Read twice from the copy, as an import's passes do, each the stream exactly.
        for _ in 0..<2 {
            var copy = try spool.source()
            var read: [UInt8] = []
            read.reserveCapacity(bytes.count)
            var chunk = [UInt8](repeating: 0, count: CSVReader.chunkSize)
            while true {
                let n = try chunk.withUnsafeMutableBytes { try copy.read(into: $0) }
                if n == 0 { break }
                read.append(contentsOf: chunk[0..<n])
            }
            #expect(read == bytes)
        }
    }

    /// The attribute types and every stored row of `entity`.
    private func contents(_ context: ObjectContext, _ entity: String) throws -> [String] {
        let attributes = context.entities.first { $0.name == entity }?.attributes ?? []
        let names = attributes.map(\.name).sorted()
        let types = names.compactMap { name in attributes.first { $0.name == name }.map { "\(name):\($0.type.rawValue)\($0.isOptional ? "?" : "")" } }
        let rows = try context.connection.read { db in
            try Row.fetchAll(db, sql: "SELECT \(names.map(quoteIdentifier).joined(separator: ", ")) FROM \(quoteIdentifier(entity)) ORDER BY _pk")
                .map { row in names.indices.map { "\(Value(row[$0] as DatabaseValue))" }.joined(separator: "|") }
        }
        return [types.joined(separator: ",")] + rows
    }

    @Test(arguments: ["csv", "json"])
    func aFIFOImportGivesThePlainFilesAnswers(format: String) throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Past CSV's sample of 20,000 rows a cell widens column a (the import reads the
        // stream again from its copy); JSON infers over every element in a first pass.
        var text = format == "csv" ? "a,b,c\n" : "["
        for i in 1...40_000 {
            let a = i == 30_000 ? "2.5" : String(i)
            if format == "csv" {
                text += "\(a),\"row \(i), quoted\",\(i % 3 == 0 ? "" : "2024-01-02T03:04:05Z")\n"
            } else {
                text += (i > 1 ? ",\n" : "") + #"{"a": \#(a), "b": "row \#(i)", "c": \#(i % 3 == 0 ? "null" : "[\(i), {\"k\": true}]")}"#
            }
        }
        if format == "json" { text += "]" }
        let bytes = Array(text.utf8)
        let plain = dir.appendingPathComponent("plain.\(format)").path
        try Data(bytes).write(to: URL(fileURLWithPath: plain))
        let fifo = dir.appendingPathComponent("stream.\(format)").path
        let writer = try FIFOWriter(path: fifo, bytes: bytes)

        let context = try OpenFileRequest.open(path: nil)
        let fromFile = try ImportRequest(plain, into: "FromFile").execute(in: context)
        let fromFIFO = try ImportRequest(fifo, into: "FromFIFO").execute(in: context)
        #expect(writer.join() == bytes.count)
        #expect(fromFile == fromFIFO)
        #expect(fromFIFO.rows == 40_000)
        let expected = try contents(context, "FromFile")
        #expect(expected.count == 40_001)
        #expect(try contents(context, "FromFIFO") == expected)
    }

    @Test func aFIFOWithABadRowChangesNothing() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let context = try OpenFileRequest.open(path: nil)
        try context.define(EntityDescription(name: "Fixed", attributes: [AttributeDescription(name: "a", type: .int64)]))
        let fifo = dir.appendingPathComponent("bad.csv").path
        let writer = try FIFOWriter(path: fifo, bytes: Array(("a\n" + (1...30_000).map { "\($0)\n" }.joined() + "x\n").utf8))
        #expect(throws: StoreError.importFailed(path: fifo, line: 30_002, reason: "'a' expects int64, got \"x\"")) {
            try ImportRequest(fifo, into: "Fixed").execute(in: context)
        }
        _ = writer.join()
        #expect(try context.connection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM Fixed") } == 0)
    }

    @Test func aJSONNumberNoDoubleHoldsIsRefusedByName() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let context = try OpenFileRequest.open(path: nil)
        let cases: [(json: String, reason: String)] = [
            (#"[{"a": 1.5}, {"a": 1e400}]"#, "element 2: 'a' holds 1e400, a number beyond the range of a double (about ±1.8e308)"),
            (#"[{"a": -1E+999, "b": 1}]"#, "element 1: 'a' holds -1E+999, a number beyond the range of a double (about ±1.8e308)"),
            // Inside a nested value (kept as JSON text), the member is refused the same way.
            (
                #"[{"a": 1}, {"a": 2}, {"n": {"deep": [1, 2e308]}}]"#,
                "element 3: 'n' holds 2e308, a number beyond the range of a double (about ±1.8e308)"
            ),
            // An integer beyond Int64 keeps its message.
            (#"[{"a": 99999999999999999999}]"#, "element 1: 'a' holds 99999999999999999999, an integer beyond the 64-bit integers Quarry holds")
        ]
        for (n, c) in cases.enumerated() {
            let path = dir.appendingPathComponent("big\(n).json").path
            try c.json.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(throws: StoreError.importFailed(path: path, line: nil, reason: c.reason)) {
                try ImportRequest(path, into: "Big\(n)").execute(in: context)
            }
            #expect(!context.entities.contains { $0.name == "Big\(n)" })
        }
        // A number too small for a double is 0, as every JSON reader reads it; the largest finite one is kept.
        let small = dir.appendingPathComponent("small.json").path
        try #"[{"a": 1e-400}, {"a": 1.7976931348623157e308}]"#.write(toFile: small, atomically: true, encoding: .utf8)
        #expect(try ImportRequest(small, into: "Small").execute(in: context).rows == 2)
        #expect(try contents(context, "Small") == ["a:double", "\(Value.real(0))", "\(Value.real(1.7976931348623157e308))"])
    }

    @Test func theStoredModelsReaderRefusesANumberNoDoubleHoldsWithoutTrapping() throws {
        for text in ["1e400", "[1e400]", #"{"a": -1e400}"#, #"{"a": [[[1E999]]]}"#] {
            #expect(throws: JSONSyntax.self, "\(text)") { try JSONTree(parsing: text) }
        }
        #expect(try JSONTree(parsing: #"{"a": 1e-400}"#)["a"]?.double == 0)
    }
}

extension StreamingImportHostileTests {
    /// A document that is not an array is refused as the whole document's parse refuses
    /// it, read a value at a time: from a FIFO, not held in memory.
    @Test func aDocumentThatIsNotAnArrayIsRefusedWithTheWholeParsesMessage() throws {
        let documents = ["{\"a\": 1}", " \"text\"", "12", "{\"a\": [1, 2}", "{", "nul", "{\"a\": 1} x", "true ", "{\"a\": 1,}"]
        for document in documents {
            let bytes = Array(document.utf8)
            let importer = JSONImport(path: "t.json", open: { BytesSource(bytes) })
            var streamed: String?
            var whole: String?
            do { _ = try importer.table() } catch { streamed = "\(error)" }
            do { _ = try importer.wholeTable(Data(bytes)) } catch { whole = "\(error)" }
            #expect(streamed != nil && streamed == whole, "\(document): \(streamed ?? "taken") against \(whole ?? "taken")")
        }
        // A byte-order mark before an array still reads as before.
        let marked = [0xEF, 0xBB, 0xBF] + Array(#"[{"a": 1}]"#.utf8)
        #expect(try JSONImport(path: "t.json", open: { BytesSource(marked) }).table().count == 1)
    }

    @Test func aNotArrayDocumentFromAFIFOIsRefusedOnceReadThrough() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 8 MB inside one object: refused as an object, once the whole stream is read.
        let bytes = Array(("{\"a\": \"" + String(repeating: "x", count: 8 << 20) + "\"}").utf8)
        let fifo = dir.appendingPathComponent("object.json").path
        let writer = try FIFOWriter(path: fifo, bytes: bytes)
        let context = try OpenFileRequest.open(path: nil)
        #expect(throws: StoreError.importFailed(path: fifo, line: nil, reason: "expected a JSON array of objects")) {
            try ImportRequest(fifo, into: "Object").execute(in: context)
        }
        #expect(writer.join() == bytes.count)
    }
}

extension StreamingImportHostileTests {
    /// The stored model's reader makes a string without escapes from its bytes in place,
    /// and any other through the shared lexer: as a value and as a key, each reads as
    /// JSON says, and what JSON refuses is refused.
    @Test func theStoredModelsReaderReadsEveryKindOfString() throws {
        let cases: [(token: String, text: String?)] = [
            (#""""#, ""), (#""plain""#, "plain"), (#""café ☕ 𝄞""#, "café ☕ 𝄞"), (#""a\"b\\c\/d""#, "a\"b\\c/d"),
            (#""line\nnext\ttab""#, "line\nnext\ttab"), (#""\u00e9\ud834\udd1e""#, "é𝄞"), (#""é then \n""#, "é then \n"),
            ("\"raw\u{01}control\"", nil), (#""unterminated"#, nil), (#""bad \x escape""#, nil), (#""lone \udc00""#, nil)
        ]
        for (token, text) in cases {
            let value = try? JSONTree(parsing: token)
            let member = try? JSONTree(parsing: "{" + token + ": " + token + "}")
            #expect(value?.string == text, "\(token)")
            if let text {
                #expect(member?[text]?.string == text, "\(token) as a key")
            } else {
                #expect(member == nil, "\(token) as a key")
            }
        }
    }
}

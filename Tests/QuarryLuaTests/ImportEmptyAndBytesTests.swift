import Foundation
import QuarryStore
import Testing

/// Issue 82's engine suite, export then import: nil and the empty string are told apart
/// in CSV as PostgreSQL's `COPY ... CSV` and DuckDB tell them (nil an empty unquoted
/// field, the empty string `""`), and bytes exported as base64 are imported as the bytes,
/// not as the base64 text's; text that is not base64 is refused for a binary attribute in
/// one line, with nothing imported. Files written here by hand, as other tools write them.
@Suite struct ImportEmptyAndBytesTests {
    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-empty-bytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func write(_ text: String, _ dir: URL, _ name: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aQuotedEmptyFieldIsTheEmptyStringAndAnUnquotedOneNil() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness()
        // Inferred: s is text (an empty string, then nil); n stays a number, its quoted
        // empty field nil, as a number has no empty value.
        let plain = try write("k,s,n\n1,\"\",5\n2,,\n3,x,\"\"\n", dir, "plain.csv")
        h.run(#"import("\#(plain)", { entity = "P" })"#)
        #expect(h.string(#"P:first("k == 1").s == """#) == "true")
        #expect(h.string(#"P:first("k == 2").s == nil"#) == "true")
        #expect(h.string(#"P:first("k == 3").n == nil and P:first("k == 1").n == 5"#) == "true")
        #expect(h.string(#"count("P", "s == ''")"#) == "1")
        // A file that quotes every field, its header too (Python's QUOTE_ALL writes None
        // as ""): its quotes say nothing, and "" is nil there, as before.
        let quoted = try write("\"k\",\"s\",\"n\"\n\"1\",\"\",\"5\"\n\"2\",\"x\",\"\"\n", dir, "quoted.csv")
        h.run(#"import("\#(quoted)", { entity = "Q" })"#)
        #expect(h.string(#"Q:first("k == 1").s == nil and Q:first("k == 2").n == nil and Q:first("k == 1").n == 5"#) == "true")
        // Through an export: nil and "" come back apart.
        h.run(
            #"""
            entity "E" { k = "int64", s = "string?", bin = "binary?" }
            E:new{ k = 1, s = "", bin = "" }
            E:new{ k = 2 }
            save()
            export(fetch{ "E", sort = "k" }, "\#(dir.path)/e.csv")
            """#)
        let exported = try String(contentsOfFile: dir.appendingPathComponent("e.csv").path, encoding: .utf8)
        #expect(exported == "bin,k,s\n\"\",1,\"\"\n,2,\n", "\(exported)")
    }

    @Test(arguments: ["csv", "json"]) func bytesExportedAsBase64ComeBackAsTheBytes(_ format: String) throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness()
        h.run(
            #"""
            entity "B" { k = "int64", bin = "binary?" }
            entity "C" { k = "int64", bin = "binary?" }
            B:new{ k = 1, bin = "\0\1\127\128\255\0" }
            B:new{ k = 2, bin = "" }
            B:new{ k = 3 }
            B:new{ k = 4, bin = "plain text?" }
            save()
            export(fetch{ "B", sort = "k" }, "\#(dir.path)/b.\#(format)")
            import("\#(dir.path)/b.\#(format)", { entity = "C" })
            """#)
        for k in 1...4 {
            #expect(h.string(#"B:first("k == \#(k)").bin == C:first("k == \#(k)").bin"#) == "true", "k = \(k)")
        }
        #expect(h.string(#"#C:first("k == 1").bin"#) == "6")
        #expect(h.string(#"C:first("k == 3").bin == nil and C:first("k == 2").bin == """#) == "true")
    }

    @Test func textThatIsNotBase64IsRefusedForABinaryAttribute() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness()
        h.run(#"entity "B" { k = "int64", bin = "binary?" }; save()"#)
        // PostgreSQL's own text of a bytea (`\x` hex, as COPY and psql's \copy write it)
        // is read as its bytes too.
        let hex = try write("k,bin\n1,\\x00ff7F\n2,AAH/\n", dir, "hex.csv")
        h.run(#"import("\#(hex)", { entity = "B" })"#)
        #expect(h.string(#"B:first("k == 1").bin == "\0\255\127" and B:first("k == 2").bin == "\0\1\255""#) == "true")
        let csv = try write("k,bin\n3,AAH/\n4,not base64!\n", dir, "bad.csv")
        let message = h.error(#"import("\#(csv)", { entity = "B" })"#)
        #expect(
            message.contains("bad.csv:3:") && message.contains("'bin' expects binary as base64") && message.contains("\"not base64!\"")
                && !message.contains("\n"), "\(message)")
        let json = try write(#"[{"k": 3, "bin": "AAH/"}, {"k": 4, "bin": "%%"}]"#, dir, "bad.json")
        let jsonMessage = h.error(#"import("\#(json)", { entity = "B" })"#)
        #expect(jsonMessage.contains("element 2") && jsonMessage.contains("'bin' expects binary as base64"), "\(jsonMessage)")
        #expect(h.string(#"count("B")"#) == "2", "nothing of either file imported")
    }
}

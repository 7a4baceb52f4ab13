import Foundation
import QuarryLua
import QuarryStore
import QuarryTestSupport
import Testing

/// Issue 32's "silently dropped": what import, export and the charts ignored or lost.
@Suite struct AnalystDataIOTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-analyst-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func types(_ h: Harness, _ name: String) -> [String] {
        h.context.entities.first { $0.name == name }.map { $0.attributes.map { "\($0.name):\($0.type.rawValue)" } } ?? []
    }

    /// Digits with a leading zero keep it: the column is text, as in DuckDB and VisiData,
    /// also when the first such cell comes after the rows types are first taken from.
    @Test func leadingZerosKeepAColumnText() throws {
        let dir = try folder()
        var csv = "zip,n,x\n"
        for i in 0..<3000 { csv += "\(10000 + i),\(i),\(i).5\n" }
        csv += "02134,0,0.5\n0171,-0,-0.25\n"
        try csv.write(to: dir.appendingPathComponent("z.csv"), atomically: true, encoding: .utf8)
        let h = try Harness()
        h.run(#"assert(import("\#(dir.path)/z.csv", { entity = "Z" }) == 3002)"#)
        #expect(types(h, "Z") == ["zip:string", "n:int64", "x:double"])
        #expect(h.string(#"Z:first("zip == '02134'").zip"#) == "02134")
        #expect(h.string(#"Z:count("zip == '0171'")"#) == "1")
    }

    /// `types = { zip = "string" }` is taken, where it was ignored; a wrong type name, a
    /// column the file lacks, or an entity that exists is refused with one line.
    @Test func importTakesDeclaredTypes() throws {
        let dir = try folder()
        try "zip,n,when\n12345,1,2024-01-01\n67890,2,2024-01-02\n".write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let h = try Harness()
        h.run(#"assert(import("\#(dir.path)/t.csv", { entity = "T", types = { zip = "string", n = "double?", when = "string" } }) == 2)"#)
        #expect(types(h, "T") == ["zip:string", "n:double", "when:string"])
        #expect(h.string("T:get(1).zip") == "12345" && h.string("math.type(T:get(1).n)") == "float")
        let bad = h.error(#"import("\#(dir.path)/t.csv", { entity = "U", types = { zip = "strng" } })"#)
        #expect(bad.contains("import: types: 'zip' must be a type name, got 'strng' (did you mean 'string'?)"), "\(bad)")
        let missing = h.error(#"import("\#(dir.path)/t.csv", { entity = "U", types = { zap = "string" } })"#)
        #expect(missing.contains("types names 'zap', which is not a column of the file (did you mean 'zip'?)"), "\(missing)")
        let exists = h.error(#"import("\#(dir.path)/t.csv", { entity = "T", types = { zip = "int64" } })"#)
        #expect(exists.contains("types apply to a new entity"), "\(exists)")
        #expect(h.string("count('T')") == "2" && h.string("typeof(U)") == "nil")
        // A cell the declared type cannot take is that row's error.
        let cell = h.error(#"import("\#(dir.path)/t.csv", { entity = "V", types = { when = "int64" } })"#)
        #expect(cell.contains("t.csv:2"), "\(cell)")
    }

    /// Options nobody reads are refused with the nearest one, as fetch{} refuses them.
    @Test func unknownOptionsAreRefused() throws {
        let dir = try folder()
        try "a\n1\n".write(to: dir.appendingPathComponent("a.csv"), atomically: true, encoding: .utf8)
        let h = try Harness()
        h.run(#"entity "I" { n = "int64" }; I:new{ n = 1 }; save()"#)
        #expect(
            h.error(#"import("\#(dir.path)/a.csv", { entity = "A", entiy = "B" })"#).contains(
                "import: unknown option 'entiy' (did you mean 'entity'?)"))
        #expect(h.error(#"histogram("I", "n", { bin = 3 })"#).contains("histogram: unknown option 'bin' (did you mean 'bins'?)"))
        #expect(
            h.error(#"export(fetch("I"), "\#(dir.path)/x.csv", { format = "json" })"#).contains(
                "bad argument #3 to 'export' (export takes no options"))
        #expect(
            h.error(#"barchart(sql("SELECT n, n AS m FROM I"), "n", "m", { width = 3 })"#).contains(
                "bad argument #4 to 'barchart' (barchart takes no options)"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.csv").path))
        #expect(h.string("typeof(A)") == "nil" && h.string("typeof(B)") == "nil")
    }

    /// A `.tsv` path is written as TSV (tabs between fields, a field holding a tab quoted),
    /// where CSV went to it.
    @Test func tsvPathsAreWrittenAsTSV() throws {
        let dir = try folder()
        let h = try Harness()
        h.run(#"entity "I" { a = "string", n = "int64" }; I:new{ a = "x\ty", n = 1 }; I:new{ a = "plain, text", n = 2 }; save()"#)
        h.run(#"assert(export(fetch{ "I", sort = "n" }, "\#(dir.path)/out.tsv") == 2)"#)
        h.run(#"assert(export(sql("SELECT a, n FROM I ORDER BY n"), "\#(dir.path)/rows.TSV") == 2)"#)
        let expected = "a\tn\n\"x\ty\"\t1\nplain, text\t2\n"
        #expect(try String(contentsOf: dir.appendingPathComponent("out.tsv"), encoding: .utf8) == expected)
        #expect(try String(contentsOf: dir.appendingPathComponent("rows.TSV"), encoding: .utf8) == expected)
    }
}

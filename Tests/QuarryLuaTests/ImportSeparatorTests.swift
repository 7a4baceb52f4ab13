import Foundation
import QuarryLua
import Testing

/// `import` reads a CSV file whose fields are separated by semicolons, tabs or pipes (a
/// European spreadsheet's export, a GTFS-like dump) as DuckDB's sniffer does: found from
/// the first records when not given, `separator = ";"` when given; a `.tsv` path reads tabs
/// as export writes them. A file the sniffer cannot decide is read as one column, and
/// the import says so naming the option, never silently.
@Suite struct ImportSeparatorTests {
    /// `width(name)`: how many attributes the entity's first object shows
    /// (`Semi/1 {name = "ann", age = 30}`; no value here holds " = ").
    static let width = """
        function width(name)
          return select(2, tostring(fetch(name)[1]):gsub(" = ", ""))
        end
        """

    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-separator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func semicolonsTabsAndPipesAreFoundWithoutBeingTold() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = [
            ("semi.csv", "name;age;city\nann;30;\"Oslo; Norway\"\nbob;41;Bergen\n"),
            ("tabs.csv", "name\tage\tcity\nann\t30\t\"Oslo\tNorway\"\nbob\t41\tBergen\n"),
            ("pipes.txt", "name|age|city\nann|30|\"Oslo| Norway\"\nbob|41|Bergen\n"),
            // Commas win where they split every line alike, semicolons in text or not.
            ("commas.csv", "name,age,city\nann,30,Oslo; Norway\nbob,41,Bergen;x\n")
        ]
        let console = ConsoleAndFailureTests.RecordingConsole()
        let h = try Harness(console: console)
        h.run(Self.width)
        for (i, (name, text)) in files.enumerated() {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
            h.run(
                """
                assert(import("\(dir.path)/\(name)", { entity = "E\(i)" }) == 2)
                local a = E\(i):fetch{ sort = "name" }[1]
                assert(a.name == "ann" and a.age == 30, tostring(a.name))
                assert(width("E\(i)") == 3)
                """)
        }
        #expect(h.string("E0:fetch{ sort = 'name' }[1].city") == "Oslo; Norway")
        #expect(h.string("E1:fetch{ sort = 'name' }[1].city") == "Oslo\tNorway")
        #expect(h.string("E3:fetch{ sort = 'name' }[2].city") == "Bergen;x")
        #expect(console.notes.filter { $0.contains("separator") }.isEmpty, "\(console.notes)")
    }

    @Test func theOptionChoosesAndIsChecked() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "a;b\n1;2\n".write(to: dir.appendingPathComponent("x.dat"), atomically: true, encoding: .utf8)
        let h = try Harness()
        h.run(Self.width)
        h.run(#"assert(import("\#(dir.path)/x.dat", { entity = "X", separator = ";" }) == 1 and X:fetch()[1].b == 2)"#)
        // Told commas, it reads commas: one column, as asked.
        h.run(#"assert(import("\#(dir.path)/x.dat", { entity = "Y", separator = "," }) == 1 and width("Y") == 1)"#)
        let long = h.error(#"import("\#(dir.path)/x.dat", { entity = "Z", separator = ";;" })"#)
        #expect(long.contains(#"import: separator must be one character (";", "\t", "|", ","), got ';;'"#), "\(long)")
        let quote = h.error(#"import("\#(dir.path)/x.dat", { entity = "Z", separator = '"' })"#)
        #expect(quote.contains("separator must be one character"), "\(quote)")
        let number = h.error(#"import("\#(dir.path)/x.dat", { entity = "Z", separator = 9 })"#)
        #expect(number.contains("separator must be one character") && number.contains("got number"), "\(number)")
        try "[{\"a\": 1}]".write(to: dir.appendingPathComponent("j.json"), atomically: true, encoding: .utf8)
        let json = h.error(#"import("\#(dir.path)/j.json", { entity = "J", separator = ";" })"#)
        #expect(json.contains("separator applies to CSV files"), "\(json)")
        #expect(h.string("pcall(count, 'Z') or pcall(count, 'J')") == "false", "a refused import made its entity")
    }

    /// A header with no comma that another separator splits, though not every line alike:
    /// one column, and a note naming the option, never a silent one-column entity.
    @Test func aFileTheSnifferCannotDecideIsSaid() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "a;b\n1;2\n3\n".write(to: dir.appendingPathComponent("ragged.csv"), atomically: true, encoding: .utf8)
        let console = ConsoleAndFailureTests.RecordingConsole()
        let h = try Harness(console: console)
        h.run(Self.width)
        h.run(#"assert(import("\#(dir.path)/ragged.csv", { entity = "R" }) == 2 and width("R") == 1)"#)
        #expect(
            console.notes == [
                #"import ragged.csv: read as one column: the header has no comma, and ";" splits it into 2 fields but record 3 into 1; separator = ";" reads fields so"#
            ], "\(console.notes)")
        // A list of one column under every separator is one column, and nothing is said.
        console.notes = []
        try "word\nalpha\nbeta\n".write(to: dir.appendingPathComponent("words.csv"), atomically: true, encoding: .utf8)
        h.run(#"assert(import("\#(dir.path)/words.csv", { entity = "W" }) == 2)"#)
        #expect(console.notes.isEmpty, "\(console.notes)")
    }

    /// A `.tsv` path reads tabs, so what export writes to one imports back (a text with a
    /// tab or a comma in it too); a CSV export of rows read from a semicolon file still
    /// writes commas.
    @Test func tsvAndExportRoundTrip() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness()
        h.run(
            #"""
            entity "T" { name = "string", n = "int64" }
            T:new{ name = "a\tb, c", n = 1 }; T:new{ name = "plain", n = 2 }; save()
            assert(export(fetch{ "T", sort = "n" }, "\#(dir.path)/t.tsv") == 2)
            assert(import("\#(dir.path)/t.tsv", { entity = "Back" }) == 2)
            local r = Back:fetch{ sort = "n" }
            assert(r[1].name == "a\tb, c" and r[2].n == 2, r[1].name)
            """#)
        try "name;n\nx;1\n".write(to: dir.appendingPathComponent("s.csv"), atomically: true, encoding: .utf8)
        h.run(#"assert(import("\#(dir.path)/s.csv", { entity = "S" }) == 1 and export(fetch("S"), "\#(dir.path)/out.csv") == 1)"#)
        let written = try String(contentsOf: dir.appendingPathComponent("out.csv"), encoding: .utf8)
        #expect(written == "name,n\nx,1\n", "\(written)")
    }
}

import Foundation
import QuarryTestSupport
import Testing

/// Text whose bytes are not UTF-8 (Chrome keeps 32-byte hashes as TEXT) as sqlite3 keeps
/// it (issue 60, item 1): it reaches Lua byte for byte from an object and from `sql()`,
/// finds its row when given back to a predicate (in SQL and in memory), is left as it was
/// by a save of another attribute (bytes and storage class), is written byte for byte
/// when set from Lua, is exported as stored, and is printed escaped, never raw.
@Suite struct TextBytesTests {
    /// X'FF00FE41' (not UTF-8, with a NUL), X'41FE42', and UTF-8 text, all TEXT.
    static let schema = """
        CREATE TABLE t (id INTEGER PRIMARY KEY, h TEXT, n INTEGER);
        INSERT INTO t (h, n) VALUES (CAST(X'FF00FE41' AS TEXT), 1), (CAST(X'41FE42' AS TEXT), 2), ('plain', 3);
        """

    /// The file made by the sqlite3 shell, its values checked TEXT.
    static func file(_ sandbox: Sandbox) async throws -> URL {
        let shell = URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell())
        let made = try await sandbox.run(shell, [sandbox.path("b.db"), schema + "SELECT group_concat(typeof(h)) FROM t;"])
        try #require(made.status == 0 && made.stdout == "text,text,text\n", "\(made)")
        return shell
    }

    /// The stored bytes of every row, as sqlite3 reads them.
    static func stored(_ sandbox: Sandbox, _ shell: URL) async throws -> [String] {
        let rows = try await sandbox.run(shell, [sandbox.path("b.db"), "SELECT hex(h) || '|' || typeof(h) || '|' || n FROM t ORDER BY id"])
        return rows.stdout.split(separator: "\n").map(String.init)
    }

    @Test func textThatIsNotUTF8GoesThroughByteForByte() async throws {
        let sandbox = try Sandbox()
        let shell = try await Self.file(sandbox)
        let script = #"""
            local function bytes(s) return #s .. ":" .. table.concat({ string.byte(s, 1, -1) }, ",") end
            local o = fetch{ "t", predicate = "n == 1" }[1]
            local h = o.h
            print("object", bytes(h))
            print("sql", bytes(sql("SELECT h FROM t WHERE n = 1")[1].h))
            print("sql bound", #sql("SELECT id FROM t WHERE h = ?", h))
            print("fetch", #fetch{ "t", predicate = "h == %@", args = { h } }, count("t", "h == %@", h))
            print("memory", predicate("h == %@", h):matches(o), predicate("h == %@", "\255"):matches(o))
            print("other", bytes(fetch{ "t", predicate = "n == 2" }[1].h), count("t", "h == %@", "A\254B"))
            print("order", fetch{ "t", sort = { "h" } }[1].n, fetch{ "t", sort = { "-h" } }[1].n)
            local sec = fetch{ "t", sort = { "-h" }, section = "h" }[1]
            print("section", bytes(sec.name), bytes(sec.id), #sec)
            o.n = 10
            save()
            local new = t:new{ h = "\195\40", n = 4 }
            save()
            print("new", bytes(new.h), count("t", "h == %@", "\195\40"))
            export(fetch{ "t", sort = { "id" } }, "out.csv")
            export(fetch{ "t", sort = { "id" } }, "out.json")
            """#
        let result = try await sandbox.quarry(["b.db", "-e", script])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                "object\t4:255,0,254,65", "sql\t4:255,0,254,65", "sql bound\t1", "fetch\t1\t1", "memory\ttrue\tfalse",
                "other\t3:65,254,66\t1", "order\t2\t1", "section\t4:255,0,254,65\t4:255,0,254,65\t1", "new\t2:195,40\t1"
            ], "\(result)")
        // The save of `n` left `h` as it was, and the new row's text is TEXT, byte for byte.
        #expect(
            try await Self.stored(sandbox, shell) == ["FF00FE41|text|10", "41FE42|text|2", "706C61696E|text|3", "C328|text|4"],
            "\(result)")
        // CSV carries the stored bytes; JSON, which is UTF-8, carries them as base64 in
        // `{"$bytes": ...}`, so the file is valid JSON and nothing is lost.
        let csv = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("out.csv")))
        #expect(csv.range(of: Data([0xFF, 0x00, 0xFE, 0x41])) != nil, "\(Array(csv))")
        #expect(csv.range(of: Data([0x2C, 0xC3, 0x28, 0x2C])) != nil, "\(Array(csv))")
        #expect(csv.range(of: Data("\u{FFFD}".utf8)) == nil, "\(Array(csv))")
        let json = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("out.json")))
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#"{"$bytes": "Qf5C"}"#) && text.contains(#"{"$bytes": "/wD+QQ=="}"#), "\(text)")
        #expect(text.contains(#""plain""#) && !json.contains(0xFE), "\(text)")
        #expect((try? JSONSerialization.jsonObject(with: json)) != nil, "not valid JSON: \(text)")
    }

    /// Exported to JSON (`{"$bytes": ...}`) or CSV (the bytes as stored) and imported again
    /// into a new file, text that is not UTF-8 comes back byte for byte, as TEXT, beside
    /// the UTF-8 text.
    @Test(arguments: ["json", "csv"])
    func textThatIsNotUTF8MakesTheRoundTrip(format: String) async throws {
        let sandbox = try Sandbox()
        let shell = try await Self.file(sandbox)
        let export = try await sandbox.quarry(["b.db", "-e", #"export(fetch{ "t", sort = { "id" } }, "out.\#(format)")"#])
        try #require(export.status == 0, "\(export)")
        let imported = try await sandbox.quarry(["c.db", "-e", #"import("out.\#(format)", { entity = "t" }) save()"#])
        try #require(imported.status == 0, "\(imported)")
        let rows = try await sandbox.run(shell, [sandbox.path("c.db"), "SELECT hex(h) || '|' || typeof(h) || '|' || n FROM t ORDER BY n"])
        #expect(rows.stdout == "FF00FE41|text|1\n41FE42|text|2\n706C61696E|text|3\n", "\(rows) \(imported)")
    }

    /// `{"$bytes": ...}` imported into a JSON attribute stays the object it is: only a
    /// text attribute takes it as bytes.
    @Test func bytesIntoAJSONAttributeStayAnObject() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("j.json", #"[{"d": {"$bytes": "Qf5C"}, "n": 1}]"#)
        let script = #"entity "J" { d = "json", n = "int64" } import("j.json", { entity = "J" }) print(typeof(J:first().d), J:first().d["$bytes"])"#
        let result = try await sandbox.quarry(["j.db", "-e", script])
        #expect(result.status == 0 && result.lines == ["table\tQf5C"], "\(result)")
    }

    /// Printed, an object, results, `sql()` rows and a summary show the invalid bytes as
    /// `\xFF` escapes: the output is UTF-8, and no raw invalid byte reaches the terminal.
    @Test func textThatIsNotUTF8IsPrintedEscaped() async throws {
        let sandbox = try Sandbox()
        _ = try await Self.file(sandbox)
        let script = #"""
            print(fetch{ "t", predicate = "n == 2" }[1])
            print(fetch{ "t", sort = { "n" } })
            print(sql("SELECT h FROM t ORDER BY n"))
            print(summarize("t"))
            print(tostring(fetch{ "t", predicate = "n == 2" }[1].h) == "A\254B")
            """#
        let out = sandbox.path("printed.txt")
        let result = try await sandbox.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", #""$0" b.db -e "$1" > "$2""#, try QuarryBinary.url().path, script, out])
        #expect(result.status == 0, "\(result)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        let text = String(data: bytes, encoding: .utf8)
        #expect(text != nil, "the output is UTF-8: \(Array(bytes))")
        let printed = text ?? ""
        #expect(!printed.contains("\u{FFFD}"), "\(printed)")
        // The object, the results' row, sql()'s row and the summary's minimum each show the
        // bytes escaped, and the summary's maximum the other value.
        #expect(printed.components(separatedBy: #"A\xFEB"#).count == 5, "\(printed)")
        #expect(printed.components(separatedBy: #"\xFF"#).count == 4 && printed.contains(#"\xFEA"#), "\(printed)")
        #expect(printed.hasSuffix("true\n"), "\(printed)")
    }

    /// A UTF-8 PostgreSQL database cannot hold such text: setting it (an update or a new
    /// object) is refused in one line naming the attribute, and nothing is written.
    @Test func textThatIsNotUTF8IsRefusedByPostgreSQLNamingTheAttribute() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("schema.sql", "CREATE TABLE t (id serial PRIMARY KEY, h text, n integer); INSERT INTO t (h, n) VALUES ('plain', 1);")
        let url = try await PostgresServer.database("textbytes")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        for script in [#"local o = t:first(); o.h = "A\254B"; save()"#, #"t:new{ h = "\255", n = 2 }; save()"#] {
            let result = try await sandbox.quarry([url, "-e", script])
            #expect(result.status != 0, "\(result)")
            let said = result.stderr.split(separator: "\n").filter { $0.contains("t.h") && $0.contains("not UTF-8") }
            #expect(said.count == 1 && said[0].contains("nothing was written"), "\(result)")
            #expect(!result.stderr.contains("Fatal error"), "\(result)")
        }
        let rows = try await sandbox.run(URL(fileURLWithPath: "/usr/bin/psql"), ["-Atc", "SELECT h || '|' || n FROM t ORDER BY id", url], timeout: 60)
        #expect(rows.stdout == "plain|1\n", "\(rows)")
    }

    /// UTF-8 holding a NUL byte is UTF-8: the refusal says the NUL is what a server's text
    /// cannot hold, at a save and as a bound argument (issue 81; it said "not UTF-8").
    @Test func textWithANulByteIsRefusedByPostgreSQLSayingSo() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("schema.sql", "CREATE TABLE t (id serial PRIMARY KEY, h text, n integer); INSERT INTO t (h, n) VALUES ('plain', 1);")
        let url = try await PostgresServer.database("textnul")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        for script in [#"t:new{ h = "a\0b", n = 2 }; save()"#, #"print(sql("SELECT * FROM t WHERE h = ?", "a\0b"))"#] {
            let result = try await sandbox.quarry([url, "-e", script])
            #expect(result.status != 0, "\(result)")
            #expect(result.stderr.contains("NUL byte") && !result.stderr.contains("not UTF-8"), "\(result)")
        }
        let rows = try await sandbox.run(URL(fileURLWithPath: "/usr/bin/psql"), ["-Atc", "SELECT h || '|' || n FROM t ORDER BY id", url], timeout: 60)
        #expect(rows.stdout == "plain|1\n", "\(rows)")
    }
}

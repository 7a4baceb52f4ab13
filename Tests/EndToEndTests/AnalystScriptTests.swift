import Foundation
import Testing

/// Issue 32's "printing in scripts": rows Quarry made print as tables from print() too,
/// `arg` exists under -e, and a batch run that leaves unsaved changes says so once.
@Suite struct AnalystScriptTests {
    /// print(sql(...)), print(summarize(...)) and print() of dictionary results show the
    /// rows as the REPL does, where they printed `table: 0x...`; any other table prints as
    /// Lua's print prints it, and print keeps Lua's tabs and order.
    @Test func printShowsRowsQuarryMade() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "t.lua",
            #"""
            entity "Sale" { country = "string", total = "double" }
            Sale:new{ country = "FR", total = 2 }; Sale:new{ country = "FR", total = 3 }; Sale:new{ country = "DE", total = 7 }
            save()
            print(sql("SELECT country, sum(total) AS revenue FROM Sale GROUP BY country ORDER BY country"))
            print(fetch{ "Sale", result = "dictionaries", properties = { "country", "count(*)" }, group = { "country" }, sort = "country" })
            print(summarize("Sale"))
            print("a", 1, nil, true)
            print({})
            """#)
        let result = try await sandbox.quarry(["store.db", "t.lua"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let lines = result.lines
        #expect(lines.prefix(5) == ["country | revenue", "--------+--------", "DE      |     7.0", "FR      |     5.0", "(2 rows)"], "\(result)")
        #expect(lines.contains("country | count(*)"), "\(result)")
        #expect(lines.contains { $0.hasPrefix("column ") && $0.contains("| distinct |") }, "\(result)")
        #expect(lines.contains("a\t1\tnil\ttrue"), "\(result)")
        #expect(lines.contains { $0.hasPrefix("table: 0x") }, "\(result)")
        #expect(!lines.dropLast().contains { $0.hasPrefix("table: 0x") }, "\(result)")
    }

    /// `arg` is a table under -e, as in lua (arg[0] names the program).
    @Test func argExistsUnderE() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["-e", "print(type(arg), arg[0], #arg)"])
        #expect(result.status == 0 && result.lines == ["table\tquarry\t0"], "\(result)")
    }

    /// A batch run that ends with unsaved changes writes nothing and says so in one note;
    /// one that saved, or failed, says nothing more.
    @Test func unsavedChangesAtTheEndOfABatchRunAreNoted() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry(["store.db", "-e", #"entity "Item" { n = "int64" }; Item:new{ n = 1 }; save()"#])
        #expect(made.status == 0 && made.stderr.isEmpty, "\(made)")
        let left = try await sandbox.quarry(["store.db", "-e", "Item:new{ n = 2 }; Item:new{ n = 3 }; Item:first().n = 9"])
        #expect(left.status == 0, "\(left)")
        #expect(
            left.errorLines == ["note: the run ended with unsaved changes (2 inserted, 1 updated, 0 deleted), not written: call save() to keep them"],
            "\(left)")
        let count = try await sandbox.quarry(["store.db", "-e", "print(count('Item'), Item:first().n)"])
        #expect(count.lines == ["1\t1"] && count.stderr.isEmpty, "\(count)")
        let failed = try await sandbox.quarry(["store.db", "-e", "Item:new{ n = 2 }; error('stop')"])
        #expect(failed.status == 1 && failed.errorLines.count == 1, "\(failed)")
        // os.exit() says the same and exits with its status; without changes it says nothing.
        let exited = try await sandbox.quarry(["store.db", "-e", "Item:new{ n = 4 }; os.exit(3)"])
        #expect(
            exited.status == 3
                && exited.errorLines == [
                    "note: the run ended with unsaved changes (1 inserted, 0 updated, 0 deleted), not written: call save() to keep them"
                ], "\(exited)")
        let clean = try await sandbox.quarry(["store.db", "-e", "print(count('Item')); os.exit(true)"])
        #expect(clean.status == 0 && clean.lines == ["1"] && clean.stderr.isEmpty, "\(clean)")
    }

    /// Dot-commands in a piped script run as the sqlite3 shell runs them: in their place,
    /// between stretches of Lua; a long string holding a dot line stays Lua; an error names
    /// the line of the input; an unknown command ends the run with status 1.
    @Test func dotCommandsRunInPipedScripts() async throws {
        let sandbox = try Sandbox()
        let script = """
            entity "I" { n = "int64" }
            for i = 1, 2 do I:new{ n = i } end
            save()
            .mode csv
            print(fetch{ "I", sort = "n" })
            local s = [[
            .mode box
            ]]
            print(#s)
            .mode json
            print(fetch{ "I", sort = "-n", limit = 1 })
            error("stop here")
            """
        let result = try await sandbox.quarry(["store.db", "-"], stdin: script + "\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.lines.prefix(4) == ["id,n", "I/1,1", "I/2,2", "10"], "\(result)")
        #expect(result.stdout.contains(#""n": 2"#) || result.stdout.contains(#""n":2"#), "\(result)")
        #expect(result.errorLines == ["stdin:12: stop here"], "\(result)")
        let unknown = try await sandbox.quarry(["store.db", "-"], stdin: "print(1)\n.bogus\nprint(2)\n")
        #expect(unknown.status == 1 && unknown.lines == ["1"], "\(unknown)")
        #expect(unknown.errorLines.count == 1 && unknown.stderr.contains("unknown command '.bogus'"), "\(unknown)")
    }

    /// `export(x, "-")` writes CSV to standard output, after what was printed before, where
    /// it made a file named "-".
    @Test func exportToDashIsStandardOutput() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([
            "-e",
            #"entity "I" { n = "int64" }; I:new{ n = 1 }; I:new{ n = 2 }; save(); print("before"); export(fetch{ "I", sort = "n" }, "-"); export(sql("SELECT 7 AS x"), "-"); print("after")"#
        ])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.lines == ["before", "n", "1", "2", "x", "7", "after"], "\(result)")
        #expect(!sandbox.exists("-"))
    }
}

extension AnalystScriptTests {
    /// Piped input with CRLF line endings runs its dot-commands too ("\r\n" is one
    /// Character in Swift, so the text was one line).
    @Test func crlfPipedInputRunsItsDotCommands() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["-"], stdin: "print(\"a\")\r\n.mode csv\r\nprint(sql(\"SELECT 1 AS x\"))\r\n")
        #expect(result.status == 0 && result.lines == ["a", "x", "1"], "\(result)")
    }

    /// `.entities`, `.schema` and `.history` show names from a file escaped, and `.schema`
    /// writes keys Lua cannot take bare in brackets, so its output loads again.
    @Test func dotCommandsEscapeNamesFromTheFile() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"),
            [
                sandbox.path("f.db"),
                "CREATE TABLE items (id INTEGER PRIMARY KEY, \"my col\" TEXT, \"end\" INT, \"a\"\"b\" TEXT); CREATE TABLE \"T\u{1B}[2J\nquarry: x\" (id INTEGER PRIMARY KEY, c TEXT)"
            ])
        #expect(made.status == 0, "\(made)")
        let shown = try await sandbox.quarry(["f.db", "-"], stdin: ".entities\n.schema\n")
        #expect(shown.status == 0, "\(shown)")
        #expect(!shown.stdout.unicodeScalars.contains("\u{1B}") && !shown.lines.contains { $0.hasPrefix("quarry:") }, "\(shown)")
        #expect(shown.lines.contains(#"  ["my col"] = "string?","#) && shown.lines.contains(#"  ["end"] = "int64?","#), "\(shown)")
        // The schema, run in an empty store, makes the same entities.
        let schema = shown.stdout.components(separatedBy: "\n").drop { !$0.hasPrefix("entity") }.joined(separator: "\n")
        try sandbox.write("schema.lua", schema + "\nprint(#entities())\n")
        let again = try await sandbox.quarry([":memory:", "schema.lua"])
        #expect(again.status == 0 && again.lines == ["2"], "\(again)")
    }
}

import Foundation
import Testing

/// What a newcomer met on SQLite files nobody here had used (issue 80's leftovers): an
/// export to a suffix Quarry does not write, import's entity named as `.import` names it,
/// a table or column typed wrong in SQL, and an entity's name typed as a global.
@Suite struct UnseenFilesLeftoversTests {
    private func world(_ sandbox: Sandbox) async throws {
        let result = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("world.db"),
                """
                CREATE TABLE director (id INTEGER PRIMARY KEY, name TEXT);
                INSERT INTO director (name) VALUES ('Varda'), ('Ozu');
                CREATE TABLE city (ID INTEGER PRIMARY KEY, Name TEXT, Population INTEGER);
                INSERT INTO city (Name, Population) VALUES ('Kabul', 1780000), ('Oslo', 508726);
                """
            ])
        try #require(result.status == 0, "\(result)")
    }

    /// `export(r, "c.xlsx")` wrote CSV under a name that promises a spreadsheet: now one
    /// line names the formats written and nothing is written; the suffixes it writes work.
    @Test func anExportToASuffixQuarryDoesNotWriteIsRefused() async throws {
        let sandbox = try Sandbox()
        try await world(sandbox)
        for code in [#"export(fetch("director"), "c.xlsx")"#, #"export({ sql = "SELECT * FROM director" }, "c.xlsx")"#] {
            let refused = try await sandbox.quarry(["world.db", "-e", code])
            #expect(refused.status == 1 && refused.errorLines.count == 1, "\(refused)")
            let line = refused.errorLines.first ?? ""
            #expect(line.contains("Quarry does not write .xlsx") && line.contains(".csv, .tsv") && line.contains(".json"), "\(refused)")
            #expect(!sandbox.exists("c.xlsx"), "no file is written")
        }
        let tsv = try await sandbox.quarry(["world.db", "-e", #"print(export(fetch{ "director", sort = "id" }, "c.tsv"))"#])
        #expect(tsv.status == 0 && tsv.lines == ["2"], "\(tsv)")
        #expect(try sandbox.read("c.tsv").split(separator: "\n").first == "id\tname")
        // A path without a suffix is CSV, as before (a FIFO, /dev/stdout).
        let bare = try await sandbox.quarry(["world.db", "-e", #"print(export(fetch{ "director", sort = "id" }, "plain"))"#])
        #expect(bare.status == 0, "\(bare)")
        #expect(try sandbox.read("plain").hasPrefix("id,name\n"))
    }

    /// `import("nl.csv", "nl_city")` names the entity as `.import nl.csv nl_city` does; the
    /// options table still works, after the name too, and two different names are refused.
    @Test func importTakesTheEntityNameAsItsSecondArgument() async throws {
        let sandbox = try Sandbox()
        try await world(sandbox)
        try sandbox.write("nl.csv", "Name,Population\nAmsterdam,731200\nUtrecht,234323\n")
        let named = try await sandbox.quarry([
            "world.db", "-e", #"print(import("nl.csv", "nl_city")); print(count("nl_city", "Population > 500000"))"#
        ])
        #expect(named.status == 0 && named.lines == ["2", "1"], "\(named)")
        let withOptions = try await sandbox.quarry([
            "world.db", "-e", #"print(import("nl.csv", "nl_town", { types = { Population = "string" } })); print(count("nl_town"))"#
        ])
        #expect(withOptions.status == 0 && withOptions.lines == ["2", "2"], "\(withOptions)")
        let table = try await sandbox.quarry(["world.db", "-e", #"print(import("nl.csv", { entity = "nl_place" }))"#])
        #expect(table.status == 0 && table.lines == ["2"], "\(table)")
        let both = try await sandbox.quarry(["world.db", "-e", #"import("nl.csv", "a", { entity = "b" })"#])
        #expect(both.status == 1 && both.stderr.contains("bad argument #3 to 'import'") && both.stderr.contains(#"("a")"#), "\(both)")
    }

    /// `select * from directors` (the table is `director`) says which table was meant, at
    /// the prompt and through `sql()`; a column typed wrong too, its qualifier kept.
    @Test func aTableOrColumnTypedWrongInSQLGetsTheNameMeant() async throws {
        let sandbox = try Sandbox()
        try await world(sandbox)
        let table = try await sandbox.quarry(["world.db", "-e", #"sql("select * from directors")"#])
        #expect(table.status == 1 && table.stderr.contains("no such table: directors (did you mean 'director'?)"), "\(table)")
        let column = try await sandbox.quarry(["world.db", "-e", #"sql("select c.Nmae from city c")"#])
        #expect(column.status == 1 && column.stderr.contains("no such column: c.Nmae (did you mean 'c.Name'?)"), "\(column)")
        // Nothing near: SQLite's words alone.
        let far = try await sandbox.quarry(["world.db", "-e", #"sql("select * from planets")"#])
        #expect(far.status == 1 && far.stderr.contains("no such table: planets") && !far.stderr.contains("did you mean"), "\(far)")

        let repl = try await TmuxSession(sandbox, arguments: ["world.db"], columns: 160)
        try await repl.waitForPrompt()
        let typed = try await repl.enter("select * from directors")
        #expect(typed.contains { $0.contains("no such table: directors (did you mean 'director'?)") }, "\(typed)")
    }

    /// `fetch(citty)`: Lua passes nil and keeps no name, so the line the call was written
    /// on names the global, and the entity meant is suggested (a script's line too); a
    /// local of that name, or a name near no entity, keeps the plain message.
    @Test func anEntityNameTypedAsAnUnsetGlobalGetsTheEntityMeant() async throws {
        let sandbox = try Sandbox()
        try await world(sandbox)
        let chunk = try await sandbox.quarry(["world.db", "-e", "print(#fetch(citty))"])
        #expect(
            chunk.status == 1
                && chunk.stderr.contains(
                    "bad argument #1 to 'fetch' (string expected, got nil: the global 'citty' is not set) (did you mean 'city'?)"),
            "\(chunk)")
        try sandbox.write("t.lua", "local n = 0\nn = count(citty, \"Population > 1\")\n")
        let script = try await sandbox.quarry(["world.db", "t.lua"])
        #expect(script.status == 1 && script.stderr.contains("t.lua:2:") && script.stderr.contains("(did you mean 'city'?)"), "\(script)")
        let local = try await sandbox.quarry(["world.db", "-e", "local citty; fetch(citty)"])
        #expect(local.status == 1 && !local.stderr.contains("did you mean") && local.stderr.contains("got nil"), "\(local)")

        let repl = try await TmuxSession(sandbox, arguments: ["world.db"], columns: 160)
        try await repl.waitForPrompt()
        let typed = try await repl.enter("fetch(citty)")
        #expect(typed.contains { $0.contains("the global 'citty' is not set") && $0.contains("(did you mean 'city'?)") }, "\(typed)")
    }

    /// `count("country", "GNPOld > 0")` on a SQLite file whose REAL column holds some ''
    /// cells counted them without a word (SQLite orders text after every number): a note
    /// says how many, from the count's own scan, for count, Entity:count, `#r` and a
    /// printed fetch; a comparison text cannot satisfy, or a column without text, says
    /// nothing.
    @Test func aCountThatTakesInTextCellsOfANumberColumnSaysSo() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("c.db"),
                """
                CREATE TABLE country (Code TEXT PRIMARY KEY, GNP REAL, GNPOld REAL);
                INSERT INTO country VALUES ('A', 1, 5), ('B', 2, ''), ('C', 3, ''), ('D', 4, NULL), ('E', 5, -1);
                """
            ])
        try #require(made.status == 0, "\(made)")
        for code in [
            #"print(count("country", "GNPOld > 0"))"#, #"print(country:count("0 < GNPOld"))"#, #"print(#fetch("country", "GNPOld > 0"))"#
        ] {
            let counted = try await sandbox.quarry(["c.db", "-e", code])
            #expect(counted.status == 0 && counted.lines == ["3"], "\(code): \(counted)")
            #expect(counted.errorLines.count == 1, "\(code): \(counted)")
            #expect(
                counted.errorLines.first?.contains("text, not a number: 2 in country.GNPOld") == true
                    && counted.stderr.contains("SQLite orders text after every number"), "\(code): \(counted)")
        }
        let printed = try await sandbox.quarry(["c.db", "-e", #"print(fetch("country", "GNPOld > 0"))"#])
        #expect(printed.stdout.contains("(3 objects)") && printed.errorLines.count == 1, "\(printed)")
        for code in [#"print(count("country", "GNPOld < 10"))"#, #"print(count("country", "GNP > 0"))"#] {
            let quiet = try await sandbox.quarry(["c.db", "-e", code])
            #expect(quiet.status == 0 && quiet.errorLines.isEmpty, "\(code): \(quiet)")
        }
    }

    /// `relate()` is a declaration kept at once, as `entity()` is (a file Quarry did not
    /// make keeps it in its sidecar): `rollback()` leaves it, and its help says so, where
    /// a newcomer looked for an undo.
    @Test func relateIsKeptAtOnceAndItsHelpSaysRollbackLeavesIt() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("r.db"),
                """
                CREATE TABLE airline (carrier TEXT PRIMARY KEY, name TEXT); CREATE TABLE flight (id INTEGER PRIMARY KEY, carrier TEXT);
                INSERT INTO airline VALUES ('AA', 'American'); INSERT INTO flight (carrier) VALUES ('AA');
                """
            ])
        try #require(made.status == 0, "\(made)")
        let related = try await sandbox.quarry([
            "r.db", "-e",
            #"relate("flight", "carrier", "airline", "carrier"); print(haschanges()); rollback(); print(fetch("flight")[1].airline.name)"#
        ])
        #expect(related.status == 0 && related.lines == ["false", "American"], "\(related)")
        let help = try await sandbox.quarry(["r.db", "-e", #"help("relate")"#])
        #expect(help.stdout.replacingOccurrences(of: "\n  ", with: " ").contains("rollback() does not take it back"), "\(help)")
    }

    /// `avg`, `sum` and `max` of a SQLite file's INTEGER column that holds some text cells
    /// (pokedex's `Total` holds "487\n487"), and a sort by it, took them in without a word
    /// (SQLite reads text as its numeric prefix in sum and avg, orders it after every
    /// number in max and a sort): a note says how many, and the values stay SQLite's; an
    /// aggregate or sort of a column without text, or a window the text cells are not in,
    /// says nothing.
    @Test func aggregatesAndSortsThatTakeInTextCellsOfANumberColumnSaySo() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("p.db"),
                """
                CREATE TABLE stats (Name TEXT PRIMARY KEY, HP INTEGER, Total INTEGER);
                INSERT INTO stats VALUES ('a', 10, 100), ('b', 20, 600), ('c', 30, '487' || char(10) || '487'), ('d', 40, 300);
                """
            ])
        try #require(made.status == 0, "\(made)")
        let aggregated = try await sandbox.quarry([
            "p.db", "-e", #"local r = fetch{ "stats", properties = { "avg(HP)", "sum(Total)", "max(Total)" } }; print(r[1]["sum(Total)"])"#
        ])
        #expect(aggregated.status == 0 && aggregated.lines.first?.hasPrefix("1487") == true, "\(aggregated)")
        #expect(aggregated.errorLines.count == 1, "\(aggregated)")
        #expect(
            aggregated.errorLines.first?.contains("text, not a number: 1 in stats.Total") == true
                && aggregated.stderr.contains("sum reads each as the number it starts with")
                && aggregated.stderr.contains("max orders text after every number"),
            "\(aggregated)")
        let grouped = try await sandbox.quarry([
            "p.db", "-e", #"print(#fetch{ "stats", properties = { "Name", "max(Total)" }, group = { "Name" } })"#
        ])
        #expect(grouped.status == 0 && grouped.lines == ["4"] && grouped.errorLines.count == 1, "\(grouped)")
        let sorted = try await sandbox.quarry(["p.db", "-e", #"print(fetch{ "stats", sort = "-Total", limit = 2 })"#])
        #expect(sorted.status == 0 && sorted.errorLines.count == 1, "\(sorted)")
        #expect(
            sorted.errorLines.first?.contains("rows sorted whose cell holds text, not a number: 1 in stats.Total") == true
                && sorted.stderr.contains("first when descending"), "\(sorted)")
        for code in [
            #"print(#fetch{ "stats", properties = { "avg(HP)", "max(HP)", "count(Total)" } })"#,
            #"print(fetch{ "stats", sort = "Total", limit = 2 })"#, #"print(fetch{ "stats", sort = "-HP" })"#
        ] {
            let quiet = try await sandbox.quarry(["p.db", "-e", code])
            #expect(quiet.status == 0 && quiet.errorLines.isEmpty, "\(code): \(quiet)")
        }
    }
}

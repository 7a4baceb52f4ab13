import Foundation
import Testing

/// The REPL on a real terminal (tmux), typed into as a person would.
// Serialized: many tmux servers at once on two cores made the harness time out.
@Suite(.serialized) struct REPLTests {
    /// A sandbox whose `store.db` holds three saved items (and, with `tags`, an entity Tag).
    func storeWithItems(tags: Bool = false) async throws -> Sandbox {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([
            "store.db", "-e",
            itemSchema + """

                Item:new{ title = "a", n = 5 }
                Item:new{ title = "bb", n = 12 }
                Item:new{ title = "ccc", n = 7 }
                \(tags ? #"entity "Tag" { name = "string" }"# : "")
                save()
                """
        ])
        #expect(result.status == 0, "\(result)")
        return sandbox
    }

    @Test func expressionsArePrintedAndStatementsAreNot() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox)
        try await repl.waitForPrompt()
        #expect(try await repl.enter("1 + 1") == ["2"])
        #expect(try await repl.enter("x = 20") == [])
        #expect(try await repl.enter("x * 2 + 2") == ["42"])
        #expect(try await repl.enter(#""con" .. "cat""#) == ["concat"])
        #expect(try await repl.enter("print('printed')") == ["printed"])
        #expect(try await repl.enter("local y = 3") == [])
        #expect(try await repl.enter("nil") == ["nil"])
    }

    @Test func incompleteChunksContinueWithTheSecondPrompt() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox)
        try await repl.waitForPrompt()
        #expect(try await repl.enter("for i = 1, 3 do", then: ">>") == [])
        #expect(try await repl.enter("print(i * 10)", then: ">>") == [])
        #expect(try await repl.enter("end") == ["10", "20", "30"])
        #expect(try await repl.enter("(1 +", then: ">>") == [])
        #expect(try await repl.enter("2)") == ["3"])
        #expect(try await repl.enter("function f(a)", then: ">>") == [])
        #expect(try await repl.enter("return a * a end") == [])
        #expect(try await repl.enter("f(9)") == ["81"])
    }

    /// At the prompt an object prints as a one-row table (the contract); tostring and
    /// print keep the compact one-line form.
    @Test func objectsPrintWithTheirIDAndAttributes() async throws {
        let sandbox = try await storeWithItems()
        let repl = try await TmuxSession(sandbox, arguments: ["store.db"])
        try await repl.waitForPrompt()
        try expectTable(try await repl.enter("Item:get(1)"), ids: ["Item/1"], columns: ["n": ["5"], "title": ["a"], "when": ["nil"]], footer: false)
        try expectTable(
            try await repl.enter("Item:first('n > 10')"), ids: ["Item/2"], columns: ["n": ["12"], "title": ["bb"], "when": ["nil"]], footer: false)
        #expect(try await repl.enter("print(Item:get(1))") == [#"Item/1 {n = 5, title = "a", when = nil}"#])
        #expect(try await repl.enter("tostring(Item:new{ title = 'new', n = 1 })") == [#"Item/t1 {n = 1, title = "new", when = nil}"#])
    }

    @Test func resultsPrintAsAnAlignedTable() async throws {
        let sandbox = try await storeWithItems()
        let repl = try await TmuxSession(sandbox, arguments: ["store.db"])
        try await repl.waitForPrompt()
        let output = try await repl.enter(#"fetch{ "Item", sort = { "n" } }"#)
        try expectTable(
            output, ids: ["Item/1", "Item/3", "Item/2"],
            columns: [
                "n": ["5", "7", "12"], "title": ["a", "ccc", "bb"], "when": ["nil", "nil", "nil"]
            ])
        let filtered = try await repl.enter(#"fetch("Item", "n > %@", 6)"#)
        #expect(filtered.last == "(2 objects)", "\(filtered)")
        let none = try await repl.enter(#"fetch("Item", "n > %@", 100)"#)
        try expectTable(none, ids: [], columns: ["n": [], "title": [], "when": []])
    }

    /// Strings print escaped, as Lua literals, so a tab or newline in a value can neither
    /// break an object's one-line form nor a table's alignment.
    @Test func controlCharactersInValuesAreEscaped() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "store.db", "-e",
            itemSchema + """

                Item:new{ title = "two\\nlines", n = 1 }
                Item:new{ title = "tab\\there", n = 2 }
                save()
                """
        ])
        #expect(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["store.db"])
        try await repl.waitForPrompt()
        #expect(try await repl.enter("print(Item:get(1))") == [#"Item/1 {n = 1, title = "two\nlines", when = nil}"#])
        #expect(try await repl.enter("print(Item:get(2))") == [#"Item/2 {n = 2, title = "tab\there", when = nil}"#])
        let table = try await repl.enter(#"fetch{ "Item", sort = { "n" } }"#)
        try expectTable(
            table, ids: ["Item/1", "Item/2"],
            columns: [
                "n": ["1", "2"], "title": [#"two\nlines"#, #"tab\there"#], "when": ["nil", "nil"]
            ])
    }

    @Test func errorsPrintAsStdinLineAndTheREPLGoesOn() async throws {
        let sandbox = try await storeWithItems()
        let repl = try await TmuxSession(sandbox, arguments: ["store.db"])
        try await repl.waitForPrompt()
        #expect(try await repl.enter(#"Item:get(1).n = "abc""#) == [#"stdin:1: Item.n expects int64, got string ("abc")"#])
        #expect(try await repl.enter(#"error("boom")"#) == ["stdin:1: boom"])
        #expect(
            try await repl.enter(#"fetch("Item", "titel == 'a'")"#)
                == ["stdin:1: predicate: unknown key path 'titel' on entity Item (did you mean 'title'?) at column 1"])
        // A syntax error in a predicate: the one-line error, then the predicate with a caret.
        #expect(
            try await repl.enter(#"fetch("Item", "title == 'a' AND (n >")"#)
                == [
                    "stdin:1: predicate: expected a key path or a value, found the end of the predicate at column 22",
                    "  title == 'a' AND (n >", "                       ^"
                ])
        #expect(try await repl.enter("if true then", then: ">>") == [])
        #expect(try await repl.enter(#"error("second line")"#, then: ">>") == [])
        #expect(try await repl.enter("end") == ["stdin:2: second line"])
        let syntax = try await repl.enter("x = = 1")
        #expect(syntax.count == 1 && syntax[0].hasPrefix("stdin:1: "), "\(syntax)")
        #expect(try await repl.enter("Item:get(1).n") == ["5"], "the failed assignment changed nothing")
    }

    @Test func ctrlCAtThePromptClearsTheLine() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox)
        let start = try await repl.waitForPrompt()
        try await repl.type("abc def")
        try await repl.waitUntil("the typed text") { $0.last == "> abc def" }
        try await repl.press("C-c")
        let cleared = try await repl.waitForPrompt(after: start.count)
        #expect(cleared[cleared.count - 2] == "> abc def^C", "\(cleared)")
        #expect(try await repl.enter("1 + 1") == ["2"], "the cleared text was neither run nor kept")

        // Ctrl-C also drops an unfinished chunk.
        #expect(try await repl.enter("print(2", then: ">>") == [])
        let before = try await repl.screen()
        try await repl.press("C-c")
        let fresh = try await repl.waitForPrompt(">", after: before.count)
        #expect(fresh[fresh.count - 2] == ">> ^C", "\(fresh)")
        #expect(try await repl.enter("3") == ["3"], "the unfinished 'print(2' was dropped")
    }

    @Test func ctrlCInterruptsARunningStatement() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox)
        try await repl.waitForPrompt()
        #expect(try await repl.enter("x = 41") == [])
        let before = try await repl.screen()
        try await repl.type("while true do end")
        try await repl.press("Enter")
        try await repl.waitUntil("the loop to start") { $0.count == before.count && $0.last == "> while true do end" }
        // Let quarry read the whole line before the interrupt: the terminal discards
        // type-ahead on Ctrl-C.
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(try await repl.screen().last == "> while true do end", "the loop is still running")
        try await repl.press("C-c")
        let after = try await repl.waitForPrompt(after: before.count)
        let report = after[before.count...].joined(separator: "\n")
        #expect(report.contains("interrupted"), "\(report)")
        #expect(try await repl.enter("x + 1") == ["42"], "the state survived the interrupt")
    }

    /// Ctrl-C stops the running statement even when that statement catches errors.
    @Test func ctrlCInterruptsAStatementThatCatchesErrors() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox)
        let before = try await repl.waitForPrompt()
        let loop = "while true do pcall(function() while true do end end) end"
        try await repl.type(loop)
        try await repl.press("Enter")
        try await repl.waitUntil("the loop to start") { $0.count == before.count && $0.last == "> " + loop }
        try await Task.sleep(nanoseconds: 500_000_000)
        try await repl.press("C-c")
        try await repl.waitForPrompt(after: before.count)
        #expect(try await repl.enter("1 + 1") == ["2"])
    }

    @Test func ctrlDQuitsWithStatusZero() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox)
        try await repl.waitForPrompt()
        #expect(try await repl.enter("1") == ["1"])
        try await repl.press("C-d")
        #expect(try await repl.waitForExit() == 0)
        let history = try String(contentsOfFile: sandbox.home.appendingPathComponent(".quarry_history").path, encoding: .utf8)
        #expect(REPLTests.entries(history) == ["1"], "a new ~/.quarry_history holds the line entered")
    }

    @Test func dotQuitQuitsWithStatusZero() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox)
        try await repl.waitForPrompt()
        try await repl.type(".quit")
        try await repl.press("Enter")
        #expect(try await repl.waitForExit() == 0)
        #expect(try sandbox.listing() == [], "no DB given: the store was in memory")
    }

    @Test func dotCommands() async throws {
        let sandbox = try await storeWithItems(tags: true)
        let repl = try await TmuxSession(sandbox, arguments: ["store.db"])
        try await repl.waitForPrompt()

        let help = try await repl.enter(".help")
        for command in [".help", ".entities", ".schema", ".quit"] {
            #expect(help.contains { $0.hasPrefix(command) }, ".help lists \(command): \(help)")
        }

        #expect(try await repl.enter(".entities").sorted() == ["Item", "Tag"])

        let schema = try await repl.enter(".schema").joined(separator: "\n")
        for word in ["Item", "title", "string", "int64", "when", "date", "Tag", "name"] {
            #expect(schema.contains(word), ".schema shows \(word): \(schema)")
        }
        let itemOnly = try await repl.enter(".schema Item").joined(separator: "\n")
        #expect(itemOnly.contains("Item") && !itemOnly.contains("Tag"), "\(itemOnly)")

        let unknown = try await repl.enter(".foo")
        #expect(unknown.count == 1, "\(unknown)")
        #expect(unknown.first?.contains("unknown command '.foo'") == true, "\(unknown)")
        #expect(try await repl.enter("2 * 21") == ["42"], "still running after an unknown command")
    }

    @Test func outputModesImportExportAndChanges() async throws {
        let sandbox = try await storeWithItems(tags: true)
        let csv = sandbox.directory.appendingPathComponent("people.csv")
        try "name,age\nAnn,31\nBob,NA\n".write(to: csv, atomically: true, encoding: .utf8)
        let repl = try await TmuxSession(sandbox, arguments: ["store.db"])
        try await repl.waitForPrompt()
        // The cell read as nil is said, per column.
        #expect(
            try await repl.enter(".import \(csv.path) Person") == [
                "import people.csv: cells read as nil (nulls = { \"\", \"NA\" }): age 1", "2 rows imported into Person"
            ])
        _ = try await repl.enter(".mode csv")
        #expect(try await repl.enter("fetch{ 'Person', sort = 'name' }") == ["id,name,age", "Person/1,Ann,31", "Person/2,Bob,"])
        _ = try await repl.enter(".mode json")
        // NSPredicate's own `== nil` is read as it is; the session's first comparison with
        // nil written as SQL writes it says once how it reads (on stderr).
        #expect(try await repl.enter("=count('Person', 'age == nil')") == ["1"])
        #expect(
            try await repl.enter("fetch{ 'Person', predicate = 'age = NULL' }") == [
                "note: == nil matches missing values here (NSPredicate), unlike SQL's = NULL, which is never true",
                #"[{"id": "Person/2", "name": "Bob", "age": null}]"#
            ])
        _ = try await repl.enter(".mode markdown")
        #expect(try await repl.enter("fetch('Person', 'age > 30')").prefix(3) == ["| id | name | age |", "|---|---|---|", "| Person/1 | Ann | 31 |"])
        let out = sandbox.directory.appendingPathComponent("out.csv")
        #expect(try await repl.enter(".export \(out.path)") == ["wrote 1 object to \(out.path)"])
        #expect(try String(contentsOf: out, encoding: .utf8) == "name,age\nAnn,31\n")
        _ = try await repl.enter("Person:first().age = 32")
        #expect(try await repl.enter(".changes") == ["inserted: none", "updated: Person/1  age: 31 → 32", "deleted: none"])
        let mode = try await repl.enter(".mode tabel")
        #expect(mode.first?.contains("did you mean 'table'") == true, "\(mode)")
    }

    /// Types a line with Tabs in it and returns the echoed (completed) line and its output.
    private func typeWithTabs(_ repl: TmuxSession, _ line: String) async throws -> (echo: String, output: [String]) {
        let before = try await repl.waitUntil("a prompt") { $0.last == ">" }
        try await repl.type(line)
        try await repl.press("Enter")
        let after = try await repl.waitForPrompt(">", after: before.count)
        return (after[before.count - 1], Array(after[before.count..<after.count - 1]))
    }

    @Test func tabCompletesKeysMethodsPredicateKeysAndCommands() async throws {
        let sandbox = try await storeWithItems(tags: true)
        let repl = try await TmuxSession(sandbox, arguments: ["store.db"])
        try await repl.waitForPrompt()
        #expect(try await typeWithTabs(repl, "o = Item:fi\t()").echo == "> o = Item:first()")
        let key = try await typeWithTabs(repl, "o.tit\t")
        #expect(key.echo == "> o.title" && key.output == ["a"], "\(key)")
        let predicate = try await typeWithTabs(repl, "count(\"Item\", \"ti\t == 'x'\")")
        #expect(predicate.echo == "> count(\"Item\", \"title == 'x'\")" && predicate.output == ["0"], "\(predicate)")
        // A unique command completes with a space after it, as a shell's does (`.op` → `.open `).
        let schema = try await typeWithTabs(repl, ".sche\tItem")
        #expect(schema.echo == "> .schema Item" && schema.output.first == #"entity "Item" {"#, "\(schema)")
        let global = try await typeWithTabs(repl, "haschang\t()")
        #expect(global.echo == "> haschanges()" && global.output == ["false"], "\(global)")
    }

    @Test func headersOnceHelpAndWideTables() async throws {
        let sandbox = try await storeWithItems()
        let repl = try await TmuxSession(sandbox, arguments: ["store.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(".headers off")
        let rows = try await repl.enter(#"fetch{ "Item", sort = "n", limit = 1 }"#)
        #expect(rows.first?.hasPrefix("Item/1 ") == true && !rows.contains { $0.contains("title") }, "\(rows)")
        _ = try await repl.enter(".headers on")
        let file = sandbox.directory.appendingPathComponent("once.txt")
        #expect(try await repl.enter(".once \(file.path)").isEmpty)
        #expect(try await repl.enter("count('Item')") == ["written to \(file.path)"], "the result went to the file")
        #expect(try String(contentsOf: file, encoding: .utf8) == "3\n")
        #expect(try await repl.enter("count('Item')") == ["3"], "and only the next one")
        #expect(try await repl.enter(".help mode") == [".mode MODE  print results as table, box, markdown, json, csv or line"])
        // The pane is 120 columns: a table of long values is cut to fit it.
        _ = try await repl.enter(#"Item:new{ title = string.rep("x", 200), n = 1 }"#)
        let wide = try await repl.enter(#"fetch{ "Item", sort = "-title", limit = 1 }"#)
        #expect(wide.allSatisfy { $0.count <= 120 } && wide.contains { $0.contains("…") }, "\(wide)")
    }

    @Test func aSecondCtrlCWithinASecondQuits() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox)
        try await repl.waitForPrompt()
        // Under a loaded machine two key presses can land more than a second apart; then
        // the REPL rightly stays, and the attempt is repeated.
        for attempt in 1...4 {
            try await repl.type("print('spinning \(attempt)') while true do end")
            try await repl.press("Enter")
            _ = try await repl.waitUntil("the loop to start") { $0.contains("spinning \(attempt)") }
            let first = Date()
            try await repl.press("C-c")
            try await repl.press("C-c")
            let quick = Date().timeIntervalSince(first) < 0.8
            if let status = try? await repl.waitForExit(timeout: quick ? 30 : 3) {
                #expect(status == 130)
                return
            }
            // Sent within a second is not read within one: on a loaded machine the REPL
            // may see the two presses further apart, and rightly stays. Try again.
        }
        Issue.record("two Ctrl-C never quit the REPL in 4 attempts (the machine may also have been too slow to deliver them within a second)")
    }

    @Test func dashIRunsTheScriptThenTheREPL() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("setup.lua", "answer = 6 * 7\n")
        let repl = try await TmuxSession(sandbox, arguments: ["-i", "setup.lua"])
        try await repl.waitForPrompt()
        #expect(try await repl.enter("answer") == ["42"])
    }

    @Test func historyIsReadAndAppended() async throws {
        let sandbox = try Sandbox()
        let historyFile = sandbox.home.appendingPathComponent(".quarry_history").path
        try #"print("from last time")"#.appending("\n").write(toFile: historyFile, atomically: true, encoding: .utf8)

        let repl = try await TmuxSession(sandbox)
        let start = try await repl.waitForPrompt()
        try await repl.press("Up")
        try await repl.waitUntil("the recalled line") { $0.last == #"> print("from last time")"# }
        try await repl.press("Enter")
        let recalled = try await repl.waitForPrompt(after: start.count)
        #expect(recalled[start.count] == "from last time", "\(recalled)")
        #expect(try await repl.enter("40 + 2") == ["42"])
        #expect(try await repl.enter("for i = 1, 1 do", then: ">>") == [])
        #expect(try await repl.enter("end") == [])
        try await repl.press("C-d")
        #expect(try await repl.waitForExit() == 0)

        // Each entry has its time on a `#seconds` line before it (a chunk's lines are one entry).
        let lines = REPLTests.entries(try String(contentsOfFile: historyFile, encoding: .utf8))
        #expect(lines.first == #"print("from last time")"#, "the old history is kept: \(lines)")
        let added = Array(lines.dropFirst())
        let expected = [#"print("from last time")"#, "40 + 2", "for i = 1, 1 do", "end"]
        #expect(added.filter(expected.contains) == expected, "each entered line is appended, in order: \(lines)")
    }

    @Test func changesMadeInTheREPLPersistOnlyWhenSaved() async throws {
        let sandbox = try await storeWithItems()
        let repl = try await TmuxSession(sandbox, arguments: ["store.db"])
        try await repl.waitForPrompt()
        #expect(try await repl.enter("Item:count()") == ["3"])
        #expect(try await repl.enter("Item:get(1).title = 'saved'") == [])
        let saved = try await repl.enter("save().updated")
        #expect(saved == ["1"])
        #expect(try await repl.enter("Item:get(2).title = 'not saved'") == [])
        #expect(try await repl.enter("haschanges()") == ["true"])
        // Ctrl-D first says what would be lost; the second quits without it.
        let before = try await repl.screen()
        try await repl.press("C-d")
        let asked = try await repl.waitForPrompt(after: before.count)
        #expect(asked.contains { $0.contains("1 pending change (1 updated) would be lost") }, "\(asked.suffix(3))")
        try await repl.press("C-d")
        #expect(try await repl.waitForExit() == 0)

        let reopened = try await sandbox.quarry(["store.db", "-e", "print(Item:get(1).title, Item:get(2).title)"])
        #expect(reopened.stdout == "saved\tbb\n", "\(reopened)")
    }

    /// A history file's lines without the `#seconds` lines readline writes before each entry.
    static func entries(_ history: String) -> [String] {
        ProcessResult.split(history).filter { line in
            !(line.hasPrefix("#") && line.count > 1 && line.dropFirst().allSatisfy(\.isNumber))
        }
    }

    /// Checks a printed result table: a header naming `id` and each column, one row per
    /// ID (in order), cells as given, every `|` aligned, and a `(N objects)` footer.
    func expectTable(
        _ output: [String], ids: [String], columns: [String: [String]], footer: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let shown = output.joined(separator: "\n")
        let header = try #require(output.first, "a header line", sourceLocation: sourceLocation)
        let names = header.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Set(names) == Set(["id"] + columns.keys), "header: \(shown)", sourceLocation: sourceLocation)
        if footer {
            #expect(output.last == "(\(ids.count) objects)", "footer: \(shown)", sourceLocation: sourceLocation)
        }

        let rows = output.filter { line in ids.contains { line.hasPrefix($0 + " ") } }
        #expect(rows.count == ids.count, "one row per object: \(shown)", sourceLocation: sourceLocation)
        let bars = { (line: String) in line.indices.filter { line[$0] == "|" }.map { line.distance(from: line.startIndex, to: $0) } }
        for (index, row) in rows.enumerated() {
            #expect(bars(row) == bars(header), "aligned with the header: \(shown)", sourceLocation: sourceLocation)
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == names.count, index < ids.count else { continue }
            #expect(cells[names.firstIndex(of: "id")!] == ids[index], "row order: \(shown)", sourceLocation: sourceLocation)
            for (column, values) in columns {
                guard let at = names.firstIndex(of: column) else { continue }
                #expect(cells[at] == values[index], "\(column) of \(ids[index]): \(shown)", sourceLocation: sourceLocation)
            }
        }
    }
}

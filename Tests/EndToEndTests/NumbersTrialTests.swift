import Foundation
import Testing

/// Numbers a newcomer's trial found wrong or silently incomplete: statistics of results
/// with a limit summarised every matching row, a histogram left nil values out without a
/// word, and reads of the saved rows said nothing of unsaved changes.
@Suite struct NumbersTrialTests {
    /// 20 salaries, amounts 1 to 20, titles t0 to t3 in turn; `nils` more with no amount.
    static func salaries(_ sandbox: Sandbox, nils: Int = 0) async throws {
        let made = try await sandbox.quarry([
            "s.db", "-e",
            """
            entity "Salary" { title = "string", amount = "int64?" }
            for i = 1, 20 do Salary:new{ title = "t" .. (i % 4), amount = i } end
            for i = 1, \(nils) do Salary:new{ title = "none" } end
            save()
            """
        ])
        try #require(made.status == 0, "\(made)")
    }

    /// summarize, histogram and barchart of results with a limit (and an offset) read the
    /// rows the results hold, as `#r` counts them; an entity's name reads them all.
    @Test func statisticsOfLimitedResultsReadTheRowsTheResultsHold() async throws {
        let sandbox = try Sandbox()
        try await Self.salaries(sandbox)
        let result = try await sandbox.quarry([
            "s.db", "-e",
            #"""
            local function amount(s) for _, row in ipairs(s) do if row.column == "amount" then return row.count, row.min, row.max end end end
            local function firstline(text) return (text:match("^[^\n]*")) end
            local r = fetch{ "Salary", sort = "-amount", limit = 5 }
            print(#r, amount(summarize(r)))
            print(firstline(histogram(r, "amount", { bins = 2 })))
            print(barchart(r, "title"))
            local page = fetch{ "Salary", sort = "-amount", limit = 5, offset = 2 }
            print(#page, amount(summarize(page)))
            print(firstline(histogram(page, "amount", { bins = 1 })))
            print(amount(summarize(fetch{ "Salary", sort = "amount", offset = 15 })))
            print(amount(summarize("Salary")))
            print(amount(summarize(fetch{ "Salary", predicate = "amount > 10", sort = "title", limit = 3 })))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        try #require(lines.count >= 8, "\(result)")
        #expect(lines[0] == "5\t5\t16\t20", "\(result)")
        #expect(lines[1].hasPrefix("amount: 5 values in "), "\(result)")
        // Amounts 20..16 are titles t0, t3, t2, t1, t0: five objects, t0 twice.
        #expect(lines[2] == "count by title", "\(result)")
        let bars = lines[3...].prefix { !$0.hasPrefix("5\t") }
        let counts = bars.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
        #expect(counts.reduce(0, +) == 5 && counts.contains(2) && bars.count == 4, "\(result)")
        let rest = Array(lines.drop { !$0.hasPrefix("5\t5\t14") })
        #expect(rest.prefix(5) == ["5\t5\t14\t18", "amount: 5 values in 1 bin", "5\t16\t20", "20\t1\t20", "3\t12\t20"], "\(result)")
    }

    /// A histogram says how many nil values it left out, as it says inf and nan.
    @Test func aHistogramSaysTheNilValuesItLeftOut() async throws {
        let sandbox = try Sandbox()
        try await Self.salaries(sandbox, nils: 3)
        let result = try await sandbox.quarry([
            "s.db", "-e",
            #"""
            print(histogram("Salary", "amount", { bins = 2 }))
            print(histogram(fetch("Salary", "title == 'none' OR amount == 1"), "amount"))
            print(histogram(fetch("Salary", "amount != nil"), "amount"))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first == "amount: 20 values in 2 bins", "\(result)")
        #expect(result.lines.contains("3 values are nil, left out"), "\(result)")
        #expect(result.lines.filter { $0.contains("nil, left out") }.count == 2, "one histogram has none: \(result)")
        #expect(result.lines.contains("amount: 1 value in 1 bin"), "\(result)")
    }

    /// At the prompt, summarize and a histogram read the saved rows, and say the unsaved
    /// changes are not in them with the note a grouped fetch gives; after save() nothing.
    @Test func summariesAtThePromptSayUnsavedChangesAreNotInThem() async throws {
        let sandbox = try Sandbox()
        try await Self.salaries(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"], columns: 200)
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"Salary:new{ title = "new", amount = 100 }; r = fetch{ "Salary", sort = "-amount", limit = 3 }"#)
        let note = "note: 1 unsaved change to Salary is not in these rows (save() first)"
        for line in [#"=summarize(r)"#, #"=summarize("Salary")"#, #"=histogram(r, "amount")"#, #"=barchart("Salary", "title")"#] {
            let shown = try await repl.enter(line)
            #expect(shown.filter { $0 == note }.count == 1, "\(line): \(shown)")
        }
        _ = try await repl.enter("save()")
        let saved = try await repl.enter(#"=summarize("Salary")"#)
        #expect(!saved.contains { $0.hasPrefix("note:") }, "\(saved)")
    }

    /// SQL's LIKE typed at the prompt is answered with LIKE[c] (SQLite's LIKE ignores the
    /// case of ASCII letters), its `*` matching itself: the line changes the rows the SQL
    /// would have.
    @Test func anUpdateWithLikeIsAnsweredWithTheRowsSQLiteMatches() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "s.db", "-e",
            #"""
            entity "Salary" { title = "string" }
            for _, t in ipairs({ "Lifeguard", "LIFEGUARD II", "pool lifeguard", "guard", "a*b", "axb" }) do Salary:new{ title = t } end
            save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"], columns: 250)
        try await repl.waitForPrompt()
        let sqlCount = try await repl.enter("SELECT count(*) AS n FROM Salary WHERE title LIKE '%lifeguard%' OR title LIKE 'a*b'")
        #expect(sqlCount.contains { $0.trimmingCharacters(in: .whitespaces) == "4" }, "\(sqlCount)")
        let answer = try await repl.enter("UPDATE Salary SET title = 'X' WHERE title LIKE '%lifeguard%' OR title LIKE 'a*b'")
        let line = #"Salary:updateall("title LIKE[c] '*lifeguard*' OR title LIKE[c] 'a\\\\*b'", {}, { title = "X" })"#
        #expect(answer == ["SQL here only reads; this does it, written at once (rollback() does not undo it): " + line], "\(answer)")
        let updated = try await repl.enter("=" + line)
        #expect(updated.last == "4", "\(updated)")
        #expect(try await repl.enter(#"=count("Salary", "title == 'X'")"#) == ["4"])
        let deleted = try await repl.enter("DELETE FROM Salary WHERE title LIKE 'G%'")
        #expect(
            deleted == [
                #"SQL here only reads; this does it, written at once (rollback() does not undo it): Salary:deleteall("title LIKE[c] 'G*'", {})"#
            ], "\(deleted)")
    }

    /// A CSV file without a header: its first record reads as data (a date and numbers
    /// where the columns below hold them), so it is a row, the columns are column1, …,
    /// and a note says so; `header = true` reads it as names, `header = false` makes a
    /// file's names a row; a file with a header imports as before, without a note.
    @Test func aFileWithoutAHeaderKeepsItsFirstRow() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("pay.csv", "\"Aaron,Patricia G\",1979-10-24,55314.00\nBaker,1980-01-02,61000.50\nCole,1975-05-06,48000\n")
        try sandbox.write("named.csv", "name,born,amount\nBaker,1980-01-02,61000.50\n")
        let result = try await sandbox.quarry([
            "s.db", "-e",
            #"""
            print(import("pay.csv", "Pay"), count("Pay", "column3 > 50000"), Pay:first("column1 BEGINSWITH 'Aaron'").column3)
            print(import("pay.csv", "Named", { header = true }))
            print(import("named.csv", "WithHeader"), WithHeader:first().amount)
            print(import("named.csv", "AsRows", { header = false }), count("AsRows", "column1 == 'name'"))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["3\t2\t55314.0", "2", "1\t61000.5", "2\t1"], "\(result)")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("first row reads as data") }
        #expect(notes.count == 1, "only the file without a header, told nothing: \(result)")
        #expect(notes.first?.contains("field 2, 1979-10-24, is a date") == true, "\(result)")
        #expect(notes.first?.contains("{ header = true }") == true, "\(result)")
        let refused = try await sandbox.quarry(["s.db", "-e", #"import("pay.csv", "Other", { header = "no" })"#])
        #expect(refused.status != 0 && refused.stderr.contains("header"), "\(refused)")
    }
}

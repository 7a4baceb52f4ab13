import Foundation
import Testing

/// A new user's trial on files Quarry did not make (a Discord bot's economy, whose
/// columns hold spaces: `release date`, `game duration`; a Home Assistant recorder): the
/// moments where a figure disagreed with `sqlite3` on the same file, through the real binary.
@Suite struct TrialFourteenTests {
    private func economy(_ sandbox: Sandbox) async throws {
        _ = try await sqlite3Lines(
            sandbox, "economy.db",
            """
            CREATE TABLE econ ("UserID" TEXT, "Balance" INTEGER NOT NULL DEFAULT 0, "LastTextTime" INTEGER NOT NULL DEFAULT 0,
              PRIMARY KEY("UserID"));
            CREATE TABLE songdata ("name" TEXT, "release date" TEXT, "game duration" INTEGER);
            INSERT INTO econ VALUES ('1', 152315, 1785732102.6898456), ('2', 90203, 0), ('3', 3500, 0);
            INSERT INTO songdata VALUES ('a', '2020-12-31', 117), ('b', '2023-02-15', 125), ('c', '2024-01-04', 128);
            """)
    }

    /// SQL quotes a column's name in double quotes; the predicate grammar reads them as
    /// text. `"release date" > '2023-01-01'` compared two strings and counted every row
    /// (3 where sqlite3 counts 2) without a word, `"Balance" > 100000` likewise, and the
    /// name given for `%@` where `%K` was meant did the same. Two constants compare as
    /// Apple's grammar compares them, so the count stays; a note says how the key is written.
    @Test func aQuotedKeyNameSaysHowTheKeyIsWritten() async throws {
        let sandbox = try Sandbox()
        try await economy(sandbox)
        #expect(try await sqlite3Lines(sandbox, "economy.db", #"SELECT count(*) FROM songdata WHERE "release date" > '2023-01-01'"#) == ["2"])
        let spaced = try await sandbox.quarry(["economy.db", "-e", #"print(count("songdata", "\"release date\" > %@", "2023-01-01"))"#])
        #expect(spaced.status == 0 && spaced.stdout == "3\n", "\(spaced)")
        for said in [
            "note: 'release date' is a string constant here, not the key 'release date'", "the same for every row",
            #"the key is written %K with its name among the arguments: "%K > %@", "release date", value"#
        ] {
            #expect(spaced.stderr.contains(said), "\(said): \(spaced)")
        }
        // In any case, as SQLite names columns; a key's name given for %@; said once.
        let plain = try await sandbox.quarry([
            "economy.db", "-e", #"print(count("econ", "\"balance\" > 100000"), count("econ", "\"balance\" > 100000"))"#
        ])
        #expect(plain.stderr.components(separatedBy: "not the key 'Balance'").count == 2, "once: \(plain)")
        #expect(plain.stderr.contains("the key is written without quotes, Balance > ..."), "\(plain)")
        let argument = try await sandbox.quarry(["economy.db", "-e", #"print(count("econ", "%@ > %@", "Balance", 100000))"#])
        #expect(argument.stderr.contains("note: 'Balance' is a string constant here"), "\(argument)")
        // IN and BETWEEN, whose right side is a list of constants.
        let listed = try await sandbox.quarry([
            "economy.db", "-e", #"print(count("econ", "\"UserID\" IN {'1', '2'}"), count("econ", "\"Balance\" BETWEEN {1, 100000}"))"#
        ])
        #expect(listed.stdout == "0\t0\n", "\(listed)")
        for said in ["the key is written without quotes, UserID IN ...", "the key is written without quotes, Balance BETWEEN ..."] {
            #expect(listed.stderr.contains(said), "\(said): \(listed)")
        }
        // Written as the note says, the counts are sqlite3's; a string that names no key,
        // and a key compared with its own name as text, say nothing.
        let fixed = try await sandbox.quarry([
            "economy.db", "-e",
            #"print(count("songdata", "%K > %@", "release date", "2023-01-01"), count("econ", "Balance > 100000"), count("songdata", "name == %@", "name"), count("econ", "'x' == 'x'"))"#
        ])
        #expect(fixed.status == 0 && fixed.stdout == "2\t1\t0\t3\n" && fixed.stderr.isEmpty, "\(fixed)")
    }

    /// `release date.year` in `properties`, on text of ISO days: the key is there, and the
    /// refusal said it was unknown "(did you mean 'release date'?)", the name typed. It now
    /// says what the predicate says of `%K.year`: the `format()` that makes it a date.
    @Test func aPartOfASpacedTextKeyInPropertiesNamesTheFormatThatReadsIt() async throws {
        let sandbox = try Sandbox()
        try await economy(sandbox)
        let grouped =
            #"print(fetch{ "songdata", properties = { "release date.year AS year", "count(*) AS songs" }, "#
            + #"group = { "release date.year" }, sort = "year" })"#
        let refused = try await sandbox.quarry(["economy.db", "-e", grouped])
        #expect(refused.status == 1 && !refused.stderr.contains("unknown key"), "\(refused)")
        #expect(refused.stderr.contains("properties: 'release date' in 'release date.year' is an attribute of songdata"), "\(refused)")
        // Days alone are named as the docs name them, iso-date (their example, 2021-01-01, before).
        #expect(refused.stderr.contains(#"format("songdata", "release date", "iso-date") makes it a date"#), "\(refused)")
        // As the line says, after format(): the years sqlite3 counts.
        let years = try await sqlite3Lines(
            sandbox, "economy.db", #"SELECT substr("release date", 1, 4), count(*) FROM songdata GROUP BY 1 ORDER BY 1"#)
        let formatted = try await sandbox.quarry(["economy.db", "-e", #"format("songdata", "release date", "iso-date")"# + "\n" + grouped])
        #expect(formatted.status == 0, "\(formatted)")
        let rows = formatted.lines.filter { $0.first?.isNumber == true }.map { $0.replacingOccurrences(of: " ", with: "") }
        #expect(rows == years, "\(formatted) against \(years)")
    }

    /// At the prompt, typed as a person types it: the note beside the count.
    @Test func theREPLNotesTheQuotedName() async throws {
        let sandbox = try Sandbox()
        try await economy(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["economy.db"], columns: 160)
        try await repl.waitForPrompt()
        let lines = try await repl.enter(#"count("econ", "\"Balance\" > 100000")"#)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("note: 'Balance' is a string constant here, not the key 'Balance'"), "\(text)")
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces) == "3" }, "the count, as written: \(text)")
    }

    /// The bot keeps Unix times with a fraction in a column declared INTEGER
    /// (`1785732102.6898456`): `print(o)` showed all 17 digits where `print(o.LastTextTime)`,
    /// `=expr` and a table show Lua's `1785732102.6898`. One value, one rendering.
    @Test func anObjectPrintsItsDoublesAsTheirValuesPrint() async throws {
        let sandbox = try Sandbox()
        try await economy(sandbox)
        let result = try await sandbox.quarry([
            "economy.db", "-e", #"local o = econ:get("1"); print(o.LastTextTime); print(o)"#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first == "1785732102.6898", "\(result)")
        #expect(result.lines.last?.hasSuffix("LastTextTime = 1785732102.6898}") == true, "\(result)")
        let repl = try await TmuxSession(sandbox, arguments: ["economy.db"], columns: 160)
        try await repl.waitForPrompt()
        let shown = try await repl.enter(#"print(econ:get("1"))"#).joined(separator: "\n")
        #expect(shown.contains("LastTextTime = 1785732102.6898}") && !shown.contains("6898456"), "\(shown)")
    }

    /// The same habit in a batch request: `econ:deleteall("\"Balance\" > 100000")` is true
    /// of every row (text sorts after numbers), and deleted them all at once, past
    /// `rollback()`, with no question. Where it names every row it asks as a request
    /// without a predicate does; where it names none it asks nothing.
    @Test func aQuotedKeyInABatchRequestAsksWhereItNamesEveryRow() async throws {
        let sandbox = try Sandbox()
        try await economy(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["economy.db"], columns: 160)
        try await repl.waitForPrompt()
        let start = try await repl.screen().count
        try await repl.type(#"=econ:deleteall("\"Balance\" > 100000")"#)
        try await repl.press("Enter")
        try await repl.waitUntil("the question") { $0.count > start && $0.last == "delete all 3 rows of econ? [y/N]" }
        try await repl.type("n")
        try await repl.press("Enter")
        let answered = try await repl.waitForPrompt(">", after: start + 1)
        #expect(answered.contains { $0.hasPrefix("note: 'Balance' is a string constant here") }, "\(answered.suffix(6))")
        #expect(answered.contains { $0.contains("nothing deleted") } && answered[answered.count - 2] == "0", "\(answered.suffix(4))")
        // Why nothing was deleted, for a predicate the person did write.
        #expect(answered.contains { $0.hasPrefix("note: nothing deleted (the key in quotes is a string here") }, "\(answered.suffix(4))")
        // False of every row: nothing to ask, nothing deleted.
        let none = try await repl.enter(#"=econ:deleteall("\"Balance\" < 0")"#)
        #expect(none.last == "0" && !none.contains { $0.contains("[y/N]") }, "\(none)")
        #expect(try await sqlite3Lines(sandbox, "economy.db", "SELECT count(*) FROM econ") == ["3"])
    }
}

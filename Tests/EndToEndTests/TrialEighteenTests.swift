import Foundation
import Testing

/// A new user's trial on OpenFlights as a pandas-written file (`airports`, `airlines`,
/// `routes`; no primary keys, ids named after their tables, airport ids kept as text in
/// `routes`): the moments where an answer was not the one asked for, or a message did not
/// help, through the real binary.
@Suite struct TrialEighteenTests {
    /// As the file has it: rows deleted from the source, so `airline_id` runs ahead of
    /// the rowid (`American Airlines` is id 24 in row 25).
    private func flights(_ sandbox: Sandbox) async throws {
        _ = try await sqlite3Lines(
            sandbox, "openflights.db",
            """
            CREATE TABLE "airlines" ("airline_id" INTEGER, "name" TEXT, "active" TEXT);
            INSERT INTO airlines VALUES (-1, 'Unknown', 'Y'), (23, 'Alaska Island Air', 'N'), (24, 'American Airlines', 'Y');
            CREATE TABLE "airports" ("airport_id" INTEGER, "name" TEXT, "iata" TEXT, "timezone" TEXT);
            INSERT INTO airports VALUES (1, 'Goroka Airport', 'GKA', '10'), (16, 'Keflavik International Airport', 'KEF', '0'), (3, 'Mount Hagen', 'HGU', '\\N');
            CREATE TABLE "routes" ("airline" TEXT, "airline_id" TEXT, "source_airport" TEXT, "source_airport_id" TEXT);
            INSERT INTO routes VALUES ('AA', '24', 'KEF', '16'), ('AA', '24', 'GKA', '1'), ('FI', '\\N', 'KEF', '16');
            INSERT INTO routes VALUES ('FI', '\\N', 'KEF', '16'), ('FI', '\\N', 'KEF', '16'), ('DY', '\\N', 'KEF', '16');
            """)
    }

    /// `airlines:get(24)` read row 24 (Alaska Island Air) where the person meant the
    /// airline whose `airline_id` is 24, without a word: the table's id named after the
    /// table is its `id`, so the note says which row was read and the call that finds it.
    @Test func getOnATableWithoutAKeyNamesItsOwnIdColumn() async throws {
        let sandbox = try Sandbox()
        try await flights(sandbox)
        let result = try await sandbox.quarry([
            "openflights.db", "-e", #"print(airlines:get(3).name); print(airlines:get(23)); print(airports:get(2).name); print(airports:get(1).name)"#
        ])
        #expect(result.status == 0 && result.stdout == "American Airlines\nnil\nKeflavik International Airport\nGoroka Airport\n", "\(result)")
        let notes = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            notes == [
                #"note: airlines declares no primary key, so get(3) reads the row numbered 3 (airlines/3), whose airline_id is 24; no row's airline_id is 3"#,
                #"note: airlines declares no primary key, so get(23) reads the row numbered 23 (airlines/23), which is none; the row whose airline_id is 23 is airlines:first("airline_id == 23")"#,
                #"note: airports declares no primary key, so get(2) reads the row numbered 2 (airports/2), whose airport_id is 16; no row's airport_id is 2"#
            ], "\(result.stderr)")
    }

    /// Deleting an airport that routes name through a `relate()` link was refused in a
    /// line cut in its middle (`by its airpor ... (77 characters left out) ... reign key`),
    /// losing what lets the delete through: the line names three rows, counts the others,
    /// and keeps the remedy whole.
    @Test func aDeniedDeleteKeepsItsRemedyWhole() async throws {
        let sandbox = try Sandbox()
        try await flights(sandbox)
        let result = try await sandbox.quarry([
            "openflights.db", "-e",
            #"""
            relate("routes", "source_airport_id", "airports", "airport_id", "source")
            print(pcall(function() airports:first("iata == 'KEF'"):delete() end))
            """#
        ])
        let line = result.stdout
        #expect(!line.contains("left out"), "\(result)")
        #expect(
            line.contains(
                "'routes' denies it while it holds routes/1, routes/3, routes/4 and 2 more (routes.source_airport_id names it by its "
                    + "airport_id, a link relate() made, which keeps a row others name as a foreign key ON DELETE NO ACTION does; delete those "
                    + "routes objects or change their source_airport_id first)"), "\(result)")
    }

    /// `UPDATE airports SET timezone = timezone + 1` was answered with a loop that fails at
    /// its first row (`airports.timezone expects string, got integer (11)`): the time zone
    /// is text. The loop given now runs, and stores what sqlite3's UPDATE would.
    @Test func theLoopAnUpdateIsAnsweredWithRunsOnText() async throws {
        let sandbox = try Sandbox()
        try await flights(sandbox)
        let answer = try await sandbox.quarry(["openflights.db", "UPDATE airports SET timezone = timezone + 1 WHERE iata != 'HGU'"])
        let said = answer.stderr.components(separatedBy: "this loop does it: ")
        let loop = try #require(said.count == 2 ? said[1].trimmingCharacters(in: .whitespacesAndNewlines) : nil, "\(answer)")
        #expect(loop.hasPrefix("for _, o in ipairs(airports:fetch(") && loop.contains("tostring(o.timezone + 1)"), "\(answer)")
        let run = try await sandbox.quarry(["openflights.db", "-e", loop])
        #expect(run.status == 0, "\(run)")
        let stored = try await sqlite3Lines(sandbox, "openflights.db", "SELECT quote(timezone) FROM airports ORDER BY rowid")
        #expect(stored == ["'11'", "'1'", "'\\N'"], "\(stored)")
    }

    /// `routes.airline_id` keeps the airline's id as text: `airline_id == 24`, as a person
    /// types it in sqlite3 (where TEXT affinity makes it '24'), is refused offering only an
    /// sql() CAST; the refusal also gives the comparison of text that finds them.
    @Test func anIdKeptAsTextComparedWithANumberOffersItsText() async throws {
        let sandbox = try Sandbox()
        try await flights(sandbox)
        let result = try await sandbox.quarry([
            "openflights.db", "-e", #"print(select(2, pcall(count, "routes", "airline_id == 24"))); print(count("routes", "airline_id == '24'"))"#
        ])
        #expect(
            result.lines.first?.contains(
                "a text column compares as text here (airline_id == '24' compares its text); where it holds numbers, sql() reads them as numbers")
                == true,
            "\(result)")
        #expect(result.lines.last == "2", "\(result)")
    }

    /// A census table's `Density_P/Km²`: typed bare, the key ended at the `/` and the
    /// refusal suggested the whole name, which cannot be typed bare either; it says the
    /// form that takes it (%K), and that form answers as sqlite3 does.
    @Test func aKeyWithASlashIsOfferedAsPercentK() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3Lines(
            sandbox, "covid.db",
            #"""
            CREATE TABLE "population_by_country_2020" ("Country" TEXT, "Density_P/Km²" INTEGER);
            INSERT INTO population_by_country_2020 VALUES ('Monaco', 26337), ('Singapore', 8358), ('China', 153);
            """#)
        let result = try await sandbox.quarry([
            "covid.db", "-e",
            #"print(select(2, pcall(count, "population_by_country_2020", "Density_P/Km² > 5000"))); print(count("population_by_country_2020", "%K > 5000", "Density_P/Km²"))"#
        ])
        #expect(
            result.lines.first?.hasSuffix(
                #"(did you mean 'Density_P/Km²'?) at column 1; a key with '/' in its name is written %K with the name among the arguments, as "%K == %@", "Density_P/Km²", value"#
            ) == true, "\(result)")
        #expect(result.lines.last == "2", "\(result)")
    }

    /// `fetch{ "vacinacao", predicate = "UF == %@", "SP" }`, the value listed as
    /// `fetch("vacinacao", "UF == %@", "SP")` takes it, was refused as "the predicate is
    /// given twice": the refusal names the value and where it goes.
    @Test func aValueListedBesidePredicateIsSentToArgs() async throws {
        let sandbox = try Sandbox()
        try await flights(sandbox)
        let result = try await sandbox.quarry([
            "openflights.db", "-e",
            #"print(select(2, pcall(fetch, { "routes", predicate = "airline == %@", "AA" }))); print(#fetch{ "routes", predicate = "airline == %@", args = { "AA" } })"#
        ])
        #expect(
            result.lines.first
                == #"(command line):1: fetch: 'AA' after the entity is read as a predicate, beside predicate =; the predicate's values go in args: predicate = "airline == %@", args = { "AA" }"#,
            "\(result)")
        #expect(result.lines.last == "2", "\(result)")
    }

    /// `routes` typed at a 100-column prompt printed its definition as one line, which the
    /// terminal broke inside names (`destination_airport_id` / `: string?`): it is broken
    /// after a key's comma, continued two spaces in; a script's print keeps one line.
    @Test func anEntityShownAtThePromptBreaksBetweenKeys() async throws {
        let sandbox = try Sandbox()
        try await flights(sandbox)
        _ = try await sqlite3Lines(
            sandbox, "openflights.db",
            """
            CREATE TABLE "wide" ("airline" TEXT, "airline_id" TEXT, "source_airport" TEXT, "source_airport_id" TEXT, "destination_airport" TEXT,
              "destination_airport_id" TEXT, "codeshare" TEXT, "stops" INTEGER, "equipment" TEXT);
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["openflights.db"], columns: 100)
        try await repl.waitForPrompt()
        let shown = try await repl.enter("wide")
        #expect(shown.count == 3 && shown.allSatisfy { $0.count <= 100 }, "\(shown)")
        #expect(shown.first?.hasPrefix("entity wide { airline: string?, airline_id: string?,") == true, "\(shown)")
        #expect(shown.dropLast().allSatisfy { $0.hasSuffix(",") } && shown.last?.hasSuffix("equipment: string? }") == true, "\(shown)")
        #expect(shown.dropFirst().allSatisfy { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }, "\(shown)")
        let script = try await sandbox.quarry(["openflights.db", "-e", "print(wide)"])
        #expect(script.lines.count == 1 && script.lines.first?.hasSuffix("equipment: string? }") == true, "\(script)")
    }
}

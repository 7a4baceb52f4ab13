import Foundation
import Testing

/// Keys named with a space (`Type I`, `Home Town`, columns another program named) in
/// `properties`, `group` and `sort`, as a person writes them there: a key path read whole,
/// through a relationship too (`trainer.Home Town`), counted as sqlite3 counts; and the
/// same name in quotes (`'"Type I"'`), a string constant in the predicate grammar that
/// grouped every row into one group without a word, refused in one line that says how
/// the key is written.
@Suite struct SpacedKeysInPropertiesTests {
    private func pokedex(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("p.db"),
                """
                CREATE TABLE trainer (id INTEGER PRIMARY KEY, "Home Town" TEXT);
                CREATE TABLE pokemon (id INTEGER PRIMARY KEY, Name TEXT, "Type I" TEXT, "Base Total" INTEGER,
                  trainer_id INTEGER REFERENCES trainer(id));
                INSERT INTO trainer VALUES (1, 'Pallet'), (2, 'Cerulean'), (3, 'Viridian');
                INSERT INTO pokemon VALUES (1, 'Bulbasaur', 'Grass', 318, 1), (2, 'Charmander', 'Fire', 309, 1),
                  (3, 'Squirtle', 'Water', 314, 2), (4, 'Oddish', 'Grass', 320, 2), (5, 'Staryu', 'Water', 340, 2),
                  (6, 'Vulpix', 'Fire', 299, 3);
                """
            ])
        try #require(made.status == 0, "\(made)")
    }

    private func sqlite3(_ sandbox: Sandbox, _ sql: String) async throws -> String {
        let result = try await sandbox.run(HostileFileTests.sqlite3, ["-separator", "\t", sandbox.path("p.db"), sql])
        try #require(result.status == 0, "\(result)")
        return result.stdout
    }

    @Test func aKeyPathWithSpacesGroupsSortsAndSelectsAsSqlite3Counts() async throws {
        let sandbox = try Sandbox()
        try await pokedex(sandbox)
        let result = try await sandbox.quarry([
            "p.db", "-e",
            """
            local rows = fetch{ "pokemon", result = "dictionaries", properties = { "trainer.Home Town", "count(*)", "sum(Base Total) AS total" },
              group = { "trainer.Home Town" }, sort = { "-count", "trainer.Home Town" } }
            for _, row in ipairs(rows) do print(row["trainer.Home Town"], row.count, row.total) end
            -- A key path through the relationship in a sort of objects, and among plain properties.
            for _, row in ipairs(fetch{ "pokemon", result = "dictionaries", properties = { "Name", "trainer.Home Town" },
              sort = { "-trainer.Home Town", "Name" } }) do print(row.Name, row["trainer.Home Town"]) end
            print(fetch{ "pokemon", sort = { "trainer.Home Town", "-Base Total" } }[1].Name)
            """
        ])
        #expect(result.status == 0, "\(result)")
        let expected = try await sqlite3(
            sandbox,
            """
            SELECT t."Home Town", count(*), sum(p."Base Total") FROM pokemon p JOIN trainer t ON t.id = p.trainer_id
              GROUP BY t."Home Town" ORDER BY count(*) DESC, t."Home Town";
            SELECT p.Name, t."Home Town" FROM pokemon p JOIN trainer t ON t.id = p.trainer_id ORDER BY t."Home Town" DESC, p.Name;
            SELECT p.Name FROM pokemon p JOIN trainer t ON t.id = p.trainer_id ORDER BY t."Home Town", p."Base Total" DESC LIMIT 1;
            """)
        #expect(result.stdout == expected, "\(result)")
        // Mistyped, it is an unknown key, with the one meant.
        let typo = try await sandbox.quarry([
            "p.db", "-e",
            #"fetch{ "pokemon", result = "dictionaries", properties = { "trainer.Home Twn", "count(*)" }, group = { "trainer.Home Town" } }"#
        ])
        #expect(typo.status == 1, "\(typo)")
        #expect(
            typo.stderr.contains("properties: unknown key 'trainer.Home Twn' on entity pokemon (did you mean 'trainer.Home Town'?)"), "\(typo)")
    }

    @Test func aQuotedKeyIsRefusedSayingHowTheKeyIsWritten() async throws {
        let sandbox = try Sandbox()
        try await pokedex(sandbox)
        // Grouped by the quoted name: one group before, of every row.
        let grouped = try await sandbox.quarry([
            "p.db", "-e", #"print(#fetch{ "pokemon", result = "dictionaries", properties = { "count(*)" }, group = { '"Type I"' } })"#
        ])
        #expect(grouped.status == 1 && grouped.stdout.isEmpty, "\(grouped)")
        let groupLine = grouped.stderr.trimmingCharacters(in: .newlines)
        #expect(!groupLine.contains("\n"), "one line: \(groupLine)")
        for said in [#"group: '"Type I"' is a string constant"#, "one group", #"group = { "Type I" }"#] {
            #expect(groupLine.contains(said), "\(said): \(groupLine)")
        }
        // Selected beside the key, and nearly the key ('type i'): the same refusal, for properties.
        let selected = try await sandbox.quarry([
            "p.db", "-e",
            #"print(#fetch{ "pokemon", result = "dictionaries", properties = { "'type i'", "count(*)" }, group = { "Type I" } })"#
        ])
        #expect(selected.status == 1, "\(selected)")
        for said in [#"properties: ''type i'' is a string constant"#, #"properties = { "Type I" }"#] {
            #expect(selected.stderr.contains(said), "\(said): \(selected)")
        }
        // Any constant as a group is one group: refused, naming a key to group by.
        let constant = try await sandbox.quarry([
            "p.db", "-e", #"print(#fetch{ "pokemon", result = "dictionaries", properties = { "count(*)" }, group = { "'all'" } })"#
        ])
        #expect(constant.status == 1 && constant.stderr.contains("one group"), "\(constant)")
        // A string constant that names no key is a label, as in SQL: kept.
        let label = try await sandbox.quarry([
            "p.db", "-e",
            #"local r = fetch{ "pokemon", result = "dictionaries", properties = { "'pokémon' AS kind", "Type I", "count(*)" }, group = { "Type I" } }"#
                + "\n" + #"print(#r, r[1].kind, r[1]["Type I"], r[1].count)"#
        ])
        #expect(label.status == 0 && label.stdout == "3\tpokémon\tFire\t2\n", "\(label)")
        // The key written as the error says reads the column.
        let fixed = try await sandbox.quarry([
            "p.db", "-e", #"print(#fetch{ "pokemon", result = "dictionaries", properties = { "Type I", "count(*)" }, group = { "Type I" } })"#
        ])
        #expect(fixed.status == 0 && fixed.stdout == "3\n", "\(fixed)")
    }
}

import Foundation
import Testing

/// A number column of a SQLite file Quarry did not make compared with a text (a
/// newcomer's `count("phone_calls", "duration < %@", "sixty")` on fiftyville.db counted
/// every row, as SQLite orders text after every number): refused in one line, as on
/// Quarry's own stores, where the column holds numbers only; compared as SQLite does where
/// it holds text. A text that spells a number is that number, as SQLite's affinity reads
/// what Core Data binds. `p:matches` agrees with SQL.
@Suite struct NumberColumnTextArgumentTests {
    private static let sqlite3 = URL(fileURLWithPath: "/usr/bin/sqlite3")

    @Test func aTextThatSpellsNoNumberIsRefusedUnlessTheColumnHoldsText() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            Self.sqlite3,
            [
                sandbox.path("f.db"),
                """
                CREATE TABLE phone_calls (id INTEGER PRIMARY KEY, caller TEXT, duration INTEGER, rate REAL);
                INSERT INTO phone_calls (caller, duration, rate) VALUES ('a', 30, 0.5), ('b', 70, 1.5), ('c', 120, NULL);
                CREATE TABLE notes (id INTEGER PRIMARY KEY, sfld INTEGER);
                INSERT INTO notes (sfld) VALUES ('apple'), (5), (42);
                """
            ])
        try #require(made.status == 0, "\(made)")
        for (predicate, argument) in [("duration < %@", "sixty"), ("rate > %@", "high"), ("duration IN %@", "{ 30, 'sixty' }")] {
            let shown = argument.hasPrefix("{") ? argument : "\"\(argument)\""
            let refused = try await sandbox.quarry(["f.db", "-e", "print(count(\"phone_calls\", \"\(predicate)\", \(shown)))"])
            #expect(refused.status != 0 && refused.stdout.isEmpty, "\(refused)")
            #expect(refused.errorLines.count == 1, "\(refused)")
            #expect(refused.stderr.contains("cannot be compared with string \"sixty\"") || refused.stderr.contains("string \"high\""), "\(refused)")
            #expect(refused.stderr.contains(predicate.hasPrefix("rate") ? "'rate' is double" : "'duration' is int64"), "\(refused)")
        }
        // A text spelling a number is the number, in SQL and in memory.
        let numeric = try await sandbox.quarry([
            "f.db", "-e",
            """
            local p = predicate("duration < %@", "60")
            local matched = 0
            for _, o in ipairs(fetch("phone_calls")) do if p:matches(o) then matched = matched + 1 end end
            print(count("phone_calls", "duration < %@", "60"), matched, count("phone_calls", "duration == '70'"))
            """
        ])
        #expect(numeric.status == 0 && numeric.stdout == "1\t1\t1\n", "\(numeric)")
        // A column that holds text compares with it as SQLite does (text after every number).
        let mixed = try await sandbox.quarry([
            "f.db", "-e", #"print(count("notes", "sfld == %@", "apple"), count("notes", "sfld < %@", "banana"))"#
        ])
        #expect(mixed.status == 0 && mixed.stdout == "1\t3\n", "\(mixed)")
    }
}

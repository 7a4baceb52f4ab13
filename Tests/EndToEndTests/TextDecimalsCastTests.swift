import Foundation
import Testing

/// A TEXT column of decimals in another program's file, compared with a number: the refusal
/// names the `sql()` that reads the text as numbers, and that SQL counts right. `CAST(... AS
/// INTEGER)` would read `100.5` as 100 and leave it out of `> 100`.
@Suite struct TextDecimalsCastTests {
    @Test func theSuggestedSQLReadsDecimalsAsDecimals() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("mass.db"),
                "CREATE TABLE pokedex_mass (name TEXT, Mass TEXT);"
                    + "INSERT INTO pokedex_mass VALUES ('a', '100.5'), ('b', '99.9'), ('c', '250'), ('d', '100')"
            ])
        try #require(made.status == 0, "\(made)")
        let refused = try await sandbox.quarry(["mass.db", "-e", #"print(select(2, pcall(count, "pokedex_mass", "Mass > 100")))"#])
        let suggested = "sql('SELECT count(*) FROM pokedex_mass WHERE CAST(Mass AS REAL) > 100')"
        #expect(refused.stdout.contains(suggested), "\(refused)")
        // What the line suggests, run as written: 100.5 and 250, not 250 alone.
        let counted = try await sandbox.quarry([
            "mass.db", "-e", "print(sql('SELECT count(*) AS n FROM pokedex_mass WHERE CAST(Mass AS REAL) > 100')[1].n)"
        ])
        #expect(counted.lines == ["2"], "\(counted)")
    }
}

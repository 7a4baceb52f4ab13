import Foundation
import Testing

/// Moments of trial 32 (Sakila, an IMDb sample, a Pokédex with keys holding spaces, CSV
/// imports), each fixed where it met the person: the way forward said in what they can
/// type.
@Suite struct Trial32MomentsTests {
    /// `replace(Dollars, "$", "")` as the sqlite3 shell takes it: SQL's own words, with
    /// what double quotes mean and the form that works.
    @Test func textInDoubleQuotesInSQLIsNamedAsText() throws {
        let h = try Harness()
        h.run(#"entity "Player" { Dollars = "string" }; Player:new{ Dollars = "$6.9" }; save()"#)
        let error = h.error(#"return sql([[SELECT CAST(replace(Dollars, "$", "") AS REAL) AS d FROM Player]])"#)
        #expect(error.contains("no such column: $; text in SQL is in single quotes ('$'): double quotes name a column"), "\(error)")
        #expect(h.string(#"sql([[SELECT CAST(replace(Dollars, '$', '') AS REAL) AS d FROM Player]])[1].d"#) == "6.9")
        // A mistyped column in double quotes still gets the column meant.
        let typo = h.error(#"return sql([[SELECT "Dolars" FROM Player]])"#)
        #expect(typo.contains("Dollars") && !typo.contains("single quotes"), "\(typo)")
    }

    /// A to-many crossed by a key path holding a space: the way forward is `%K`, since the
    /// path itself cannot be typed in the format.
    @Test func crossingAToManyByAKeyWithASpaceNamesK() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Poke" { name = "string", types = { many = "Kind", inverse = "poke" } }
            entity "Kind" { ["Type I"] = "string", poke = { one = "Poke", inverse = "types" } }
            local p = Poke:new{ name = "Dratini" }; Kind:new{ ["Type I"] = "Dragon", poke = p }; save()
            """#)
        let error = h.error(#"return count("Poke", "%K == %@", "types.Type I", "Dragon")"#)
        #expect(error.contains("write ANY %K, ALL %K or NONE %K with 'types.Type I' as its argument"), "\(error)")
        #expect(h.string(#"count("Poke", "ANY %K == %@", "types.Type I", "Dragon")"#) == "1")
    }

    /// A key of three words typed bare (trial 33: `Rank by Total <= 3` was told to write
    /// `"Rank by"`): the whole name, and the operator typed.
    @Test func aBareKeyOfSeveralWordsIsNamedWhole() throws {
        let h = try Harness()
        h.run(#"entity "Medal" { ["Rank by Total"] = "int64" }; Medal:new{ ["Rank by Total"] = 2 }; save()"#)
        let error = h.error(#"return count("Medal", "Rank by Total <= 3")"#)
        #expect(error.contains(#"as "%K <= %@", "Rank by Total", value"#), "\(error)")
        #expect(h.string(#"count("Medal", "%K <= %@", "Rank by Total", 3)"#) == "1")
    }

    /// DuckDB's QUALIFY typed into sql(): SQLite's syntax error, with the form SQLite reads
    /// (trial 33).
    @Test func qualifyIsAnsweredWithTheOuterQuery() throws {
        let h = try Harness()
        h.run(#"entity "S" { g = "string", n = "int64" }; S:new{ g = "a", n = 1 }; S:new{ g = "a", n = 2 }; save()"#)
        let error = h.error(#"return sql("SELECT g, n, rank() OVER (PARTITION BY g ORDER BY n DESC) AS r FROM S QUALIFY r = 1")"#)
        #expect(error.contains("syntax error") && error.contains("QUALIFY is DuckDB's") && error.contains("WHERE r = 1"), "\(error)")
        #expect(
            h.string(#"sql("SELECT * FROM (SELECT g, n, rank() OVER (PARTITION BY g ORDER BY n DESC) AS r FROM S) WHERE r = 1")[1].n"#) == "2")
    }
}

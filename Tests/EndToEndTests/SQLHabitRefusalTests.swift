import Foundation
import Testing

/// A new user's SQL habits and loose ends in requests, each refused in one line that says
/// what works: a grouped property that is neither grouped nor aggregated (SQLite would give
/// an arbitrary row's value), `NOT IN`, `ILIKE` and `IN (...)` in a predicate, `"mag
/// desc"` and `"-mag, place"` as a sort, `order =`, and an argument no placeholder takes.
@Suite struct SQLHabitRefusalTests {
    private func said(_ sandbox: Sandbox, _ setup: String, _ calls: [String]) async throws -> [String] {
        let script =
            setup + "\nlocal function said(f) local _, e = pcall(f); print(tostring(e)) end\n"
            + calls.map { "said(function() return \($0) end)" }.joined(separator: "\n")
        let result = try await sandbox.quarry(["t.db", "-e", script])
        try #require(result.status == 0 && result.lines.count == calls.count, "\(result)")
        return result.lines
    }

    @Test func aGroupedPropertyNeitherGroupedNorAggregatedIsRefused() async throws {
        let sandbox = try Sandbox()
        let setup = #"""
            entity "Season" { name = "string", games = { many = "Game", inverse = "season" } }
            entity "G" { s = "string", h = "string", n = "int64" }
            entity "Game" { n = "int64", season = { one = "Season", inverse = "games" }, gamestates = { many = "State", inverse = "game" } }
            entity "State" { k = "int64", game = { one = "Game", inverse = "gamestates" } }
            G:new{ s = "a", h = "x", n = 1 }; G:new{ s = "a", h = "y", n = 2 }
            local season = Season:new{ name = "2024" }
            for i = 1, 2 do
                local game = Game:new{ n = i, season = season }
                for k = 1, 5 do State:new{ k = k, game = game } end
            end
            save()
            """#
        let lines = try await said(
            sandbox, setup,
            [
                #"fetch{ "G", properties = { "s", "h", "count(*)" }, group = { "s" } }"#,
                #"fetch{ "Game", properties = { "season.name", "gamestates.@count" }, group = { "season.name" } }"#,
                // What the contract keeps: groups, aggregates, an expression of groups, a
                // to-one's key path grouped by the to-one.
                #"#fetch{ "G", properties = { "s", "count(*)", "max(h)", "n * 2" }, group = { "s", "n" } }"#,
                #"#fetch{ "Game", properties = { "season.name", "count(*)" }, group = { "season" } }"#,
                #"fetch{ "Game", properties = { "season.name", "sum(gamestates.@count) AS states" }, group = { "season.name" } }[1].states"#
            ])
        #expect(
            lines[0].contains(
                "properties: 'h' is neither grouped nor an aggregate, so each group holds many values of it; add it to group, or wrap it in an aggregate, as max(h)"
            ), "\(lines[0])")
        #expect(
            lines[1].contains("'gamestates.@count' is neither grouped nor an aggregate") && lines[1].contains("as sum(gamestates.@count)"),
            "\(lines[1])")
        #expect(lines[2] == "2" && lines[3] == "1" && lines[4] == "10", "\(lines)")
    }

    @Test func sqlHabitsInPredicatesAndSortsNameTheFormThatWorks() async throws {
        let sandbox = try Sandbox()
        let setup = #"""
            entity "events" { medal = "string", athlete = "string", mag = "double", place = "string" }
            events:new{ medal = "Gold", athlete = "xa", mag = 7.5, place = "p" }
            events:new{ medal = "Silver", athlete = "Xb", mag = 6, place = "q" }
            save()
            """#
        let lines = try await said(
            sandbox, setup,
            [
                #"count("events", "medal NOT IN {'Gold'}")"#,
                #"count("events", "athlete ILIKE 'x%'")"#,
                #"count("events", "medal in ('Gold','Silver')")"#,
                #"fetch{ "events", sort = "mag desc" }"#,
                #"fetch{ "events", sort = "-mag, place" }"#,
                #"fetch{ "events", order = "mag" }"#,
                #"count("events", "mag > 7", "extra")"#,
                #"count("events", "mag > %@", 7, 8)"#,
                // What the lines name works.
                #"count("events", "NOT (medal IN {'Gold'})") + count("events", "athlete LIKE[c] 'x*'") * 10"#,
                #"fetch{ "events", sort = { "-mag", "place" } }[1].medal"#
            ])
        #expect(lines[0].contains("NOT goes before the comparison, as NSPredicate writes it: NOT (medal IN ...)"), "\(lines[0])")
        #expect(!lines[0].contains("a key with a space"), "\(lines[0])")
        #expect(lines[1].contains("ILIKE is SQL's: write LIKE[c]"), "\(lines[1])")
        #expect(lines[2].contains("a list is written in braces, as IN {'Gold', 'Silver'}"), "\(lines[2])")
        #expect(lines[3].contains(#"'mag desc' is SQL's order"#) && lines[3].contains(#"as sort = "-mag""#), "\(lines[3])")
        #expect(lines[4].contains(#"a sort of several keys is a list, as sort = { "-mag", "place" }"#), "\(lines[4])")
        #expect(lines[5].contains("unknown option 'order'") && lines[5].contains("did you mean 'sort'"), "\(lines[5])")
        #expect(
            lines[6].contains("1 argument given for the predicate, which has no placeholder (%@, %K, %d, %f) for it"), "\(lines[6])")
        #expect(lines[7].contains("2 arguments given for the predicate, which has only 1 placeholder"), "\(lines[7])")
        #expect(lines[8] == "21" && lines[9] == "Gold", "\(lines)")
    }

    /// The rest of a SQL statement written after the condition (`LIMIT`, `ORDER BY`,
    /// `GROUP BY`) and SQL's `WHERE` as an option name each the request option that does
    /// it (trial 21: `state == 'NY' LIMIT 5` was only "unexpected 'LIMIT'", and `where =`
    /// an unknown option with no word of `predicate`).
    @Test func sqlClausesAfterAPredicateAndWhereNameTheOptions() async throws {
        let sandbox = try Sandbox()
        let setup = #"""
            entity "events" { medal = "string", mag = "double" }
            events:new{ medal = "Gold", mag = 7.5 }; events:new{ medal = "Silver", mag = 6 }
            save()
            """#
        let lines = try await said(
            sandbox, setup,
            [
                #"fetch("events", "medal == 'Gold' LIMIT 1")"#,
                #"fetch("events", "mag > 1 order by mag")"#,
                #"count("events", "mag > 1 GROUP BY medal")"#,
                #"fetch{ "events", where = "mag > 7" }"#,
                // What the lines name works.
                #"#fetch{ "events", predicate = "mag > 1", sort = "-mag", limit = 1 } .. fetch{ "events", predicate = "mag > 7" }[1].medal"#
            ])
        #expect(lines[0].contains("unexpected 'LIMIT' after a complete predicate; SQL's LIMIT is no part of a predicate"), "\(lines[0])")
        #expect(lines[0].contains(#"fetch{ "Entity", predicate = "...", limit = 5 }"#), "\(lines[0])")
        #expect(lines[1].contains("SQL's ORDER is no part of a predicate") && lines[1].contains(#"sort = "key" ("-key" descending)"#), "\(lines[1])")
        #expect(lines[2].contains("SQL's GROUP is no part of a predicate") && lines[2].contains(#"group = { "key" }"#), "\(lines[2])")
        #expect(lines[3].contains("unknown option 'where'") && lines[3].contains("did you mean 'predicate'"), "\(lines[3])")
        #expect(lines[4] == "1Gold", "\(lines)")
    }
}

import Foundation
import Testing

@testable import QuarryShell

/// A line Lua refused that reads as SQL (issue 80): a query's first words in any case, a
/// closing semicolon dropped, and each writing statement answered with the Lua for it.
@Suite struct SQLAtPromptTests {
    @Test func queriesAreReadByTheirFirstWordInAnyCase() {
        #expect(SQLAtPrompt.reading("select count(*) from Track") == .query("select count(*) from Track"))
        #expect(SQLAtPrompt.reading("  WITH t AS (SELECT 1) SELECT * FROM t") == .query("WITH t AS (SELECT 1) SELECT * FROM t"))
        #expect(SQLAtPrompt.reading("Values(1)") == .query("Values(1)"))
        #expect(SQLAtPrompt.reading("explain query plan select 1") != nil && SQLAtPrompt.reading("PRAGMA table_info(t)") != nil)
        // A word that only starts like one is not SQL.
        #expect(SQLAtPrompt.reading("selection = 1") == nil && SQLAtPrompt.reading("withdraw()") == nil)
        #expect(SQLAtPrompt.reading("x = 1") == nil)
    }

    /// Queries Lua would parse too (to fail on a nil global `FROM`), run as SQL first;
    /// Lua that starts with the same words stays Lua.
    @Test func queriesLuaWouldAlsoParseAreSQL() {
        for line in [
            #"SELECT * FROM "top_tracks""#, "select * from 'Artist'", "select 'hello'", "VALUES (1, 2)", "values (1)",
            "with t as (select 1) select * from t", "EXPLAIN QUERY PLAN SELECT 1", "pragma table_info(t)"
        ] {
            #expect(SQLAtPrompt.plainQuery(line) == line, "\(line)")
        }
        for line in ["select('#', 1, 2)", "values = { 1, 2 }", "explain(r)", "explain (r)", "with = 1", "selection = 1", "select"] {
            #expect(SQLAtPrompt.plainQuery(line) == nil, "\(line)")
        }
    }

    @Test func aClosingSemicolonIsNoSecondStatementAndQuotesAreKept() {
        #expect(SQLAtPrompt.chunk("SELECT 'a\"b' ;; ") == #"return quarry.sql("SELECT 'a\"b'")"#)
    }

    @Test func everyWritingStatementIsAnsweredWithTheLuaForIt() {
        let expected = [
            "insert into t values (1)": "Entity:new{", "UPDATE t SET a = 1": "updateall", "Delete From t": "deleteall",
            "create table t (a)": #"entity "Name""#, "DROP TABLE t": "deleteall()", "alter table t add b": "migrates",
            "DESCRIBE readings": ".schema NAME", "desc readings": ".schema NAME", "SHOW TABLES": ".tables"
        ]
        for (line, lua) in expected {
            guard case .answer(let text) = SQLAtPrompt.reading(line) else {
                Issue.record("\(line) is not answered")
                continue
            }
            #expect(text.contains(lua) && text.count < 110, "\(line): \(text)")
        }
    }
}

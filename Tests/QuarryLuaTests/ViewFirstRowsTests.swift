import Foundation
import GRDB
import QuarryShell
import QuarryStore
import Testing

/// Reading a view costs what its rows cost (issue 60, item 6): its key is decided from its
/// definition, never by reading it whole, and rows keyed by their places are read as far
/// as the last one asked. A view that never ends answers a limited fetch and `first()`;
/// a long one gives its first rows, the values sqlite3 gives.
@Suite struct ViewFirstRowsTests {
    @Test func aViewThatNeverEndsGivesItsFirstRows() throws {
        let path = try foreignFile(
            "CREATE VIEW endless AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c;")
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(
            h.string(
                #"(function() local e = fetch{ "endless", limit = 3 } return #e .. "," .. e[1].x .. "," .. e[3].x .. "," .. e[3]:objectID() end)()"#)
                == "3,1,3,endless/3")
        #expect(h.string(#"endless:first().x"#) == "1")
        #expect(
            h.string(
                #"(function() local o = fetch{ "endless", limit = 2, offset = 5 } return o[1].x .. "," .. o[2].x .. "," .. endless:get(4).x end)()"#)
                == "6,7,4")
        #expect(
            h.string(
                #"(function() local n = 0 for i, r in ipairs(fetch{ "endless", limit = 1500 }) do if r.x == i then n = n + 1 end end return n end)()"#
            ) == "1500")
    }

    /// 300,000 rows through a view of one table (keyed by its rowid) and through a join
    /// (keyed by place): the first rows, a row by its key, and the count are sqlite3's.
    @Test func aLongViewsFirstRowsAreSQLite3s() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 300000) INSERT INTO t SELECT x * 2, 'v' || x FROM c;
            CREATE VIEW big AS SELECT id, v FROM t;
            CREATE VIEW joined AS SELECT t.id, t.v, u.v AS w FROM t JOIN t u ON u.id = t.id + 2;
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        let firstBig = try sqlAnswer(path, "SELECT id || ':' || v FROM big LIMIT 3")
        #expect(
            h.string(
                #"(function() local r = {} for _, o in ipairs(fetch{ "big", limit = 3 }) do r[#r + 1] = o.id .. ":" .. o.v end return table.concat(r, ",") end)()"#
            ) == firstBig)
        #expect(h.string(#"big:first():objectID() .. "," .. big:get(600000).v"#) == "big/2,v300000")
        let firstPairs = try sqlAnswer(path, "SELECT id || ':' || w FROM joined LIMIT 4")
        #expect(
            h.string(
                #"(function() local r = {} for _, o in ipairs(fetch{ "joined", limit = 4 }) do r[#r + 1] = o.id .. ":" .. o.w end return table.concat(r, ",") end)()"#
            ) == firstPairs)
        #expect(
            h.string(#"joined:first():objectID() .. "," .. joined:get(3).w"#) == "joined/1,"
                + (try sqlAnswer(path, "SELECT w FROM joined LIMIT 1 OFFSET 2")))
        #expect(h.string(#"count("big") .. "," .. count("joined") .. "," .. count("joined", "id > 599990")"#) == "300000,299999,4")
    }
}

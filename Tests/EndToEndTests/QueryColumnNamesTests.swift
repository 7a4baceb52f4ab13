import Foundation
import QuarryTestSupport
import Testing

/// A statement whose columns repeat a name (a join's `id` and `id`) gives each column its
/// own value, under a name of its own made as SQLite names a view's columns (`id`, `id:1`):
/// `sql()`'s rows, their printed table and both exports. Before, the rows were keyed by
/// the bare name, and one value showed under both (a join of Chrome's urls and visits
/// printed a visit's id as the url's).
@Suite struct QueryColumnNamesTests {
    @Test func repeatedColumnNamesKeepEachColumnsValue() async throws {
        let sandbox = try Sandbox()
        let sqlite = try Subprocess.run(
            "/usr/bin/sqlite3",
            [
                sandbox.path("h.db"),
                "CREATE TABLE urls (id INTEGER PRIMARY KEY, url TEXT); CREATE TABLE visits (id INTEGER PRIMARY KEY, url INTEGER);"
                    + "INSERT INTO urls VALUES (5, 'http://a'); INSERT INTO visits VALUES (8, 5);"
                    + "CREATE VIEW joined AS SELECT u.id, u.url, v.id, v.url, 7 AS ID, 9 AS \"id:1\" FROM urls u JOIN visits v ON v.url = u.id;"
            ])
        #expect(sqlite.status == 0, "sqlite3 (scripts/test installs it): \(String(decoding: sqlite.errors, as: UTF8.self))")
        let query = #"SELECT u.id, u.url, v.id, v.url, 7 AS ID, 9 AS "id:1" FROM urls u JOIN visits v ON v.url = u.id"#
        let result = try await sandbox.quarry([
            "h.db", "-e",
            """
            local q = [[\(query)]]
            local r = sql(q)
            print(r[1].id, r[1].url, r[1]["id:1"], r[1]["url:1"], r[1]["ID:2"], r[1]["id:3"])
            print(r)
            export({ sql = q }, "-")
            export(r, "-")
            -- The view SQLite made from the same statement has the same names.
            local names = {}
            for _, c in ipairs(sql("SELECT name FROM pragma_table_info('joined')")) do names[#names + 1] = c.name end
            print(table.concat(names, " "))
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == """
                5\thttp://a\t8\t5\t7\t9
                id | url      | id:1 | url:1 | ID:2 | id:3
                ---+----------+------+-------+------+-----
                 5 | http://a |    8 |     5 |    7 |    9
                (1 row)
                id,url,id:1,url:1,ID:2,id:3
                5,http://a,8,5,7,9
                id,url,id:1,url:1,ID:2,id:3
                5,http://a,8,5,7,9
                id url id:1 url:1 ID:2 id:3

                """, "\(result)")
    }

    /// SQLite's rule to the letter: a `:digits` ending, even a whole name's (`:5`), is
    /// dropped before numbering; many columns of one name are numbered in order.
    @Test func repeatedNamesAreNumberedAsSQLiteNumbersThem() async throws {
        let sandbox = try Sandbox()
        let many = (1...300).map { "\($0) AS x" }.joined(separator: ", ")
        let result = try await sandbox.quarry([
            "-e",
            """
            local function names(q) local t = {} for k in pairs(sql(q)[1]) do t[#t + 1] = k end table.sort(t) return table.concat(t, " ") end
            print(names([[SELECT 1 AS ":5", 2 AS ":5", 3 AS "a:", 4 AS "a:"]]))
            local row = sql([[SELECT \(many)]])[1]
            print(row.x, row["x:1"], row["x:299"])
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == ":1 :5 a: a:1\n1\t2\t300\n", "\(result)")
    }

    /// A table of objects heads the objects' IDs `id`, unless the entity has an `id` of its
    /// own (a foreign table's key column): then `objectID`, so no two columns share a name.
    @Test func anObjectTablesIdColumnNeverSharesAName() async throws {
        let sandbox = try Sandbox()
        let sqlite = try Subprocess.run(
            "/usr/bin/sqlite3",
            [sandbox.path("u.db"), "CREATE TABLE urls (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO urls VALUES (5, 'http://a');"])
        #expect(sqlite.status == 0, "sqlite3 (scripts/test installs it): \(String(decoding: sqlite.errors, as: UTF8.self))")
        let result = try await sandbox.quarry(["u.db", "-e", "print(fetch('urls'))"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("objectID | id | url\n"), "\(result)")
    }
}

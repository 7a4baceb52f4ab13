import Foundation
import GRDB
import QuarryFetch
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryStores
import QuarryTestSupport
import Testing

/// The third hostile review's findings on `sql()`: `fts3_tokenizer` reached native code
/// (a pointer given as a blob, called by the next query on an FTS3 table), and a result
/// of big values was bounded by its rows, not its bytes.
@Suite struct HostileReadOnlySQLTests {
    static let tokenizerAttack = "SELECT fts3_tokenizer('simple', X'4141414141414141')"

    /// One error line from `code`, holding each of `parts`.
    func expectRefused(_ h: Harness, _ code: String, _ parts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let message = h.error(code, sourceLocation: sourceLocation)
        #expect(!message.contains("\n"), "not one line: \(message)", sourceLocation: sourceLocation)
        for part in parts { #expect(message.contains(part), "'\(part)' is missing: \(message)", sourceLocation: sourceLocation) }
    }

    /// Both forms, however written (case, subquery, CTE, a window's argument, a
    /// parameter's value), are refused by name before anything runs, with and without
    /// --safe; so are load_extension and functions that are not SQLite's ordinary ones.
    @Test(arguments: [false, true])
    func functionsOutsideTheAllowListAreRefusedByName(safe: Bool) throws {
        let h = try Harness()
        if safe { try h.runtime.enterSandbox() }
        for code in [
            "sql(\"\(Self.tokenizerAttack)\")",
            "sql(\"SELECT hex(fts3_tokenizer('simple'))\")",
            "sql(\"SELECT FTS3_Tokenizer('porter')\")",
            "sql(\"SELECT * FROM (SELECT fts3_tokenizer(?) AS p)\", 'simple')",
            "sql(\"WITH t(p) AS (SELECT fts3_tokenizer('simple')) SELECT p FROM t\")",
            "sql(\"SELECT 1 WHERE (SELECT length(fts3_tokenizer('simple', ?))) > 0\", 'AAAAAAAA')",
            "sql(\"SELECT max(fts3_tokenizer('simple')) OVER () FROM (SELECT 1)\")"
        ] {
            expectRefused(h, code, ["sql: fts3_tokenizer() is not allowed here", "SQLite's ordinary functions"])
        }
        expectRefused(h, #"sql("SELECT load_extension('/tmp/nothing.so')")"#, ["load_extension() is not allowed"])
        expectRefused(h, #"sql("SELECT sqlite_compileoption_get(0)")"#, ["sqlite_compileoption_get() is not allowed"])
        // GRDB's functions on every connection are not Quarry's contract either.
        expectRefused(h, #"sql("SELECT swiftCapitalizedString('a')")"#, ["swiftcapitalizedstring() is not allowed"])
        #expect(h.string(#"sql("SELECT 1 AS one")[1].one"#) == "1")
    }

    /// The setting itself is off on the connection, so even SQL that does not pass through
    /// `sql()` cannot install a tokenizer (SQLite answers "fts3tokenize disabled").
    @Test func theTokenizerSettingIsOffOnEveryConnection() throws {
        for context in [try StoreOpener.open(nil), try OpenFileRequest.open(path: nil)] {
            #expect { try context.connection.read { db in _ = try Row.fetchOne(db, sql: Self.tokenizerAttack) } } throws: { error in
                "\(error)".contains("fts3tokenize disabled")
            }
        }
    }

    /// What people write keeps working: SQLite's common functions, windows, date and JSON
    /// functions, operators that compile to functions, pragmas, EXPLAIN, and SQL the
    /// predicate layer compiles to (its functions are Quarry's own).
    @Test func ordinaryQueriesStillRun() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string", n = "int64", tags = "string?" }
            for i = 1, 5 do Item:new{ title = "item" .. i, n = i * 10, tags = '{"k":' .. i .. '}' } end
            save()
            """#)
        h.run(
            #"""
            local r = sql([[SELECT date('2024-02-28', '+1 day') AS d, strftime('%Y', '2001-01-01') AS y,
                json_extract('{"a":{"b":3}}', '$.a.b') AS j, '{"x":7}' ->> '$.x' AS arrow,
                printf('%05d|%s', 42, 'x') AS p, upper(substr('quarry', 1, 1)) || lower('UARRY') AS u,
                coalesce(NULL, iif(1, 'yes', 'no')) AS c, abs(-2) + round(1.4) + length('abc') AS m,
                'Quarry' LIKE 'q%' AS l, typeof(CURRENT_TIMESTAMP) AS t]])
            local row = r[1]
            assert(row.d == "2024-02-29", row.d); assert(row.y == "2001"); assert(row.j == 3); assert(row.arrow == 7)
            assert(row.p == "00042|x", row.p); assert(row.u == "Quarry"); assert(row.c == "yes"); assert(row.m == 6)
            assert(row.l == 1); assert(row.t == "text")
            """#)
        h.run(
            #"""
            local r = sql([[SELECT count(*) AS n, group_concat(title, ',') AS titles, sum(n) AS total, avg(n) AS mean,
                max(json_extract(tags, '$.k')) AS k FROM Item WHERE n > ?]], 10)
            assert(r[1].n == 4 and r[1].titles == "item2,item3,item4,item5" and r[1].total == 140 and r[1].mean == 35 and r[1].k == 5)
            local w = sql([[SELECT title, row_number() OVER (ORDER BY n DESC) AS rank, sum(n) OVER (ORDER BY n) AS running,
                lag(n) OVER (ORDER BY n) AS before FROM Item ORDER BY n]])
            assert(#w == 5 and w[1].rank == 5 and w[5].running == 150 and w[2].before == 10 and w[1].before == nil)
            """#)
        #expect(h.string(#"#sql("PRAGMA table_info(Item)")"#) == "4")
        #expect(h.string(#"#sql("EXPLAIN QUERY PLAN SELECT * FROM Item WHERE n > 1")"#) != "0")
        // The predicate layer's own function, as `explain` shows it in compiled SQL.
        #expect(h.string(#"sql("SELECT quarry_fold('ÄB', 3) AS f")[1].f"#) == "ab")
        // Writes are refused as before.
        expectRefused(h, #"sql("DELETE FROM Item")"#, ["would write"])
        expectRefused(h, #"sql("SELECT 1; DELETE FROM Item")"#, ["one statement at a time"])
        #expect(h.string(#"count("Item")"#) == "5")
    }

    /// SQLite binds a string up to its first NUL, so "a\0b" matched the row 'a': `sql()`
    /// and `export{ sql = }` bind the whole string, as `count` compares it.
    @Test func aBoundTextWithANULIsBoundWhole() throws {
        let h = try Harness()
        h.run(#"entity "T" { v = "string" } T:new{ v = "a" } T:new{ v = "b" } save()"#)
        #expect(h.string(#"#sql("SELECT * FROM T WHERE v = ?", "a\0b")"#) == "0")
        #expect(h.string(#"sql("SELECT length(CAST(? AS BLOB)) AS n", "a\0b")[1].n"#) == "3")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nul-\(UUID().uuidString).csv").path
        h.run(#"export({ sql = "SELECT * FROM T WHERE v = ?", args = { "a\0b" } }, "\#(path)")"#)
        let exported = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "no file"
        #expect(exported.split(separator: "\n").count == 1 && exported.contains("v"), "only the header: \(exported)")
        try? FileManager.default.removeItem(atPath: path)
        #expect(h.string(#"#sql("SELECT * FROM T WHERE v = ?", "a")"#) == "1")
    }

    /// The views a Core Data store is read through call functions (Quarry's UUID and
    /// date conversions among them): `sql()` reads every entity of every test store.
    @Test(arguments: CoreDataFixtures.stores.map(\.path))
    func coreDataViewsStillRead(_ store: String) throws {
        let h = try Harness(context: try StoreOpener.open(try CoreDataFixtures.copyOfStore(store)))
        h.run(
            """
            local n = 0
            for _, e in ipairs(entities()) do
              local rows = sql('SELECT * FROM "' .. e.name .. '" LIMIT 5')
              assert(#rows == math.min(5, count(e.name)), e.name)
              n = n + 1
            end
            assert(n > 0)
            """)
    }

    /// A file with an FTS3 table: the attack is refused (through `sql()` and below it),
    /// and after another connection changes the schema (the reload that would call a
    /// planted tokenizer), full-text queries still run.
    @Test func anFTS3TableStillWorksAfterTheAttempt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-fts3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("docs.db").path
        let writer = try DatabaseQueue(path: path)
        try writer.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE docs USING fts3(body, tokenize=simple)")
            try db.execute(sql: "INSERT INTO docs(body) VALUES ('the quick brown fox'), ('a lazy dog'), ('quick thinking')")
        }
        let h = try Harness(context: try StoreOpener.open(path))
        expectRefused(h, "sql(\"\(Self.tokenizerAttack)\")", ["fts3_tokenizer() is not allowed"])
        #expect { try h.context.connection.read { db in _ = try Row.fetchOne(db, sql: Self.tokenizerAttack) } } throws: { error in
            "\(error)".contains("fts3tokenize disabled")
        }
        try writer.write { db in try db.execute(sql: "CREATE TABLE other(x)") }
        #expect(h.string(#"#sql("SELECT body FROM docs WHERE docs MATCH 'quick' ORDER BY body")"#) == "2")
        #expect(h.string(#"sql("SELECT snippet(docs) AS s, offsets(docs) AS o FROM docs WHERE docs MATCH 'lazy'")[1].s"#) == "a <b>lazy</b> dog")
        #expect(h.string(#"sql("SELECT length(matchinfo(docs)) AS m FROM docs WHERE docs MATCH 'fox'")[1].m"#) != "nil")
    }

    /// Under --memory, a result of big values is refused by its bytes while its rows
    /// arrive (it used to be asked about every 4,096 rows, by their count), with one line
    /// naming the limit and what to do; a result that fits still comes back whole.
    @Test func bigValuesAreRefusedByTheirBytes() throws {
        let h = try Harness(memoryLimit: 50 << 20)
        let recursive = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r LIMIT %d) SELECT x, randomblob(200000) AS b FROM r"
        expectRefused(
            h, "sql(\"\(String(format: recursive, 100_000))\")",
            ["t:1: not enough memory", "--memory limit (50 MB)", "add a LIMIT to the query"])
        #expect(h.string("#sql(\"\(String(format: recursive, 100))\")") == "100")
        #expect(h.string(#"sql("SELECT 1 AS one")[1].one"#) == "1")

        // Dictionary results are counted the same way.
        let big = try Harness(context: h.context)
        big.run(#"entity "Doc" { body = "string" }; for i = 1, 80 do Doc:new{ body = string.rep("x", 1e6) .. i } end; save()"#)
        let limited = try Harness(context: h.context, memoryLimit: 50 << 20)
        let message = limited.error(#"local r = fetch{ "Doc", properties = { "body" } }"#)
        #expect(message.contains("not enough memory") && message.contains("give the request a limit") && !message.contains("\n"), "\(message)")
        #expect(limited.string(#"#fetch{ "Doc", properties = { "body" }, limit = 10 }"#) == "10")
    }

    /// A single huge value is asked about before it is copied, with its size.
    @Test func aHugeValueIsAskedAboutBeforeItIsCopied() throws {
        struct Over: Error {}
        let context = try StoreOpener.open(nil)
        var asked: [(rows: Int, bytes: Int)] = []
        #expect(throws: Over.self) {
            _ = try ReadOnlyQuery("SELECT 1 AS a, zeroblob(30000000) AS b, 'xyz' AS c", arguments: []).execute(
                in: context,
                admit: RowAdmission { rows, _, bytes in
                    asked.append((rows, bytes))
                    if bytes > 10_000_000 { throw Over() }
                })
        }
        #expect(asked.count == 1 && asked.first?.rows == 1 && asked.first?.bytes == 30_000_003, "\(asked)")
    }
}

import Foundation
import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// A foreign file's keys act on a parent's delete as SQLite (`foreign_keys=ON`) carries
/// them out, so one save takes what SQLite takes and refuses what it refuses: a RESTRICT
/// key is checked at its turn (the last key declared acts first), before a CASCADE key
/// after it has taken the child away; a NO ACTION key DEFERRABLE INITIALLY DEFERRED is
/// checked at the commit, so the child may go after its parent in the same save.
@Suite struct ForeignDeleteOrderTests {
    /// Runs `statements` in one transaction on a copy of `path` with foreign keys on, and
    /// `lua` through Quarry saved once: both take or both refuse, leaving the same rows.
    private func compare(
        _ path: String, tables: [String], statements: [String], lua: String, expectTook: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        // Each on a copy of its own: every comparison starts from the file as made.
        let (copy, mine) = (path + ".sqlite", path + ".quarry-copy")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: mine)
        defer { for file in [copy, mine] { try? FileManager.default.removeItem(atPath: file) } }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let sqlite = try DatabaseQueue(path: copy, configuration: configuration)
        var sqliteTook = true
        do { try sqlite.write { db in for statement in statements { try db.execute(sql: statement) } } } catch { sqliteTook = false }
        try sqlite.close()
        #expect(sqliteTook == expectTook, "SQLite \(sqliteTook ? "took" : "refused") \(statements)", sourceLocation: sourceLocation)
        let h = try Harness(context: try StoreOpener.open(mine))
        let outcome =
            h.string(
                """
                (function()
                  local ok, err = pcall(function()
                    \(lua)
                    save()
                  end)
                  if not ok then rollback() end
                  return ok and "took" or ("refused: " .. tostring(err))
                end)()
                """) ?? "?"
        #expect((outcome == "took") == sqliteTook, "Quarry: \(outcome)", sourceLocation: sourceLocation)
        func rows(_ file: String) throws -> [String] {
            let queue = try DatabaseQueue(path: file)
            defer { try? queue.close() }
            return try queue.read { db in
                try tables.flatMap { t in try Row.fetchAll(db, sql: "SELECT rowid, * FROM \(t) ORDER BY rowid").map { "\(t): \($0)" } }
            }
        }
        #expect(try rows(mine) == rows(copy), sourceLocation: sourceLocation)
    }

    /// Seed 219's shape: a child with a CASCADE key and a RESTRICT key to one parent. (A
    /// column of its own keeps it a child: two keys and nothing else would make it a join
    /// table, whose links go with either end whatever its keys say.)
    @Test func aRestrictKeyDeclaredAfterACascadeKeyRefusesTheParentsDelete() throws {
        let path = try foreignFile(
            """
            CREATE TABLE p (id INTEGER PRIMARY KEY, label TEXT);
            CREATE TABLE cascadeFirst (id INTEGER PRIMARY KEY, a INTEGER REFERENCES p ON DELETE CASCADE, b INTEGER REFERENCES p ON DELETE RESTRICT, note TEXT);
            CREATE TABLE restrictFirst (id INTEGER PRIMARY KEY, b INTEGER REFERENCES p ON DELETE RESTRICT, a INTEGER REFERENCES p ON DELETE CASCADE, note TEXT);
            INSERT INTO p VALUES (1, 'x'), (2, 'y'), (3, 'z');
            INSERT INTO cascadeFirst VALUES (1, 1, 1, NULL), (2, 3, 3, NULL);
            INSERT INTO restrictFirst VALUES (1, 2, 2, NULL), (2, 3, 3, NULL);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tables = ["p", "cascadeFirst", "restrictFirst"]
        // The RESTRICT key acts first: the child is still there.
        try compare(path, tables: tables, statements: ["DELETE FROM p WHERE id = 1"], lua: "p:get(1):delete()", expectTook: false)
        // The CASCADE key acts first: the child is gone when the RESTRICT key is checked.
        try compare(path, tables: tables, statements: ["DELETE FROM p WHERE id = 2"], lua: "p:get(2):delete()", expectTook: true)
        // Deleted before its parent, the child holds it no longer.
        try compare(
            path, tables: tables, statements: ["DELETE FROM cascadeFirst WHERE id = 1", "DELETE FROM p WHERE id = 1"],
            lua: "cascadeFirst:get(1):delete(); p:get(1):delete()", expectTook: true)
        // Across tables: `restrictFirst`, declared later, acts first, and then `cascadeFirst`'s RESTRICT key refuses.
        try compare(path, tables: tables, statements: ["DELETE FROM p WHERE id = 3"], lua: "p:get(3):delete()", expectTook: false)
        // `deleteall` the same, without objects: each key at its turn, a cascade's rows
        // taken before the next key is checked.
        for (id, took) in [(1, false), (2, true), (3, false)] {
            try compare(path, tables: tables, statements: ["DELETE FROM p WHERE id = \(id)"], lua: "p:deleteall('id == \(id)', {})", expectTook: took)
        }
        try compare(path, tables: tables, statements: ["DELETE FROM p"], lua: "p:deleteall(nil, {})", expectTook: false)
        try compare(
            path, tables: tables, statements: ["DELETE FROM p WHERE id = 2 OR id = 1 AND 0"], lua: "p:deleteall('id IN {2, 5}', {})", expectTook: true
        )
    }

    /// Across tables the keys act in the order the tables were made, not of their names:
    /// a cascade through a table made later takes a row before the RESTRICT key of a table
    /// made earlier is checked, and not the other way round.
    @Test func tablesActInTheOrderTheyWereMade() throws {
        for (madeFirst, took) in [("zeta", true), ("alpha", false)] {
            let restrict =
                "CREATE TABLE zeta (id INTEGER PRIMARY KEY, p_id INTEGER REFERENCES p ON DELETE RESTRICT, a_id INTEGER REFERENCES alpha ON DELETE CASCADE, note TEXT)"
            let cascade = "CREATE TABLE alpha (id INTEGER PRIMARY KEY, p_id INTEGER REFERENCES p ON DELETE CASCADE)"
            let path = try foreignFile(
                """
                CREATE TABLE p (id INTEGER PRIMARY KEY, label TEXT);
                \(madeFirst == "zeta" ? restrict : cascade);
                \(madeFirst == "zeta" ? cascade : restrict);
                INSERT INTO p VALUES (1, 'x');
                INSERT INTO alpha VALUES (1, 1);
                INSERT INTO zeta VALUES (1, 1, 1, NULL);
                """)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let tables = ["p", "alpha", "zeta"]
            try compare(path, tables: tables, statements: ["DELETE FROM p WHERE id = 1"], lua: "p:get(1):delete()", expectTook: took)
            try compare(path, tables: tables, statements: ["DELETE FROM p WHERE id = 1"], lua: "p:deleteall('id == 1', {})", expectTook: took)
        }
    }

    /// A NO ACTION key DEFERRABLE INITIALLY DEFERRED is checked at the commit: the parent
    /// may go before its child in one save, and a save leaving the child is refused whole.
    /// A RESTRICT key is checked at once, deferrable or not.
    @Test func aDeferredKeyIsCheckedAtTheSave() throws {
        let path = try foreignFile(
            """
            CREATE TABLE p (id INTEGER PRIMARY KEY, label TEXT);
            CREATE TABLE later (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER
              CONSTRAINT "the key, (deferred)" REFERENCES p (id) ON DELETE NO ACTION DEFERRABLE INITIALLY DEFERRED);
            CREATE TABLE now (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER REFERENCES p DEFERRABLE INITIALLY IMMEDIATE,
              FOREIGN KEY (a) REFERENCES p ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED);
            INSERT INTO p VALUES (1, 'x'), (2, 'y'), (3, 'z'), (4, 'w');
            INSERT INTO later VALUES (1, NULL, 1), (2, NULL, 1);
            INSERT INTO now VALUES (1, NULL, 2), (2, 3, NULL);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tables = ["p", "later", "now"]
        try compare(
            path, tables: tables, statements: ["DELETE FROM p WHERE id = 1", "DELETE FROM later WHERE b = 1"],
            lua: "p:get(1):delete(); later:get(1):delete(); later:get(2):delete()", expectTook: true)
        try compare(
            path, tables: tables, statements: ["DELETE FROM p WHERE id = 1", "DELETE FROM later WHERE id = 1"],
            lua: "p:get(1):delete(); later:get(1):delete()", expectTook: false)
        try compare(
            path, tables: tables, statements: ["DELETE FROM p WHERE id = 2", "DELETE FROM now WHERE id = 1"],
            lua: "p:get(2):delete(); now:get(1):delete()", expectTook: false)
        try compare(
            path, tables: tables, statements: ["DELETE FROM p WHERE id = 3", "DELETE FROM now WHERE id = 2"],
            lua: "p:get(3):delete(); now:get(2):delete()", expectTook: false)
        // A new child of a new parent, and a cycle of deferred keys, in one save.
        try compare(
            path, tables: tables, statements: ["INSERT INTO later (id, b) VALUES (9, 9)", "INSERT INTO p VALUES (9, 'new')"],
            lua: "local c = later:new{ id = 9 }; local n = p:new{ id = 9, label = 'new' }; c.b = 9", expectTook: true)
    }

    /// SQLite's refusal at the commit names nothing ("FOREIGN KEY constraint failed"): the
    /// save names the object and the children that still hold it before it writes, and
    /// leaves the file and the pending changes as they were.
    @Test func aDeferredKeysRefusalNamesTheObjectAndItsChildren() throws {
        let path = try foreignFile(
            """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE game (id INTEGER PRIMARY KEY, team_id INTEGER NOT NULL
              REFERENCES team (id) DEFERRABLE INITIALLY DEFERRED);
            INSERT INTO team VALUES (1, 'a'), (2, 'b');
            INSERT INTO game VALUES (1, 1), (2, 1), (3, 2);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let h = try Harness(context: try StoreOpener.open(path))
        let refused = h.error("team:get(1):delete(); game:get(1):delete(); save()")
        #expect(refused.hasPrefix("t:1: save: team/1 cannot be deleted: 'games' denies it"), "\(refused)")
        #expect(refused.contains("while it holds game/2"), "\(refused)")
        #expect(h.string("tostring(haschanges())") == "true")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // The last child deleted too, the save takes it, as SQLite's commit would.
        h.run("game:get(2):delete(); save()")
        #expect(h.string("count('team') .. ' ' .. count('game')") == "1 1")
    }

    /// A table whose SQL the schema keeps as bytes (written with `writable_schema`) reads
    /// as SQLite reads it, as text: its deferred key is still checked at the commit.
    @Test func aDeferredKeyOfSQLKeptAsBytesIsCheckedAtTheSave() throws {
        let path = try foreignFile(
            """
            CREATE TABLE p (id INTEGER PRIMARY KEY, label TEXT);
            CREATE TABLE later (id INTEGER PRIMARY KEY, b INTEGER REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED);
            INSERT INTO p VALUES (1, 'x'), (2, 'y');
            INSERT INTO later VALUES (1, 1), (2, 1);
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = CAST(sql AS BLOB) WHERE name = 'later';
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try compare(
            path, tables: ["p", "later"], statements: ["DELETE FROM p WHERE id = 1", "UPDATE later SET b = 2"],
            lua: "p:get(1):delete(); for _, c in ipairs(fetch('later')) do c.b = 2 end", expectTook: true)
    }

    @Test func theDeferredClausesAreReadOffTheTablesSQL() {
        let sql = """
            CREATE TABLE "t (x)" (a REFERENCES p DEFERRABLE INITIALLY DEFERRED, -- REFERENCES q NOT DEFERRABLE
              'b,' INTEGER REFERENCES [p,q] ("x") NOT DEFERRABLE INITIALLY DEFERRED NOT NULL,
              c REFERENCES p DEFERRABLE, /* REFERENCES p */ d TEXT DEFAULT 'REFERENCES' REFERENCES p (id) ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE,
              FOREIGN KEY (e, f) REFERENCES p (g, h) MATCH FULL DEFERRABLE INITIALLY DEFERRED)
            """
        #expect(ForeignKeyOrder.deferredClauses(of: sql) == [true, false, false, false, true])
    }
}

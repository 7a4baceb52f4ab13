import Foundation
import GRDB
import QuarryShell
import Testing

/// Issue 60, item 7: a default the file computes (`DEFAULT (datetime('now'))`) is the
/// engine's to fill, as sqlite3 fills it: a new object not given a value for the column
/// leaves it out of the INSERT, and reads back what SQLite stored once saved. A value
/// given, nil included, is written as given.
@Suite struct ForeignComputedDefaultTests {
    static let schema = """
        CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT, created_at TEXT NOT NULL DEFAULT (datetime('now')),
          tag TEXT DEFAULT (lower('ABC')), code INTEGER DEFAULT (40 + 2), plain TEXT DEFAULT 'p');
        """

    @Test func aComputedDefaultIsFilledBySQLiteAndReadBack() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"a = notes:new{ body = "a" }"#)
        // Not evaluated by Quarry: nil until the engine fills it.
        #expect(h.string("a.created_at") == "nil")
        h.run("save()")
        let stored = try sqlAnswer(path, "SELECT created_at || '|' || tag || '|' || code || '|' || plain FROM notes WHERE body = 'a'")
        #expect(h.string(#"a.created_at .. "|" .. a.tag .. "|" .. a.code .. "|" .. a.plain"#) == stored, "\(stored)")
        #expect(stored.hasSuffix("|abc|42|p") && stored.count == 19 + 9, "\(stored)")
    }

    @Test func objectsInOneSaveLeaveOutOnlyWhatTheyWereNotGiven() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            a = notes:new{ body = "a" }
            b = notes:new{ body = "b", tag = "given", code = 7 }
            c = notes:new{ body = "c" }; c.tag = nil
            d = notes:new{ body = "d", created_at = "2001-02-03 04:05:06" }
            save()
            """#)
        let rows = try sqlAnswer(path, "SELECT body || '=' || ifnull(tag, 'NULL') || ',' || ifnull(code, 'NULL') FROM notes ORDER BY id")
        #expect(rows == "a=abc,42,b=given,7,c=NULL,42,d=abc,42", "\(rows)")
        let objects = h.string(
            #"(function() local t = {} for _, o in ipairs({ a, b, c, d }) do t[#t + 1] = o.body .. "=" .. tostring(o.tag) .. "," .. tostring(o.code) end return table.concat(t, ",") end)()"#
        )
        #expect(objects == "a=abc,42,b=given,7,c=nil,42,d=abc,42", "\(objects ?? "nil")")
        #expect(h.string("d.created_at") == "2001-02-03 04:05:06")
        let stamps = try sqlAnswer(path, "SELECT created_at FROM notes WHERE body IN ('a', 'b', 'c') ORDER BY id")
        #expect(h.string(#"a.created_at .. "," .. b.created_at .. "," .. c.created_at"#) == stamps)
        // Read again from the file, the objects hold what they showed.
        #expect(h.string(#"notes:get(a.id).created_at"#) == h.string("a.created_at"))
    }

    /// Before, every new object of a NOT NULL computed column was refused at save.
    @Test func aNotNullComputedColumnNoLongerRefusesNewObjects() throws {
        let path = try foreignFile("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL DEFAULT (abs(-3)));")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("x = t:new{}; save()")
        #expect(h.string("x.n") == "3")
        #expect(try sqlAnswer(path, "SELECT n FROM t") == "3")
    }
}

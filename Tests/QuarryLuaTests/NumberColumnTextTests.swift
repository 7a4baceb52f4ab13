import Foundation
import GRDB
import QuarryModel
import QuarryPredicates
import QuarryShell
import QuarryStore
import Testing

/// A number column of a SQLite file that holds text (Anki's `notes.sfld integer`, issue
/// 60): a predicate compares it with strings and matches it with string operators as
/// SQLite does, in SQL and in memory alike (`NumericAffinity`). Every count is checked
/// against plain SQL over the same file and against `p:matches` over every object.
@Suite struct NumberColumnTextTests {
    /// Integers, reals, text that looks like no number, text that SQLite keeps as text in
    /// an INTEGER column, a blob and NULL; a REAL column beside it.
    static func file() throws -> String {
        try foreignFile(
            """
            CREATE TABLE n (id INTEGER PRIMARY KEY, sfld integer, r REAL, t TEXT);
            INSERT INTO n (sfld, r, t) VALUES ('apple', 'pear', 'x'), (42, 4.5, '42'), ('banana', 1e20, 'y'), (7.5, NULL, 'z'),
              (NULL, 2, NULL), ('42x', ' 3 ', 'w'), (-3, 'Apple', 'v'), (x'00ff', 0.1, 'u'), ('', -0.5, 't'), (420, 42, 's');
            """)
    }

    /// Each predicate, with the SQL sqlite3 answers it with (its count over `n`).
    static let cases: [(predicate: String, sql: String)] = [
        ("sfld == 'apple'", "sfld = 'apple'"),
        ("sfld == '42'", "sfld = '42'"),
        ("sfld == ' 42 '", "sfld = ' 42 '"),
        ("sfld == '4.2e1'", "sfld = '4.2e1'"),
        ("sfld == '0x2a'", "sfld = '0x2a'"),
        ("sfld != 'apple'", "sfld IS NOT 'apple'"),
        ("sfld < 'b'", "sfld < 'b'"),
        ("sfld > 'a'", "sfld > 'a'"),
        ("sfld >= ''", "sfld >= ''"),
        ("sfld > '100'", "sfld > '100'"),
        ("sfld IN {'apple', 42, '420'}", "sfld IN ('apple', 42, '420')"),
        ("sfld BETWEEN {'a', 'b'}", "sfld BETWEEN 'a' AND 'b'"),
        ("sfld BETWEEN {'1', 'a'}", "sfld BETWEEN '1' AND 'a'"),
        ("sfld BEGINSWITH 'app'", "sfld GLOB 'app*'"),
        ("sfld BEGINSWITH '4'", "sfld GLOB '4*'"),
        ("sfld ENDSWITH '.5'", "sfld GLOB '*.5'"),
        ("sfld CONTAINS 'an'", "sfld GLOB '*an*'"),
        ("sfld CONTAINS[c] 'AN'", "lower(sfld) GLOB '*an*'"),
        ("sfld BEGINSWITH[cd] 'APP'", "lower(sfld) GLOB 'app*'"),
        ("sfld LIKE '4*'", "sfld GLOB '4*'"),
        ("sfld LIKE[c] '?PPLE'", "lower(sfld) GLOB '?pple'"),
        ("sfld MATCHES '[0-9]+'", "sfld GLOB '[0-9]*' AND NOT sfld GLOB '*[^0-9]*'"),
        ("r == 'pear'", "r = 'pear'"),
        ("r == '4.5'", "r = '4.5'"),
        ("r BEGINSWITH '1.0e'", "r GLOB '1.0e*'"),
        ("r CONTAINS '.'", "r GLOB '*.*'"),
        ("r ENDSWITH '2.0'", "r GLOB '*2.0'"),
        ("r > 'A'", "r > 'A'")
    ]

    @Test func countsAndMatchesAgreeWithSQLite() throws {
        let path = try Self.file()
        let h = try Harness(context: try StoreOpener.open(path))
        try expectCountsAgreeWithSQLite(h, path, table: "n", Self.cases)
        // An argument bound as given: the text "apple", and the number SQLite makes of "42".
        #expect(h.string(#"count("n", "sfld == %@ OR sfld == %@", "apple", "42")"#) == "2")
        #expect(h.string(#"n:first("sfld BEGINSWITH %@", "ban").sfld"#) == "banana")
    }

    /// An unsaved object's text is compared as the saved row would be (observers and
    /// `matches` read objects in memory).
    @Test func anObjectReadBackMatchesAsItsRow() throws {
        let path = try Self.file()
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"predicate("sfld == 'apple'"):matches(n:first("id == 1"))"#) == "true")
        #expect(h.string(#"predicate("sfld > 'a'"):matches(n:first("id == 2"))"#) == "false")
        #expect(h.string(#"predicate("sfld BEGINSWITH '4'"):matches(n:first("id == 2"))"#) == "true")
        #expect(h.string(#"predicate("r BEGINSWITH '1.0e+20'"):matches(n:first("id == 3"))"#) == "true")
    }

    /// Quarry's own store keeps its refusal: there a number attribute holds numbers, and
    /// comparing it with a string is a mistake.
    @Test func quarrysOwnStoreStillRefuses() throws {
        let h = try Harness()
        h.run(#"entity "N" { sfld = "int64?" }; N:new{ sfld = 1 }; save()"#)
        #expect(h.error(#"count("N", "sfld == 'apple'")"#).contains("cannot be compared with string"))
        #expect(h.error(#"count("N", "sfld BEGINSWITH 'a'")"#).contains("BEGINSWITH compares strings"))
    }

    /// SQLite's numeric affinity, as `applyNumericAffinity` reads text: what a NUMERIC
    /// column stores for it (the same conversion), a number or the text unchanged.
    @Test func numericAffinityReadsTextAsSQLite() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE a (v NUMERIC)") }
        let texts = [
            "42", " 42 ", "+42", "-0", "4.", ".5", "4.2e1", "1e", "1e+", "1e5x", "0x2a", "42x", "", " ", "Inf", "NaN", "9223372036854775808", "\t7\n",
            "- 1", "1 2"
        ]
        for text in texts {
            let stored = try queue.write { db -> DatabaseValue in
                try db.execute(sql: "DELETE FROM a; INSERT INTO a VALUES (?)", arguments: [text])
                return try DatabaseValue.fetchOne(db, sql: "SELECT v FROM a") ?? .null
            }
            let sqlite: String
            switch stored.storage {
            case .int64(let i): sqlite = "number \(Double(i))"
            case .double(let d): sqlite = "number \(d)"
            case .string(let s): sqlite = "text \(s)"
            default: sqlite = "other"
            }
            let ours: String
            switch NumericAffinity.numeric(text) {
            case .integer(let i): ours = "number \(Double(i))"
            case .real(let d): ours = "number \(d)"
            case .text(let s): ours = "text \(s)"
            default: ours = "other"
            }
            #expect(ours == sqlite, "\(text.debugDescription)")
        }
        for (number, text) in [
            (Value.integer(-3), "-3"), (.real(7.5), "7.5"), (.real(1e20), "1.0e+20"), (.real(2), "2.0"), (.real(0.1), "0.1"),
            (.real(-1e-5), "-1.0e-05")
        ] {
            let bound: DatabaseValue
            switch number {
            case .integer(let i): bound = i.databaseValue
            case .real(let d): bound = d.databaseValue
            default: bound = .null
            }
            let sqlite = try queue.read { db in try String.fetchOne(db, sql: "SELECT CAST(? AS TEXT)", arguments: [bound]) }
            #expect(NumericAffinity.text(of: number) == sqlite, "\(number)")
            #expect(sqlite == text)
        }
    }
}

/// A column of a SQLite file that declares no type (a key-value table's `value`, Safari's
/// `metadata.value`, Zotero's `settings.value`): it reads as a string attribute, and SQLite
/// keeps and compares any value there as stored, with no affinity to convert it. A
/// predicate compares it with numbers as SQLite does (it was refused: "'value' is string
/// and cannot be compared with integer"), in SQL and in memory alike.
@Suite struct UntypedColumnTests {
    static func file() throws -> String {
        try foreignFile(
            """
            CREATE TABLE kv (id INTEGER PRIMARY KEY, key TEXT, value);
            INSERT INTO kv (key, value) VALUES ('a', 5), ('b', 7.5), ('c', 'x'), ('d', NULL), ('e', '12'), ('f', x'01'), ('g', 1), ('h', -2);
            CREATE VIEW kt AS SELECT id, CAST(value AS TEXT) AS vt FROM kv;
            """)
    }

    static let cases: [(predicate: String, sql: String)] = [
        ("value > 1", "value > 1"),
        ("value == 5", "value = 5"),
        ("value < 6.5", "value < 6.5"),
        ("value >= -2 AND value <= 7.5", "value >= -2 AND value <= 7.5"),
        ("value IN {5, 7.5, 'x'}", "value IN (5, 7.5, 'x')"),
        ("value BETWEEN {1, 8}", "value BETWEEN 1 AND 8"),
        ("value == '12'", "value = '12'"),
        ("value == 12", "value = 12"),
        ("value != 1", "value IS NOT 1"),
        ("value == YES", "value = 1"),
        ("value > 'a'", "value > 'a'"),
        ("value CONTAINS '5'", "value GLOB '*5*'")
    ]

    @Test func countsAndMatchesAgreeWithSQLite() throws {
        let path = try Self.file()
        let h = try Harness(context: try StoreOpener.open(path))
        try expectCountsAgreeWithSQLite(h, path, table: "kv", Self.cases)
        // Arguments are bound as given: a number stays a number.
        #expect(h.string(#"count("kv", "value > %@", 4)"#) == (try sqlAnswer(path, "SELECT count(*) FROM kv WHERE value > 4")))
        // Swift's String never compares with a number: no #Predicate is offered for it.
        #expect(h.string(#"predicate("value > 1"):swift("kv")"#)?.contains("#Predicate: not expressible") == true)
        // NaN is nil here too, in SQL and in memory alike.
        let nan =
            #"(function() local p, k = predicate("value == %@", 0/0), 0; for _, o in ipairs(fetch("kv")) do if p:matches(o) then k = k + 1 end end; return count("kv", "value == %@", 0/0) .. "," .. k end)()"#
        #expect(h.string(nan) == "1,1")
        // A view's column declares no type yet may have an affinity from its expression
        // (TEXT, from the CAST): it still refuses a number.
        #expect(h.error(#"count("kt", "vt == 12")"#).contains("cannot be compared with integer"))
        // A declared TEXT column still refuses a number: its affinity would convert it.
        #expect(h.error(#"count("kv", "key > 1")"#).contains("cannot be compared with integer"))
    }
}

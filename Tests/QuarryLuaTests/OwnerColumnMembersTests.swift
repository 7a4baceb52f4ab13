import Foundation
import QuarryShell
import Testing

/// A to-many whose members name a column of the owner other than its object number (a
/// key that is no rowid alias, a `relate()` onto a text code) listed only the members
/// whose value equals the owner's as bound alone, while `@count`, ANY and grouping
/// compared as SQLite's join does, with the owner column's affinity and collation: the
/// list and the counts disagreed without a word. The list now reads the same join.
@Suite struct OwnerColumnMembersTests {
    @Test func textKeysNameAnIntegerKeyThatIsNoRowid() throws {
        let path = try foreignFile(
            """
            CREATE TABLE p(id INTEGER PRIMARY KEY DESC, v TEXT); INSERT INTO p(rowid, id, v) VALUES (1, 20, 'twenty'), (2, 10, 'ten');
            CREATE TABLE c(k INTEGER PRIMARY KEY, pid REFERENCES p(id));
            INSERT INTO c VALUES (1, '10'), (2, 10), (3, '1e1'), (4, 10.0), (5, ' 10'), (6, 20);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let sqlite = try sqlAnswer(path, "SELECT group_concat(c.k) FROM c JOIN p ON p.id = c.pid WHERE p.id = 10 ORDER BY c.k")
        h.run("t = {} for _, m in ipairs(p:get(10).cs) do t[#t + 1] = m.k end table.sort(t)")
        #expect(h.string("table.concat(t, ',')") == sqlite)
        #expect(sqlite == "1,2,3,4,5")
        #expect(h.string("count('p', 'cs.@count == 5')") == "1")
        #expect(h.string("#p:get(20).cs") == "1")
    }

    @Test func aNocaseCodeListsEveryMemberItsCountCounts() throws {
        let path = try foreignFile(
            """
            CREATE TABLE airline(code TEXT COLLATE NOCASE PRIMARY KEY, name TEXT); INSERT INTO airline VALUES ('VX', 'Virgin'), ('AA', 'American');
            CREATE TABLE flight(id INTEGER PRIMARY KEY, carrier TEXT); INSERT INTO flight VALUES (1, 'VX'), (2, 'vx'), (3, 'AA');
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"relate("flight", "carrier", "airline", "code")"#)
        #expect(h.string("flight:get(2).airline.name") == "Virgin")
        #expect(h.string("#airline:get('VX').flights") == "2")
        #expect(h.string("airline:get('VX').flights:contains(flight:get(2))") == "true")
        #expect(h.string("count('airline', 'flights.@count == 2')") == "1")
        // An owner's code changed and not yet saved lists the saved members that name the
        // new code, compared with the code's NOCASE as the saved row is ('VX' and 'vx').
        h.run("a = airline:get('AA'); a.code = 'Vx'")
        #expect(h.string("#a.flights") == "2")
    }

    /// A key of two columns, one holding `'1'` where the owner's INTEGER column holds 1.
    @Test func aKeyOfTwoColumnsComparesAsTheJoin() throws {
        let path = try foreignFile(
            """
            CREATE TABLE p(a INTEGER, b TEXT, v TEXT, PRIMARY KEY(a, b)); INSERT INTO p VALUES (1, 'x', 'one');
            CREATE TABLE c(id INTEGER PRIMARY KEY, pa, pb, FOREIGN KEY(pa, pb) REFERENCES p(a, b));
            INSERT INTO c VALUES (1, 1, 'x'), (2, '1', 'x'), (3, 1.0, 'x'), (4, 1, NULL);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string("#p:first().cs") == (try sqlAnswer(path, "SELECT count(*) FROM c JOIN p ON p.a = c.pa AND p.b = c.pb")))
        #expect(h.string("#p:first().cs") == h.string("count('c', 'p.v == \"one\"')"))
        #expect(h.string("count('p', 'cs.@count == 3')") == "1")
    }
}

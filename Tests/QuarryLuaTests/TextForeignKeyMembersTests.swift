import Foundation
import GRDB
import QuarryShell
import Testing

/// A foreign key column declared without a type, filled by `sqlite3 .import`, holds its
/// keys as text (`'1'`). SQLite's join reads the text as the number it names, and so did
/// `@count` in SQL and the to-one; the to-many's members, asked for by the bound integer
/// key, were none: `#k.ms` was 0 where `count("k", "ms.@count > 0")` counted every owner.
@Suite struct TextForeignKeyMembersTests {
    static let schema = """
        CREATE TABLE k (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE m (id INTEGER PRIMARY KEY, k_id REFERENCES k (id), v);
        INSERT INTO k VALUES (1, 'a'), (2, 'b'), (3, 'c'), (5, 'e');
        INSERT INTO m (k_id, v) VALUES ('1', '10'), ('1', '20'), ('5', '30'), ('2', '40');
        """

    @Test func membersAreTheRowsSQLitesJoinFinds() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let joined = try sqlAnswer(path, "SELECT k.id || '=' || (SELECT count(*) FROM m WHERE m.k_id = k.id) FROM k ORDER BY k.id")
        #expect(joined == "1=2,2=1,3=0,5=1")
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(
            h.string(
                #"(function() local out = {}; for _, o in ipairs(fetch("k")) do out[#out + 1] = o.id .. "=" .. #o.ms end; return table.concat(out, ",") end)()"#
            )
                == joined)
        #expect(h.string(#"k:get(1).ms[1].v .. "," .. k:get(1).ms[2].v"#) == "10,20")
        try expectCountsAgreeWithSQLite(
            h, path, table: "k",
            [
                ("ms.@count > 1", "(SELECT count(*) FROM m WHERE m.k_id = k.id) > 1"),
                ("ms.@count == 0", "(SELECT count(*) FROM m WHERE m.k_id = k.id) = 0"),
                ("ANY ms.v == '30'", "EXISTS (SELECT 1 FROM m WHERE m.k_id = k.id AND m.v = '30')")
            ])
    }

    /// The file's foreign key keeps an owner its members name: the delete is refused.
    @Test func anOwnerItsTextKeysNameIsKept() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"select(2, pcall(function() k:get(1):delete(); save() end))"#)?.contains("holds m/1, m/2") == true)
        #expect(try sqlAnswer(path, "SELECT count(*) FROM k") == "4")
    }
}

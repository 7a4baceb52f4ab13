import Foundation
import GRDB
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryEngine
@testable import QuarrySQLite
@testable import QuarryStore

/// A view's key is decided from its definition, never by reading its rows (issue 60, item
/// 6): a view that shows some rows of one table, each once, is keyed by that table's own
/// key where it shows it; anything else by its rows' places.
@Suite struct SQLiteViewKeyDefinitionTests {
    @Test func definitionsOfOneTablesRowsNameTheirColumns() throws {
        let plain = try #require(
            ViewDefinition("CREATE VIEW v AS SELECT id, t.name AS n, price * 2 AS p FROM t WHERE price > 0 ORDER BY a, b LIMIT 3"))
        #expect(plain.table == "t" && plain.schema == nil && !plain.only)
        #expect(plain.columns == ["id", "name", nil])
        let aliased = try #require(ViewDefinition("create view \"my view\" (k, n) as select a.\"Id\" k, a.name from main.[Item] as a -- note"))
        #expect(aliased.schema == "main" && aliased.table == "Item" && aliased.columns == ["Id", "name"])
        let postgres = try #require(
            ViewDefinition(" SELECT item.id,\n    item.price\n   FROM ONLY shop.item\n  WHERE (item.price > (0)::double precision);"))
        #expect(postgres.only && postgres.schema == "shop" && postgres.columns == ["id", "price"])
        let star = try #require(ViewDefinition("CREATE VIEW s AS SELECT * FROM t WHERE (SELECT count(*) FROM u JOIN w) > 0"))
        #expect(star.star && star.column(at: 3, named: "rowid") == "rowid")
        #expect(ViewDefinition("CREATE VIEW v AS SELECT 'a,b' AS s, id FROM t")?.columns == [nil, "id"])

        // Rows of several, merged or made: none is one table's.
        for definition in [
            "CREATE VIEW v AS SELECT t.id FROM t JOIN u ON u.t = t.id", "CREATE VIEW v AS SELECT id FROM t, u",
            "CREATE VIEW v AS SELECT id FROM t GROUP BY kind", "CREATE VIEW v AS SELECT DISTINCT id FROM t",
            "CREATE VIEW v AS SELECT id FROM t UNION ALL SELECT id FROM t", "CREATE VIEW v AS WITH c AS (SELECT 1) SELECT * FROM c",
            "CREATE VIEW v AS SELECT id FROM (SELECT id FROM t)", "CREATE VIEW v AS SELECT id FROM t NATURAL JOIN u",
            "CREATE VIEW v AS SELECT id FROM generate_series(1, 3)", "CREATE VIEW v AS SELECT id, * FROM t",
            "CREATE VIEW v AS VALUES (1)", "CREATE VIEW v AS SELECT id FROM t LEFT JOIN u USING (id)",
            " SELECT t.id FROM (t CROSS JOIN u);"
        ] {
            #expect(ViewDefinition(definition) == nil, "\(definition)")
        }
    }

    /// SQLite: a rowid table's rowid or its alias, shown bare, keys the view; a WITHOUT
    /// ROWID table's key, a key declared `INT`, a computed id, a virtual table's rowid or
    /// a view of a view do not (their ids need not be distinct integers).
    @Test func sqliteViewsAreKeyedByTheRowidTheyShow() throws {
        let path = try CoreDataFixtures.temporaryFolder().appendingPathComponent("viewkeys.db").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE item (id INTEGER PRIMARY KEY, kind TEXT);
                    CREATE TABLE loose (id INT PRIMARY KEY, kind TEXT);
                    CREATE TABLE bare (id INTEGER PRIMARY KEY, kind TEXT) WITHOUT ROWID;
                    CREATE TABLE backwards (id INTEGER PRIMARY KEY DESC, kind TEXT);
                    CREATE VIRTUAL TABLE words USING fts5(body);
                    CREATE VIEW keyed AS SELECT id, kind FROM item WHERE kind <> 'x';
                    CREATE VIEW renamed (rowid, k) AS SELECT i.id, i.kind FROM main.item i;
                    CREATE VIEW byrowid AS SELECT rowid AS id, kind FROM loose;
                    CREATE VIEW starred AS SELECT * FROM item;
                    CREATE VIEW looseid AS SELECT id, kind FROM loose;
                    CREATE VIEW bareid AS SELECT id, kind FROM bare;
                    CREATE VIEW barerow AS SELECT rowid AS id, kind FROM bare;
                    CREATE VIEW backid AS SELECT id, kind FROM backwards;
                    CREATE VIEW computed AS SELECT id + 0 AS id, kind FROM item;
                    CREATE VIEW joined AS SELECT item.id, loose.kind FROM item JOIN loose ON loose.id = item.id;
                    CREATE VIEW wordid AS SELECT rowid AS id, body FROM words;
                    CREATE VIEW ofview AS SELECT id, kind FROM keyed;
                    """)
        }
        let keyed = try queue.read { db in
            ["keyed", "renamed", "byrowid", "starred", "looseid", "bareid", "barerow", "backid", "computed", "joined", "wordid", "ofview"]
                .filter { SQLiteViewKeys.showsTableKey($0, column: 0, named: $0 == "renamed" ? "rowid" : "id", db) }
        }
        try queue.close()
        #expect(keyed == ["keyed", "renamed", "byrowid", "starred"])
    }
}

import Foundation
import QuarryShell
import QuarryStore
import Testing

/// `relate()` to columns that name one row (issue 85, item 4). A Minetest-like save keeps
/// inventories by `(player, inv_id)`: `relate("item", "inv_id", "inv", "inv_id")` gave
/// each item one of several inventories, and the inverse counted an item once for each
/// player with that `inv_id`. It is refused, naming a repeated value; lists of columns
/// relate through the whole key, and the counts agree with sqlite3's joins.
@Suite struct RelateToOneRowTests {
    static func file() throws -> String {
        try foreignFile(
            """
            CREATE TABLE inv (player TEXT NOT NULL, inv_id INTEGER NOT NULL, label TEXT, PRIMARY KEY (player, inv_id));
            CREATE TABLE item (id INTEGER PRIMARY KEY, player TEXT, inv_id INTEGER, name TEXT);
            INSERT INTO inv VALUES ('ann', 1, 'main'), ('ann', 2, 'craft'), ('bob', 1, 'main'), ('cy', 1, 'main');
            INSERT INTO item (player, inv_id, name) VALUES ('ann', 1, 'pick'), ('ann', 1, 'torch'), ('ann', 2, 'stick'),
              ('bob', 1, 'sword'), ('cy', 1, 'apple'), ('cy', 3, 'lost'), (NULL, 1, 'floating');
            """)
    }

    @Test func aDestinationColumnThatIsNeitherKeyNorUniqueIsRefused() throws {
        let path = try Self.file()
        let h = try Harness(context: try StoreOpener.open(path))
        let refusal = h.error(#"relate("item", "inv_id", "inv", "inv_id")"#)
        #expect(
            refusal
                == "t:1: entity inv: relate: inv.inv_id is neither the key of inv nor unique: 1 is in 3 rows, so an item row would name several; relate to columns that name one row (lists for several: { \"a\", \"b\" })",
            "\(refusal)")
        #expect(!refusal.contains("\n"))
        // Nothing was made, nor kept for the next open.
        #expect(h.error(#"return inv:first().items"#).contains("unknown key 'items' on entity inv"))
        #expect(!FileManager.default.fileExists(atPath: path + ".quarry"))
        let several = h.error(#"relate("item", { "player", "inv_id" }, "inv", { "inv_id" })"#)
        #expect(several.contains("relate: 2 columns of item for 1 of inv; give as many of each"), "\(several)")
    }

    /// Through both columns of the key: each item's inventory, and each inventory's items,
    /// as sqlite3 joins them; in SQL, in memory, and again after reopening (the sidecar).
    @Test func listsOfColumnsRelateThroughAKeyOfSeveral() throws {
        let path = try Self.file()
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"local a, b = relate("item", { "player", "inv_id" }, "inv", { "player", "inv_id" }); __names = a .. " " .. b"#)
        #expect(h.string("__names") == "inv items")
        let perInventory = try sqlAnswer(
            path,
            "SELECT count(item.id) FROM inv LEFT JOIN item USING (player, inv_id) GROUP BY inv.player, inv.inv_id ORDER BY inv.player, inv.inv_id")
        let counted =
            #"(function() local t = {} for _, i in ipairs(fetch{ "inv", sort = { "player", "inv_id" } }) do t[#t + 1] = #i.items end return table.concat(t, ",") end)()"#
        #expect(h.string(counted) == perInventory)
        let craft = try sqlAnswer(path, "SELECT count(*) FROM item JOIN inv USING (player, inv_id) WHERE label = 'craft'")
        #expect(h.string(#"count("item", "inv.label == 'craft'")"#) == craft)
        #expect(
            h.string(#"count("item", "inv == nil")"#)
                == (try sqlAnswer(
                    path, "SELECT count(*) FROM item WHERE NOT EXISTS (SELECT 1 FROM inv WHERE inv.player = item.player AND inv.inv_id = item.inv_id)"
                )))
        #expect(h.string(#"item:first("name == 'stick'").inv.label"#) == "craft")
        #expect(h.string(#"predicate("inv.label == 'main'"):matches(item:first("name == 'torch'"))"#) == "true")
        // The same call again is a no-op; reopening replays it from the sidecar.
        h.run(#"assert(relate("item", { "player", "inv_id" }, "inv", { "player", "inv_id" }) == "inv")"#)
        let again = try Harness(context: try StoreOpener.open(path))
        #expect(again.string(counted) == perInventory)
    }
}

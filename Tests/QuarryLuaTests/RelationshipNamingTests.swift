import Foundation
import QuarryShell
import QuarryStore
import Testing

/// Issue 60, item 4: one naming rule for every relationship, whoever made it (a foreign
/// key, `relate()`, a join table): a to-one by its column's stem or its target in the
/// singular, a to-many by the entity at its other end in the plural, the column's words
/// added only where two names would collide, no word doubled. The names earlier rules gave
/// (`book_set`, `flight_set`, `tag_name_tags`, `actor_actor`) stay readable, so scripts and
/// sidecars written with them keep working. And a predicate over two to-many steps is
/// refused with the SUBQUERY that says it, which runs.
@Suite struct RelationshipNamingTests {
    static let schema = """
        CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE tags (name TEXT PRIMARY KEY, color TEXT);
        CREATE TABLE post (id INTEGER PRIMARY KEY, account_id INTEGER REFERENCES account(id), owner INTEGER REFERENCES account(id), title TEXT);
        CREATE TABLE post_tags (post_id INTEGER REFERENCES post(id), tag_name TEXT REFERENCES tags(name), PRIMARY KEY (post_id, tag_name));
        CREATE TABLE history_items (id INTEGER PRIMARY KEY, url TEXT);
        CREATE TABLE history_visits (id INTEGER PRIMARY KEY, history_item INTEGER REFERENCES history_items(id), at INTEGER);
        CREATE TABLE actor (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE role (id INTEGER PRIMARY KEY, actor INTEGER REFERENCES actor(id), part TEXT);
        CREATE TABLE chat (id INTEGER PRIMARY KEY, guid TEXT);
        CREATE TABLE message (id INTEGER PRIMARY KEY, chat_guid TEXT, text TEXT);
        CREATE TABLE airline (carrier TEXT, name TEXT);
        CREATE TABLE flight (carrier TEXT, num INTEGER);
        INSERT INTO account VALUES (1, 'ann'), (2, 'bob'), (3, 'cy');
        INSERT INTO tags VALUES ('swift', 'orange'), ('lua', 'blue'), ('sql', 'green');
        INSERT INTO post VALUES (1, 1, 2, 'a'), (2, 1, 1, 'b'), (3, 2, 2, 'c'), (4, 3, NULL, 'd');
        INSERT INTO post_tags VALUES (1, 'swift'), (1, 'lua'), (2, 'sql'), (3, 'lua'), (4, 'sql');
        INSERT INTO history_items VALUES (1, 'a.example'), (2, 'b.example');
        INSERT INTO history_visits VALUES (1, 1, 10), (2, 1, 11), (3, 2, 12);
        INSERT INTO actor VALUES (1, 'Ada'), (2, 'Bo');
        INSERT INTO role VALUES (1, 1, 'lead'), (2, 2, 'extra'), (3, 1, 'cameo');
        INSERT INTO chat VALUES (1, 'g1'), (2, 'g2');
        INSERT INTO message VALUES (1, 'g1', 'hi'), (2, 'g1', 'yo'), (3, 'g2', 'ok');
        INSERT INTO airline VALUES ('AA', 'American'), ('UA', 'United');
        INSERT INTO flight VALUES ('AA', 1), ('AA', 2), ('UA', 3);
        """

    private func file() throws -> String { try foreignFile(Self.schema) }

    private func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: path + ".quarry")
    }

    /// The names an entity's relationships have, sorted.
    private func names(_ h: Harness, _ entity: String) -> String {
        ((try? h.context.entity(named: entity))?.relationships.map(\.name) ?? []).sorted().joined(separator: ",")
    }

    @Test func foreignKeysAndJoinTablesFollowOneRule() throws {
        let path = try file()
        defer { remove(path) }
        let h = try Harness(context: try StoreOpener.open(path))
        // A to-one by its column's stem; a to-many by the entity at its other end, in the
        // plural; a second key to the same table adds its column's words on both sides.
        #expect(names(h, "post") == "account,owner_account,post_tags,tags")
        #expect(names(h, "account") == "posts,posts_as_owner_account")
        #expect(
            h.string(
                #"post:get(1).account.name .. "," .. post:get(1).owner_account.name .. "," .. #account:get(1).posts .. "," .. #account:get(1).posts_as_owner_account"#
            ) == "ann,bob,2,1")
        // A join table's column `tag_name`: `post.tags` and `tags.posts`, its to-one `tag`.
        #expect(names(h, "tags") == "post_tags,posts")
        #expect(names(h, "post_tags") == "post,tag")
        #expect(h.string(#"#post:get(1).tags .. "," .. #tags:first("name == 'swift'").posts .. "," .. post_tags:first().tag.color"#) == "2,1,orange")
        #expect(h.string(#"count("post", "ANY tags.name == 'lua'") .. "," .. count("tags", "posts.@count >= 2")"#) == "2,2")
        // No word doubled: the column is named as its target, so the to-one is `_rel`.
        #expect(names(h, "history_visits") == "history_item_rel")
        #expect(names(h, "role") == "actor_rel")
        #expect(
            h.string(
                #"history_visits:get(3).history_item_rel.url .. "," .. #history_items:get(1).history_visits .. "," .. role:get(2).actor_rel.name .. "," .. #actor:get(1).roles"#
            ) == "b.example,2,Bo,2")
    }

    @Test func namesEarlierRulesGaveStayReadable() throws {
        let path = try file()
        defer { remove(path) }
        let h = try Harness(context: try StoreOpener.open(path))
        // Before issue 45 (`<table>_set`) and before issue 60 (`tag_name_tags`, doubled words).
        #expect(
            h.string(#"#account:get(1).post_set .. "," .. #post:get(1).tag_name_tags .. "," .. post_tags:first().tag_name_tag.color"#) == "2,2,orange"
        )
        #expect(h.string(#"history_visits:get(3).history_item_history_item.url .. "," .. role:get(2).actor_actor.name"#) == "b.example,Bo")
        // In predicates too, in SQL and in memory alike.
        #expect(h.string(#"count("post", "ANY tag_name_tags.name == 'lua'") .. "," .. count("role", "actor_actor.name == 'Ada'")"#) == "2,2")
        h.run(
            #"""
            local p = predicate("ANY tag_name_tags.name == 'lua'")
            for _, o in ipairs(fetch("post")) do assert(p:matches(o) == (count("post", "id == %@ AND ANY tags.name == 'lua'", o.id) == 1)) end
            """#)
        // Writing through an old name writes the relationship.
        h.run(#"account:get(3).post_set:add(post:get(3)); assert(post:get(3).account.name == "cy"); rollback()"#)
    }

    @Test func relateFollowsTheRuleWithAndWithoutAName() throws {
        let path = try file()
        defer { remove(path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            __a = relate("message", "chat_guid", "chat", "guid")
            __b = relate("flight", "carrier", "airline", "carrier")
            __c = relate("flight", "carrier", "airline", "carrier", "operator")
            __d = relate("history_visits", "at", "history_items", "id")
            """#)
        #expect(h.string(#"__a .. "," .. __b .. "," .. __c .. "," .. __d"#) == "chat,airline,operator,at_history_item")
        #expect(names(h, "chat") == "messages")
        // A second link to the same table: the plural is taken, so its name's words follow.
        #expect(names(h, "airline") == "flights,flights_as_operator")
        #expect(
            h.string(#"#chat:get(1).messages .. "," .. #airline:first("carrier == 'AA'").flights .. "," .. flight:first("num == 3").airline.name"#)
                == "2,2,United")
        // The names relate() gave before: `<source>_set`, then `<source>_<name>_set`.
        #expect(
            h.string(
                #"#chat:get(1).message_set .. "," .. #airline:first("carrier == 'AA'").flight_set .. "," .. #airline:first("carrier == 'AA'").flight_operator_set"#
            ) == "2,2,2")
        #expect(h.string(#"count("airline", "flight_set.@count >= 2") .. "," .. count("chat", "ANY message_set.text == 'ok'")"#) == "1,1")
        // The same relate() again is a no-op, names and other names alike.
        h.run(#"relate("flight", "carrier", "airline", "carrier"); relate("message", "chat_guid", "chat", "guid")"#)
        #expect(names(h, "airline") == "flights,flights_as_operator")
        #expect(h.string(#"#airline:first("carrier == 'UA'").flight_set"#) == "1")
    }

    /// A sidecar written before issue 60 lists relate() calls without names (and one with
    /// the inverse its script gave): replayed, they take the new names and answer to the
    /// old ones, so a script written then runs as it did.
    @Test func aSidecarWrittenWithOldNamesStillReplays() throws {
        let path = try file()
        defer { remove(path) }
        try #"""
        {"quarry": 1,
         "relate": [{"source": "flight", "column": "carrier", "destination": "airline", "destinationColumn": "carrier", "name": null, "inverse": null},
          {"source": "message", "column": "chat_guid", "destination": "chat", "destinationColumn": "guid", "name": "thread", "inverse": "message_set"}],
         "entities": [],
         "formats": [],
         "templates": []}
        """#.write(toFile: path + ".quarry", atomically: true, encoding: .utf8)
        let sidecar = try String(contentsOfFile: path + ".quarry", encoding: .utf8)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"#airline:first("carrier == 'AA'").flight_set .. "," .. #airline:first("carrier == 'AA'").flights"#) == "2,2")
        #expect(h.string(#"#chat:get(1).message_set .. "," .. message:get(3).thread.guid"#) == "2,g2")
        // The script of then runs again as a no-op, and the sidecar stays as it was.
        h.run(#"relate("flight", "carrier", "airline", "carrier"); relate("message", "chat_guid", "chat", "guid", "thread", "message_set")"#)
        #expect(names(h, "airline") == "flights")
        #expect(try String(contentsOfFile: path + ".quarry", encoding: .utf8) == sidecar)
    }

    /// On a file Quarry made, relate() is kept in the model with the names it answers to,
    /// so a script using `flight_set` works after reopening.
    @Test func onAQuarryFileOldNamesOutlastAReopening() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-names-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try Harness(context: try StoreOpener.open(path))
        first.run(
            #"""
            entity "Airline" { carrier = "string", name = "string" }; entity "Flight" { carrier = "string", num = "int64" }
            Airline:new{ carrier = "UA", name = "United" }; Flight:new{ carrier = "UA", num = 1 }; Flight:new{ carrier = "UA", num = 2 }; save()
            assert(relate("Flight", "carrier", "Airline", "carrier") == "airline")
            assert(#Airline:first().flights == 2 and #Airline:first().flight_set == 2)
            """#)
        let second = try Harness(context: try StoreOpener.open(path))
        #expect(
            second.string(#"#Airline:first().flights .. "," .. #Airline:first().flight_set .. "," .. count("Airline", "flight_set.@count == 2")"#)
                == "2,2,1")
    }

    /// `ANY posts.tags.name == 'lua'` crosses two to-many relationships, which Quarry
    /// refuses as Core Data's store does; the refusal gives the SUBQUERY that says it, with
    /// the person's own key path and comparison, and that SUBQUERY finds the right rows.
    @Test func twoToManyStepsAreRefusedWithASubqueryThatRuns() throws {
        let path = try file()
        defer { remove(path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let any = h.error(#"count("account", "ANY posts.tags.name == 'lua'")"#)
        let form = "SUBQUERY(posts, $p, ANY $p.tags.name == 'lua').@count > 0"
        #expect(any.contains(form), "\(any)")
        #expect(!any.contains("write ANY tags"), "\(any)")
        #expect(!any.contains("\n"), "\(any)")
        let plain = try sqlAnswer(
            path,
            "SELECT count(*) FROM account a WHERE EXISTS (SELECT 1 FROM post p JOIN post_tags t ON t.post_id = p.id WHERE p.account_id = a.id AND t.tag_name = 'lua')"
        )
        #expect(plain == "2")
        #expect(h.string("count(\"account\", \"\(form)\")") == plain)
        h.run(
            """
            local p = predicate("\(form)")
            local n = 0
            for _, a in ipairs(fetch("account")) do if p:matches(a) then n = n + 1 end end
            assert(n == \(plain), n)
            """)
        // NONE gives its own form, which runs too.
        let none = h.error(#"count("account", "NONE posts.tags.name == 'lua'")"#)
        let noneForm = "SUBQUERY(posts, $p, ANY $p.tags.name == 'lua').@count == 0"
        #expect(none.contains(noneForm), "\(none)")
        #expect(h.string("count(\"account\", \"\(noneForm)\")") == "1")
        // ALL: no post of the account has a tag that is not 'lua'.
        let all = h.error(#"count("account", "ALL posts.tags.name == 'lua'")"#)
        let allForm = "SUBQUERY(posts, $p, NOT ALL $p.tags.name == 'lua').@count == 0"
        #expect(all.contains(allForm), "\(all)")
        let plainAll = try sqlAnswer(
            path,
            "SELECT count(*) FROM account a WHERE NOT EXISTS (SELECT 1 FROM post p JOIN post_tags t ON t.post_id = p.id WHERE p.account_id = a.id AND t.tag_name != 'lua')"
        )
        #expect(plainAll == "1")
        #expect(h.string("count(\"account\", \"\(allForm)\")") == plainAll)
        // One to-many step then a collection function is no second step: it still runs.
        #expect(h.string(#"count("account", "ANY posts.tags.@count >= 2")"#) == "1")
    }
}

import Foundation
import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// Sakila's SQLite `film_actor(actor_id, film_id, last_update TIMESTAMP NOT NULL)`, whose
/// time has no default: a join table a link cannot be written to without that time. Its
/// pair is read (members, predicates, `@count`, as SQL joins them), `:add` and `:remove`
/// are refused in one line naming the column, and the table stays an entity whose objects
/// write its rows.
@Suite struct ForeignReadOnlyPairTests {
    static let schema = """
        CREATE TABLE actor (actor_id INTEGER NOT NULL, first_name VARCHAR(45) NOT NULL, last_name VARCHAR(45) NOT NULL,
          last_update TIMESTAMP NOT NULL, PRIMARY KEY (actor_id));
        CREATE TABLE film (film_id INTEGER NOT NULL, title VARCHAR(255) NOT NULL, last_update TIMESTAMP NOT NULL, PRIMARY KEY (film_id));
        CREATE TABLE film_actor (actor_id INT NOT NULL, film_id INT NOT NULL, last_update TIMESTAMP NOT NULL, PRIMARY KEY (actor_id, film_id),
          CONSTRAINT fk_film_actor_actor FOREIGN KEY (actor_id) REFERENCES actor (actor_id) ON DELETE NO ACTION ON UPDATE CASCADE,
          CONSTRAINT fk_film_actor_film FOREIGN KEY (film_id) REFERENCES film (film_id) ON DELETE NO ACTION ON UPDATE CASCADE);
        INSERT INTO actor VALUES (1, 'PENELOPE', 'GUINESS', '2006-02-15 04:34:33'), (2, 'NICK', 'WAHLBERG', '2006-02-15 04:34:33'),
          (3, 'ED', 'CHASE', '2006-02-15 04:34:33');
        INSERT INTO film VALUES (1, 'ACADEMY DINOSAUR', '2006-02-15 05:03:42'), (2, 'ACE GOLDFINGER', '2006-02-15 05:03:42'),
          (3, 'ADAPTATION HOLES', '2006-02-15 05:03:42');
        INSERT INTO film_actor VALUES (1, 1, '2006-02-15 05:05:03'), (2, 1, '2006-02-15 05:05:03'), (2, 3, '2006-02-15 05:05:03'),
          (3, 3, '2006-02-15 05:05:03');
        """

    @Test func aJoinTableWithARequiredTimeGivesAPairToRead() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        // Members and counts, as SQL joins them.
        #expect(h.string("#film:get(1).actors .. ',' .. #film:get(2).actors .. ',' .. #actor:get(2).films") == "2,0,2")
        let chase = try sqlAnswer(
            path,
            "SELECT count(*) FROM film f WHERE EXISTS (SELECT 1 FROM film_actor j JOIN actor a ON a.actor_id = j.actor_id WHERE j.film_id = f.film_id AND a.last_name = 'CHASE')"
        )
        #expect(h.string(#"count("film", "ANY actors.last_name == 'CHASE'")"#) == chase)
        #expect(h.string(#"count("film", "actors.@count == 2") .. ',' .. count("actor", "films.@count == 0")"#) == "2,0")
        #expect(
            h.string(
                #"(function() local p, n = predicate("ANY actors.last_name == 'CHASE'"), 0; for _, f in ipairs(fetch("film")) do if p:matches(f) then n = n + 1 end end; return n end)()"#
            ) == chase)
        // Its links are not written through the pair: the time has no default.
        let add = h.error("film:get(2).actors:add(actor:get(1))")
        #expect(add.contains("film.actors is read only") && add.contains("film_actor requires last_update"), "\(add)")
        #expect(!add.contains("\n"), "\(add)")
        let remove = h.error("actor:get(2).films:remove(film:get(1))")
        #expect(remove.contains("actor.films is read only") && remove.contains("last_update"), "\(remove)")
        // The table is an entity: its objects write its rows, and the pair reads them.
        #expect(h.string(#"count("film_actor")"#) == "4")
        h.run(
            #"""
            film_actor:new{ actor = actor:get(1), film = film:get(2), last_update = date("2024-01-02T03:04:05Z") }
            save()
            """#)
        #expect(h.string("#film:get(2).actors .. ',' .. #actor:get(1).films") == "1,2")
        #expect(try sqlAnswer(path, "SELECT actor_id || '-' || film_id FROM film_actor WHERE film_id = 2") == "1-2")
    }

    /// The table's own unsaved rows are links of the pair before the save, as its own
    /// to-manys show them (trial 32: a new `film_actor` counted 20 through `film_actors`
    /// and 19 through `films` and `ANY actors.actor_id == 1`): in members, in predicates
    /// in SQLite with the changes merged, and in memory; a row's delete and a change of its
    /// end likewise, and a rollback takes them back.
    @Test func theJoinTablesUnsavedRowsAreLinksOfThePairBeforeTheSave() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        func counts() -> String? {
            h.string(
                #"""
                #actor:get(1).films .. "," .. #actor:get(1).film_actors .. "," .. #film:get(2).actors .. ","
                  .. count("film", "ANY actors.actor_id == 1") .. "," .. count("film", "ANY film_actors.actor_id == 1") .. ","
                  .. count("actor", "films.@count == 2")
                """#)
        }
        #expect(counts() == "1,1,0,1,1,1")
        h.run(#"film_actor:new{ actor = actor:get(1), film = film:get(2), last_update = date("2024-01-02T03:04:05Z") }"#)
        #expect(counts() == "2,2,1,2,2,2")
        #expect(
            h.string(
                #"(function() local t = {} for _, f in ipairs(actor:get(1).films) do t[#t + 1] = f.title end return table.concat(t, ";") end)()"#)
                == "ACADEMY DINOSAUR;ACE GOLDFINGER")
        // Moved to another film before the save: the pair follows the row.
        h.run(#"film_actor:first("film_id == 2 AND actor_id == 1").film = film:get(3)"#)
        #expect(h.string("#film:get(2).actors .. ',' .. #film:get(3).actors .. ',' .. #actor:get(1).films") == "0,3,2")
        h.run("rollback()")
        #expect(counts() == "1,1,0,1,1,1")
        // Rows that swap their films, or a row deleted and another made for its pair,
        // change no member (found by review: each row's change was replayed alone).
        func members() -> String? {
            h.string(
                #"(function() local t = {} for _, f in ipairs(actor:get(2).films) do t[#t + 1] = f.film_id end for _, a in ipairs(film:get(1).actors) do t[#t + 1] = "a" .. a.actor_id end return table.concat(t, ",") end)()"#
            )
        }
        #expect(members() == "1,3,a1,a2")
        h.run(
            #"local r1, r3 = film_actor:first("actor_id == 2 AND film_id == 1"), film_actor:first("actor_id == 2 AND film_id == 3"); r1.film = film:get(3); r3.film = film:get(1)"#
        )
        #expect(members() == "1,3,a1,a2")
        h.run("rollback()")
        h.run(
            #"film_actor:first("actor_id == 2 AND film_id == 1"):delete(); film_actor:new{ actor = actor:get(2), film = film:get(1), last_update = now() }"#
        )
        #expect(members() == "1,3,a1,a2")
        h.run("rollback()")
        // A saved row deleted: its link goes at once from the pair too.
        h.run(#"film_actor:first("actor_id == 2 AND film_id == 3"):delete()"#)
        #expect(h.string("#actor:get(2).films .. ',' .. #film:get(3).actors .. ',' .. count(\"film\", \"ANY actors.actor_id == 2\")") == "1,1,1")
        h.run("save()")
        #expect(h.string("#actor:get(2).films .. ',' .. #film:get(3).actors") == "1,1")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM film_actor") == "3")
    }

    /// A join table with a key of its own may hold a link twice: deleting one of the two
    /// rows leaves the member (found by review).
    @Test func aLinkHeldTwiceStaysWhileARowHoldsIt() throws {
        let path = try foreignFile(
            """
            CREATE TABLE actor (actor_id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE film (film_id INTEGER PRIMARY KEY, title TEXT);
            CREATE TABLE film_actor (id INTEGER PRIMARY KEY, actor_id INT NOT NULL REFERENCES actor (actor_id),
              film_id INT NOT NULL REFERENCES film (film_id), last_update TIMESTAMP NOT NULL);
            INSERT INTO actor VALUES (1, 'A'); INSERT INTO film VALUES (1, 'F'), (2, 'G');
            INSERT INTO film_actor VALUES (1, 1, 1, '2006-02-15'), (2, 1, 1, '2006-02-15'), (3, 1, 2, '2006-02-15');
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"#actor:get(1).films .. "," .. count("actor", "ANY films.film_id == 1")"#) == "2,1")
        h.run("film_actor:get(1):delete()")
        #expect(h.string(#"#actor:get(1).films .. "," .. count("actor", "ANY films.film_id == 1")"#) == "2,1")
        h.run("film_actor:get(2):delete()")
        #expect(h.string(#"#actor:get(1).films .. "," .. count("actor", "ANY films.film_id == 1")"#) == "1,0")
        h.run("save()")
        #expect(h.string(#"#actor:get(1).films .. "," .. count("actor", "ANY films.film_id == 1")"#) == "1,0")
    }
}

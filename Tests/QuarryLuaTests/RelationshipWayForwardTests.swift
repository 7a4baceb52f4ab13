import Foundation
import QuarryShell
import QuarryStore
import Testing

/// Refusals that name the way forward (issue 85, items 5 and 6): a column named after its
/// target keeps the relationship `habit_rel`, and `habit.name` says so; a key the file
/// does not declare (Grafana's `dashboard_version.dashboard_id`) gets the `relate()` that
/// makes the relationship, ready to paste, and `relate()` answers both names it made.
@Suite struct RelationshipWayForwardTests {
    @Test func aColumnNamedAfterItsTargetNamesItsRelationship() throws {
        let path = try foreignFile(
            """
            CREATE TABLE habit (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE rep (id INTEGER PRIMARY KEY, habit INTEGER REFERENCES habit(id), value INT);
            INSERT INTO habit VALUES (1, 'Vegan'), (2, 'Run');
            INSERT INTO rep VALUES (1, 1, 1), (2, 1, 1), (3, 2, 1);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(
            h.error(#"count("rep", "habit.name == 'Vegan'")"#)
                == "t:1: predicate: 'habit' in 'habit.name' is an attribute of rep, not a relationship; the relationship kept in it is 'habit_rel': habit_rel.name at column 1"
        )
        // The form it names answers what sqlite3 answers.
        let vegan = try sqlAnswer(path, "SELECT count(*) FROM rep JOIN habit ON habit.id = rep.habit WHERE habit.name = 'Vegan'")
        #expect(h.string(#"count("rep", "habit_rel.name == 'Vegan'")"#) == vegan)
        #expect(h.string(#"rep:first().habit_rel.name"#) == "Vegan")
        // In Lua the column reads as its number; indexing it names the relationship.
        #expect(
            h.error("return rep:first().habit.name").hasSuffix(
                "attempt to index a number value (field 'habit'); 'habit' of rep is the column, its relationship is 'habit_rel' (o.habit_rel)"))
    }

    static func grafana() throws -> String {
        try foreignFile(
            """
            CREATE TABLE dashboard (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE TABLE dashboard_version (id INTEGER PRIMARY KEY, dashboard_id INTEGER NOT NULL, version INTEGER NOT NULL);
            CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT);
            CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL);
            INSERT INTO dashboard VALUES (1, 'Home'), (2, 'Servers');
            INSERT INTO dashboard_version (dashboard_id, version) VALUES (1, 1), (1, 2), (2, 1), (1, 3);
            INSERT INTO itemTypes VALUES (1, 'book'), (2, 'note');
            INSERT INTO items (itemTypeID) VALUES (1), (2), (2);
            """)
    }

    @Test func anUndeclaredKeyGetsTheRelateThatMakesIt() throws {
        let path = try Self.grafana()
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(
            h.error(#"count("dashboard_version", "dashboard.title == 'Home'")"#)
                == #"t:1: predicate: unknown key 'dashboard' in key path 'dashboard.title' on entity dashboard_version; no relationship 'dashboard' is declared: relate("dashboard_version", "dashboard_id", "dashboard", "id") makes it at column 1"#
        )
        // A stem that names a table in the plural (Zotero's itemTypeID -> itemTypes).
        #expect(
            h.error(#"count("items", "itemType.typeName == 'note'")"#).contains(#"relate("items", "itemTypeID", "itemTypes", "itemTypeID") makes it"#)
        )
        // The column itself, crossed as a relationship, names the same call.
        #expect(
            h.error(#"count("dashboard_version", "dashboard_id.title == 'Home'")"#).contains(
                #"the file declares no relationship through it: relate("dashboard_version", "dashboard_id", "dashboard", "id") makes one"#))
        // In Lua, the key read or written on an object names the same call.
        let relate = #"relate("dashboard_version", "dashboard_id", "dashboard", "id") makes it"#
        #expect(
            h.error("return dashboard_version:first().dashboard").hasSuffix(
                "unknown key 'dashboard' on entity dashboard_version; no relationship 'dashboard' is declared: " + relate))
        #expect(h.error("dashboard_version:first().dashboard = dashboard:first()").contains(relate))
        // A key that suggests nothing still gets the closest one.
        #expect(h.error("return dashboard_version:first().versoin").contains("did you mean 'version'?"))
        // Pasted, it answers both names, and the key path then counts as sqlite3 does.
        h.run(#"local a, b = relate("dashboard_version", "dashboard_id", "dashboard", "id"); __names = a .. " " .. b"#)
        #expect(h.string("__names") == "dashboard dashboard_versions")
        let home = try sqlAnswer(path, "SELECT count(*) FROM dashboard_version JOIN dashboard ON dashboard.id = dashboard_id WHERE title = 'Home'")
        #expect(h.string(#"count("dashboard_version", "dashboard.title == 'Home'")"#) == home)
        #expect(h.string(#"#dashboard:first("title == 'Home'").dashboard_versions"#) == home)
    }
}

/// A date given to a text column of another program's ISO 8601 times (a tracker's
/// `started_at TEXT` holding `2023-05-11 14:08:00`), in `new{}` or `o.key = `: the refusal
/// names the `format()` that makes the column a date, as a predicate comparing it does,
/// and with it the same line is taken.
@Suite struct DateIntoTextColumnTests {
    @Test func theRefusalNamesTheFormatThatMakesTheColumnADate() throws {
        let path = try foreignFile(
            """
            CREATE TABLE activity (id INTEGER PRIMARY KEY, started_at TEXT NOT NULL, sport TEXT);
            INSERT INTO activity (started_at, sport) VALUES ('2023-05-11 14:08:00', 'Run'), ('2024-03-19 18:57:00', 'Ride');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        let hint = #"its text reads as ISO 8601 times: format("activity", "started_at", "iso-space") makes it a date"#
        #expect(h.error(#"activity:new{ sport = "Run", started_at = now() }"#).hasSuffix(hint))
        #expect(h.error("activity:first().started_at = now()").hasSuffix(hint))
        // With the format declared, a date is taken and written as the column writes its times.
        h.run(#"format("activity", "started_at", "iso-space"); activity:new{ sport = "Swim", started_at = date("2024-06-01T07:30:00Z") }; save()"#)
        #expect(try sqlAnswer(path, "SELECT started_at FROM activity WHERE sport = 'Swim'") == "2024-06-01 07:30:00")
    }
}

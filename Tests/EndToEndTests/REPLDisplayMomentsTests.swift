import Foundation
import Testing

/// Display moments of a newcomer's trial on unseen databases (a GTFS feed, a Pokémon
/// database, a Django site), typed as a person types where they are the REPL's: IDs
/// whole, sections under `.maxrows`, no width cap off a terminal, a line chart scaled to
/// its data, diff's inserted and deleted rows with their values, relate()'s sidecar no
/// model difference, help for every fetch{} key, and save()'s result readable.
@Suite struct REPLDisplayMomentsTests {
    /// GTFS routes keyed by long text: the object ID is shown whole in a table that has to
    /// cut its text columns to fit 160 columns; the text columns give up their width.
    @Test func anObjectIDIsShownWholeWhereTextColumnsAreCut() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "g.db",
            """
            CREATE TABLE route (route_id TEXT PRIMARY KEY NOT NULL, agency_id TEXT, route_long_name TEXT, route_desc TEXT,
              route_url TEXT) WITHOUT ROWID;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3)
            INSERT INTO route SELECT 'urn:gtfs:route:nyct:express-line-' || i || '-manhattan-bound', 'MTA',
              'Express line ' || i || ' from the far end of Queens to Lower Manhattan via the long way',
              'Runs weekdays only; weekend service replaced by shuttle buses between the terminals',
              'https://new.mta.info/schedules/subway/express-line-' || i FROM n;
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["g.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let table = try await repl.enter(#"=fetch{ "route", sort = "route_id" }"#)
        #expect(table.allSatisfy { $0.count <= 160 }, "\(table)")
        let ids = try await sqlite3(sandbox, "g.db", "SELECT 'route/' || route_id FROM route ORDER BY route_id").split(separator: "\n")
        let rows = table.dropFirst(2).prefix(ids.count)
        for (id, row) in zip(ids, rows) {
            #expect(row.hasPrefix(id + " "), "the ID whole: \(table)")
        }
        // The long text was cut to make the room.
        #expect(rows.allSatisfy { $0.contains("…") }, "\(table)")
        // diff's key, an object's identity, is whole too where its values are cut.
        try FileManager.default.copyItem(atPath: sandbox.path("g.db"), toPath: sandbox.path("h.db"))
        _ = try await sqlite3(sandbox, "h.db", "UPDATE route SET route_desc = route_desc || route_desc || route_desc")
        let diff = try await repl.enter(#"=diff(open("h.db"))"#)
        let changed = diff.filter { $0.hasPrefix("~ ") }
        #expect(changed.count == ids.count && changed.allSatisfy { $0.contains("…") }, "\(diff)")
        for id in ids {
            #expect(changed.contains { $0.contains(" " + id.dropFirst("route/".count) + " ") }, "\(id) whole: \(diff)")
        }
    }

    /// `.maxrows 6` bounds a sectioned result as it bounds a flat one: every section's rows
    /// together are at most 6, each section says how many it hid, and with more sections
    /// than fit, the last line says how many sections (and objects) were left out.
    @Test func sectionedResultsHonourMaxrows() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "p.db",
            """
            CREATE TABLE pokemon (id INTEGER PRIMARY KEY, name TEXT, generation INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
            INSERT INTO pokemon (name, generation) SELECT 'mon' || i, 1 + (i - 1) / 20 FROM n;
            CREATE TABLE move (id INTEGER PRIMARY KEY, name TEXT, power INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30)
            INSERT INTO move (name, power) SELECT 'move' || i, i FROM n;
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["p.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        _ = try await repl.enter(".maxrows 6")
        let two = try await repl.enter(#"=fetch{ "pokemon", sort = { "generation", "id" }, section = "generation" }"#)
        let objectRows = two.filter { $0.hasPrefix("pokemon/") }
        #expect(objectRows.count == 6, "6 rows in all: \(two)")
        #expect(two.filter { $0.hasPrefix("(20 objects), 17 rows hidden") }.count == 2, "\(two)")
        #expect(two.last == "(2 sections)", "\(two)")
        // Thirty sections of one move each: the first six show, and the rest are counted.
        let many = try await repl.enter(#"=fetch{ "move", sort = "power", section = "power" }"#)
        #expect(many.filter { $0.hasPrefix("move/") }.count == 6, "\(many)")
        #expect(many.last?.hasPrefix("(30 sections), 24 sections (24 objects) not shown (.maxrows") == true, "\(many)")
        // .maxrows 0 shows every row of every section.
        _ = try await repl.enter(".maxrows 0")
        let all = try await repl.enter(#"=fetch{ "pokemon", sort = { "generation", "id" }, section = "generation" }"#)
        #expect(all.filter { $0.hasPrefix("pokemon/") }.count == 40 && all.last == "(2 sections)", "\(all)")
    }

    /// A series between 5,000,000 and 5,100,000 spreads over the chart's rows (it filled
    /// every row of a chart drawn from 0), its labels grouped and short; a series from 0
    /// still rises from 0.
    @Test func aLineChartIsScaledToItsData() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "r.db",
            """
            CREATE TABLE ridership (day INTEGER PRIMARY KEY, riders INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30)
            INSERT INTO ridership SELECT i, 5000000 + (i * 3331) % 100000 FROM n;
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["r.db"], columns: 160)
        try await repl.waitForPrompt()
        let chart = try await repl.enter(#"print(linechart(sql("SELECT day, riders / 7.0 AS r FROM ridership ORDER BY day"), "day", "r"))"#)
        let plot = Array(chart.dropFirst().prefix { !$0.contains("└") && !$0.contains("+-") })
        try #require(plot.count == 12, "\(chart)")
        // The plot right of the axis: columns of many heights, where from 0 every row was
        // full across (the series differs by 2% of its size).
        let cells = plot.map { line in String(line.drop { $0 != "┤" && $0 != "|" }.dropFirst()) }
        let filled = cells.map { $0.count { $0 != " " } }
        #expect((filled.first ?? 0) < (filled.last ?? 0), "fewer columns reach the top than the bottom: \(chart)")
        #expect(Set(cells).count >= 6, "the series spreads over the rows: \(chart)")
        let top = try #require(plot.first?.split(separator: " ").first.map(String.init))
        let bottom = try #require(plot.last?.split(separator: " ").first.map(String.init))
        let range = try await sqlite3(sandbox, "r.db", "SELECT min(riders) / 7.0, max(riders) / 7.0 FROM ridership").split(separator: "|")
        let (least, most) = (Double(range[0]) ?? .nan, Double(range[1]) ?? .nan)
        let number = { (s: String) in Double(s.replacingOccurrences(of: ",", with: "")) ?? .nan }
        // The data's range with a margin, not from 0.
        #expect(number(bottom) <= least && number(bottom) > least - (most - least), "\(chart)")
        #expect(number(top) >= most && number(top) < most + (most - least), "\(chart)")
        #expect(top.count <= 8 && bottom.count <= 8, "short labels, not 14 digits: \(chart)")
        // Counts from 0 rise from a 0 axis.
        let counts = try await repl.enter(#"print(linechart(sql("SELECT day, day % 5 AS n FROM ridership ORDER BY day"), "day", "n"))"#)
        #expect(counts.contains { $0.hasPrefix("0 ") }, "\(counts)")
    }

    /// `print(diff(b))` into a pipe: values whole (no 40-column cut, as sqlite3 writes to a
    /// pipe), an inserted row with its values and a deleted one with what it held.
    @Test func diffIntoAPipeShowsWholeValuesAndInsertedAndDeletedRowsValues() async throws {
        let sandbox = try Sandbox()
        let long = "A very long description of the stop, which goes on about its elevators and its history"
        _ = try await sqlite3(
            sandbox, "a.db",
            """
            CREATE TABLE stops (stop_id TEXT PRIMARY KEY, stop_name TEXT, stop_desc TEXT, stop_lat REAL);
            INSERT INTO stops VALUES ('s1', 'First', '\(long)', 40.5), ('s2', 'Second', 'short', 40.25);
            """)
        try FileManager.default.copyItem(atPath: sandbox.path("a.db"), toPath: sandbox.path("b.db"))
        _ = try await sqlite3(
            sandbox, "b.db",
            """
            UPDATE stops SET stop_desc = stop_desc || ' (renovated)' WHERE stop_id = 's1';
            DELETE FROM stops WHERE stop_id = 's2';
            INSERT INTO stops VALUES ('s3', 'Third "new"', NULL, 41.125);
            """)
        let result = try await sandbox.quarry(["a.db", "-e", #"print(diff(open("b.db")))"#])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let changed = try #require(lines.first { $0.hasPrefix("~ ") }, "\(result)")
        #expect(changed.contains(long + " ") && changed.contains(long + " (renovated)"), "whole values: \(result)")
        let inserted = try #require(lines.first { $0.hasPrefix("+ ") }, "\(result)")
        #expect(inserted.contains(#"stop_name = "Third \"new\"", stop_lat = 41.125"#), "\(result)")
        #expect(!inserted.contains("stop_desc"), "nil values left out: \(result)")
        let deleted = try #require(lines.first { $0.hasPrefix("- ") }, "\(result)")
        #expect(deleted.contains(#"stop_name = "Second", stop_desc = "short", stop_lat = 40.25"#), "\(result)")
        // The fields stay the object's key in `key`, and the values are in new (or old).
        let fields = try await sandbox.quarry([
            "a.db", "-e", #"for _, r in ipairs(diff(open("b.db"))) do print(r.change, r.key, r.old ~= nil, r.new ~= nil) end"#
        ])
        #expect(fields.lines.contains("+\ts3\tfalse\ttrue") && fields.lines.contains("-\ts2\ttrue\tfalse"), "\(fields)")
        // Other printers share the rule: a plain object's long text is whole into a pipe.
        let object = try await sandbox.quarry(["b.db", "-e", #"print(fetch{ "stops", predicate = "stop_id == 's1'" })"#])
        #expect(object.stdout.contains(long + " (renovated)"), "\(object)")
    }

    /// A Pokémon file and its copy: relate() on one (its sidecar) or on both is no
    /// difference of the models; a changed type is still found, through the column.
    @Test func relateInASidecarIsNoModelDifference() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "a.db",
            """
            CREATE TABLE type (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE pokemon (id INTEGER PRIMARY KEY, name TEXT, type_id INTEGER);
            INSERT INTO type VALUES (1, 'grass'), (2, 'fire');
            INSERT INTO pokemon VALUES (1, 'bulbasaur', 1), (2, 'charmander', 2);
            """)
        try FileManager.default.copyItem(atPath: sandbox.path("a.db"), toPath: sandbox.path("b.db"))
        _ = try await sqlite3(sandbox, "b.db", "UPDATE pokemon SET type_id = 2 WHERE id = 1")
        let related = try await sandbox.quarry(["a.db", "-e", #"relate("pokemon", "type_id", "type", "id")"#])
        try #require(related.status == 0 && FileManager.default.fileExists(atPath: sandbox.path("a.db.quarry")), "\(related)")
        let compare = #"for _, r in ipairs(diff(open("b.db"))) do print(r.change, r.entity, r.key, r.property) end"#
        let one = try await sandbox.quarry(["a.db", "-e", compare])
        #expect(one.status == 0, "\(one)")
        #expect(!one.stdout.contains("model"), "no model difference: \(one)")
        #expect(one.lines == ["~\tpokemon\t1\ttype_id"], "\(one)")
        #expect(one.stderr.contains("pokemon.type is declared by relate() for the old store only"), "\(one)")
        // The other way round, and with both sidecars: the same.
        let other = try await sandbox.quarry(["b.db", "-e", #"for _, r in ipairs(diff(open("a.db"))) do print(r.change, r.key) end"#])
        #expect(other.lines == ["~\t1"], "\(other)")
        _ = try await sandbox.quarry(["b.db", "-e", #"relate("pokemon", "type_id", "type", "id")"#])
        let both = try await sandbox.quarry(["a.db", "-e", compare])
        #expect(!both.stdout.contains("model") && both.lines.contains("~\tpokemon\t1\ttype"), "\(both)")
        #expect(!both.stderr.contains("declared by relate()"), "\(both)")
    }

    /// help("group") and every key fetch{} takes lead to help that names the key.
    @Test func helpOfEveryFetchKeyDescribesIt() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox, columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        for key in ["group", "sort", "properties", "section", "limit", "having", "predicate", "args", "offset", "result", "vars"] {
            let text = try await repl.enter(#"help("\#(key)")"#).joined(separator: " ")
            #expect(text.contains("\(key) =") && text.contains("help(fetch)"), "\(key): \(text)")
            #expect(!text.contains("no help"), "\(key): \(text)")
        }
    }

    /// `print(save())` in a batch script says what was saved, and the fields stay counts.
    @Test func saveReturnsAReadableSummary() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([
            "s.db", "-e",
            #"entity "T" { n = "int64" }; for i = 1, 3 do T:new{ n = i } end; print(save()); T:first().n = 9; local s = save(); print(s); print(s.inserted + s.updated + s.deleted)"#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["saved: 3 inserted, 0 updated, 0 deleted", "saved: 0 inserted, 1 updated, 0 deleted", "1"], "\(result)")
    }
}

import Foundation
import QuarryShell
import QuarryStore
import Testing

/// A link matched by value (relate(), or a foreign key naming a column that is not the
/// rowid) whose column is set to name an object inserted since the save: before the save
/// the link reads that object, as the join will once it is saved. It read nothing (found
/// in trial 21 on a GTFS feed: `stops:new{ stop_id = "X1" }`, `st.stop_id = "X1"`, then
/// `st.stop` was nil and `count("stop_times", "stop == nil")` one more than after the
/// save).
@Suite struct UnsavedLinkTargetTests {
    /// The same answers before and after the save, from the object, its inverse and
    /// predicates evaluated in memory.
    static func expectSameAcrossTheSave(_ h: Harness, _ probe: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(h.string(probe) == expected, sourceLocation: sourceLocation)
        h.run("save()")
        #expect(h.string(probe) == expected, sourceLocation: sourceLocation)
    }

    @Test func aRelatedColumnNamingANewObject() throws {
        let path = try foreignFile(
            """
            CREATE TABLE stops (stop_id TEXT, stop_name TEXT);
            CREATE TABLE stop_times (trip_id TEXT, stop_id TEXT);
            INSERT INTO stops VALUES ('A', 'Arad'), ('B', 'Brasov');
            INSERT INTO stop_times VALUES ('1', 'A'), ('1', 'B'), ('2', 'A');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"relate("stop_times", "stop_id", "stops", "stop_id"); s = stops:new{ stop_id = "X1", stop_name = "Nou" }; st = stop_times:first("trip_id == '2'"); st.stop_id = "X1""#
        )
        let probe =
            #"tostring(st.stop and st.stop.stop_name) .. "|" .. #s.stop_times .. "|" .. count("stop_times", "stop == nil") .. "|" .. count("stop_times", "stop.stop_name == 'Nou'") .. "|" .. #fetch("stop_times", "stop.stop_name == 'Nou'") .. "|" .. count("stops", "stop_times.@count == 0")"#
        Self.expectSameAcrossTheSave(h, probe, "Nou|1|0|1|1|0")
    }

    /// A foreign key to a TEXT key declared NOCASE names the new row whatever the case of
    /// its letters; an INTEGER link column names a TEXT code that spells its number, as
    /// SQLite's join converts it.
    @Test func aForeignKeyComparesAsItsJoin() throws {
        let path = try foreignFile(
            """
            CREATE TABLE code (c TEXT PRIMARY KEY COLLATE NOCASE, label TEXT);
            CREATE TABLE item (id INTEGER PRIMARY KEY, c TEXT REFERENCES code(c));
            CREATE TABLE p (id INTEGER PRIMARY KEY, code TEXT UNIQUE, v TEXT);
            CREATE TABLE q (k INTEGER PRIMARY KEY, pcode INTEGER REFERENCES p(code));
            INSERT INTO code VALUES ('AB', 'ab');
            INSERT INTO item VALUES (1, 'AB'), (2, 'AB');
            INSERT INTO p VALUES (1, '7', 'seven');
            INSERT INTO q VALUES (1, 7), (2, 7);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"code:new{ c = "VX", label = "vx" }; item:get(1).c = "vx"; p:new{ id = 5, code = "10", v = "ten" }; q:get(1).pcode = 10"#
        )
        let probe =
            #"tostring(item:get(1).code and item:get(1).code.label) .. "|" .. item:get(2).code.label .. "|" .. count("item", "code.label == 'vx'") .. "|" .. tostring(q:get(1).p and q:get(1).p.v) .. "|" .. count("q", "p.v == 'ten'") .. "|" .. count("q", "p == nil")"#
        Self.expectSameAcrossTheSave(h, probe, "vx|ab|1|ten|1|0")
    }
}

import Foundation
import Testing

/// A SQLite file Quarry did not create gains no table of Quarry's: opening, reading,
/// relate() and saving rows leave `sqlite_master` byte for byte as it was; importing adds
/// the imported table and nothing else. What should outlast the session (relate(), an
/// imported entity's model) is kept beside the file, in `<file>.quarry`, and reopening
/// restores it.
@Suite struct ForeignFileUntouchedTests {
    private static let sqlite3 = URL(fileURLWithPath: "/usr/bin/sqlite3")

    /// Every row of `sqlite_master`, every column quoted, in rowid order, as the sqlite3
    /// shell reads it: what must not change.
    private func schema(_ sandbox: Sandbox) async throws -> [String] {
        let result = try await sandbox.run(
            Self.sqlite3,
            [
                sandbox.path("music.sqlite"),
                "SELECT quote(type) || '|' || quote(name) || '|' || quote(tbl_name) || '|' || rootpage || '|' || quote(sql) FROM sqlite_master ORDER BY rowid"
            ])
        try #require(result.status == 0, "\(result)")
        return result.lines
    }

    private func music(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.run(
            Self.sqlite3,
            [
                sandbox.path("music.sqlite"),
                """
                CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT, artist_id INTEGER REFERENCES artist(id) ON DELETE CASCADE, label TEXT);
                CREATE TABLE label (code TEXT, city TEXT);
                CREATE INDEX album_title ON album (title);
                INSERT INTO artist VALUES (1, 'ann'), (2, 'bob');
                INSERT INTO album VALUES (1, 'one', 1, 'L1'), (2, 'two', 1, 'L2'), (3, 'three', 2, 'L1');
                INSERT INTO label VALUES ('L1', 'Oslo'), ('L2', 'Rome');
                """
            ])
        try #require(made.status == 0, "\(made)")
    }

    @Test func openReadRelateSaveLeaveTheSchemaAsItWas() async throws {
        let sandbox = try Sandbox()
        try await music(sandbox)
        let before = try await schema(sandbox)
        // Open and read.
        let read = try await sandbox.quarry(["music.sqlite", "-e", #"print(#fetch("album"), artist:get(1).album_set[1].title)"#])
        #expect(read.status == 0, "\(read)")
        #expect(try await schema(sandbox) == before)
        // relate(), saving changed, new and deleted rows, and a cascade.
        let saved = try await sandbox.quarry([
            "music.sqlite", "-e",
            """
            relate("album", "label", "label", "code")
            album:get(1).title = "uno"
            album:new{ title = "four", artist_id = 2, label = "L2" }
            artist:get(2):delete()
            save()
            print(album:get(1).label_rel.city, #fetch("album"), #history())
            """
        ])
        #expect(saved.status == 0, "\(saved)")
        #expect(saved.stdout == "Oslo\t2\t0\n")
        #expect(try await schema(sandbox) == before)
        // The relationship comes back from the sidecar; the file still has no table of Quarry's.
        #expect(sandbox.exists("music.sqlite.quarry"))
        let reopened = try await sandbox.quarry(["music.sqlite", "-e", #"print(album:get(2).label_rel.city, #label:first("code == 'L1'").album_set)"#]
        )
        #expect(reopened.status == 0, "\(reopened)")
        #expect(reopened.stdout == "Rome\t1\n")
        #expect(try await schema(sandbox) == before)
    }

    @Test func importAddsOnlyTheImportedTable() async throws {
        let sandbox = try Sandbox()
        try await music(sandbox)
        let before = try await schema(sandbox)
        _ = try sandbox.write("gigs.csv", "city,when,sold\nOslo,2024-01-02,true\nRome,2024-03-04,false\n")
        let imported = try await sandbox.quarry(["music.sqlite", "-e", #"import("gigs.csv", { entity = "gig" }); print(count("gig"))"#])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout == "2\n")
        let after = try await schema(sandbox)
        // Everything that was there, as it was, and besides only the new table's own rows;
        // no table of Quarry's, nor SQLite's sqlite_sequence (the key is no AUTOINCREMENT).
        #expect(Array(after.prefix(before.count)) == before)
        let added = after.dropFirst(before.count).map { $0.split(separator: "|").map(String.init) }
        #expect(added.contains { $0[0] == "'table'" && $0[1] == "'gig'" }, "\(after)")
        #expect(added.allSatisfy { $0[2] == "'gig'" }, "\(after)")
        #expect(!after.contains { $0.contains("quarry_") }, "\(after)")
        // The imported entity's model comes back from the sidecar.
        let reopened = try await sandbox.quarry(["music.sqlite", "-e", #"local g = gig:first("city == 'Rome'"); print(g.sold, #fetch("artist"))"#])
        #expect(reopened.status == 0, "\(reopened)")
        #expect(reopened.stdout == "false\t2\n")
        #expect(try await schema(sandbox) == after)
    }

    /// entity{} in a foreign file (a hierarchy too) keeps its model in the sidecar: the file
    /// gains the entities' tables and views, no quarry_model, and reopening knows them.
    @Test func definedEntitiesLiveInTheSidecar() async throws {
        let sandbox = try Sandbox()
        try await music(sandbox)
        let made = try await sandbox.quarry([
            "music.sqlite", "-e",
            """
            entity "Note" { text = "string", done = "bool" }
            entity("Memo", { parent = "Note" }) { due = "date" }
            Note:new{ text = "a", done = true }; Memo:new{ text = "b", done = false, due = date("2024-05-06T00:00:00Z") }
            save()
            """
        ])
        #expect(made.status == 0, "\(made)")
        #expect(!(try await schema(sandbox)).contains { $0.contains("'quarry_model'") || $0.contains("'quarry_history'") })
        let reopened = try await sandbox.quarry([
            "music.sqlite", "-e", #"local m = Memo:first(); print(count("Note"), Note:first("text == 'a'").done, m.done, m.due)"#
        ])
        #expect(reopened.status == 0, "\(reopened)")
        #expect(reopened.stdout == "2\ttrue\tfalse\t2024-05-06T00:00:00Z\n")
    }

    /// A sidecar that does not read refuses the open in one line naming it, and neither
    /// file changes.
    @Test func aBrokenSidecarIsRefusedInOneLine() async throws {
        let sandbox = try Sandbox()
        try await music(sandbox)
        _ = try sandbox.write("music.sqlite.quarry", "{not json")
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("music.sqlite")))
        let opened = try await sandbox.quarry(["music.sqlite", "-e", #"print(count("artist"))"#])
        #expect(opened.status != 0)
        #expect(opened.errorLines.count == 1 && opened.stderr.contains("music.sqlite.quarry"), "\(opened)")
        #expect(try sandbox.read("music.sqlite.quarry") == "{not json")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.path("music.sqlite"))) == before)
    }

    /// relate() whose sidecar cannot be written (a folder the user may not write) is
    /// refused in one line and leaves no relationship behind.
    @Test func relateThatCannotBeKeptIsNotMade() async throws {
        let sandbox = try Sandbox()
        try await music(sandbox)
        // A directory where the sidecar would go: the rename onto it fails.
        try FileManager.default.createDirectory(atPath: sandbox.path("music.sqlite.quarry.tmp"), withIntermediateDirectories: true)
        let result = try await sandbox.quarry([
            "music.sqlite", "-e",
            """
            print(pcall(relate, "album", "label", "label", "code"))
            print(pcall(function() return album:get(1).label_rel end))
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 2 && result.lines[0].hasPrefix("false") && result.lines[0].contains("music.sqlite.quarry"), "\(result)")
        #expect(result.lines.count == 2 && result.lines[1].hasPrefix("false"), "\(result)")
        // What was in the way is left as it was.
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: sandbox.path("music.sqlite.quarry.tmp"), isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(!sandbox.exists("music.sqlite.quarry"))
    }

    /// A file's own view named `quarry_rows x` beside a view `x`: the temporary view that
    /// keys `x`'s rows takes another name, so SQL naming `quarry_rows x` still reads the
    /// file's (it read Quarry's, `_row` and all, once `x` had been read). No byte changes.
    @Test func aFilesOwnQuarryRowsViewIsNotShadowed() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            Self.sqlite3,
            [
                sandbox.path("v.sqlite"),
                """
                CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT);
                INSERT INTO t VALUES (1, 'p'), (2, 'q');
                CREATE VIEW x AS SELECT a FROM t;
                CREATE VIEW "quarry_rows x" AS SELECT id, a || '!' AS a FROM t;
                """
            ])
        try #require(made.status == 0, "\(made)")
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("v.sqlite")))
        let result = try await sandbox.quarry([
            "v.sqlite", "-e",
            #"""
            print(fetch{ "x", sort = { "a" } }[2].a, count("x"))
            local r = sql('SELECT * FROM "quarry_rows x" ORDER BY id')
            print(#r, r[1].id, r[1].a, r[1]._row)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["q\t2", "2\t1\tp!\tnil"], "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.path("v.sqlite"))) == before)
    }

    /// The same, with a table named after the name the temporary view took then: it takes
    /// another again, so SQL reads the file's table (it read Quarry's view; issue 81).
    @Test func aTableNamedAfterTheTemporaryViewIsNotShadowed() async throws {
        let sandbox = try Sandbox()
        let file = sandbox.path("v.sqlite")
        let made = try await sandbox.run(
            Self.sqlite3,
            [
                file,
                """
                CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT);
                INSERT INTO t VALUES (1, 'p'), (2, 'q');
                CREATE VIEW x AS SELECT a FROM t;
                CREATE TABLE "quarry_rows x" (n INTEGER);
                """
            ])
        try #require(made.status == 0, "\(made)")
        let first = try await sandbox.quarry([
            "v.sqlite", "-e", #"print(count("x")); print(sql("SELECT name FROM sqlite_temp_master WHERE type = 'view'")[1].name)"#
        ])
        try #require(first.status == 0 && first.lines.count == 2, "\(first)")
        let taken = first.lines[1]
        #expect(taken.hasPrefix("quarry_rows x "), "\(first)")
        let table = try await sandbox.run(
            Self.sqlite3, [file, "CREATE TABLE \"\(taken)\" (mine TEXT); INSERT INTO \"\(taken)\" VALUES ('file''s own');"])
        try #require(table.status == 0, "\(table)")
        let result = try await sandbox.quarry([
            "v.sqlite", "-e",
            #"""
            print(fetch{ "x", sort = { "a" } }[2].a, count("x"))
            print(sql('SELECT * FROM "\#(taken)"')[1].mine)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["q\t2", "file's own"], "\(result)")
    }
}

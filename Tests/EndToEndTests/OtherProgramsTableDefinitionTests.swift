import Foundation
import Testing

/// `entity` on a table of a SQLite file Quarry did not make (a newcomer's trial on
/// fiftyville.db and disney.sqlite): a column left out is refused, not dropped with its
/// values; what `.schema` printed, run back, changes nothing (no sidecar that read the
/// table by a `_pk` it does not have); a sidecar already holding such a model is ignored
/// with a note.
@Suite struct OtherProgramsTableDefinitionTests {
    private static let sqlite3 = URL(fileURLWithPath: "/usr/bin/sqlite3")

    private func file(_ sandbox: Sandbox, _ name: String) async throws {
        let made = try await sandbox.run(
            Self.sqlite3,
            [
                sandbox.path(name),
                """
                CREATE TABLE people (id INTEGER, name TEXT, phone_number TEXT, PRIMARY KEY(id));
                CREATE TABLE bank_accounts (account_number INTEGER, person_id INTEGER, FOREIGN KEY(person_id) REFERENCES people(id));
                CREATE TABLE director (movie_title TEXT, director TEXT);
                INSERT INTO people VALUES (1, 'Ann', '555'), (2, 'Bob', NULL);
                INSERT INTO bank_accounts VALUES (10, 1), (11, 1), (12, 2);
                INSERT INTO director VALUES ('Up', 'Docter'), ('Cars', 'Lasseter'), ('Coco', NULL);
                """
            ])
        try #require(made.status == 0, "\(made)")
    }

    private func bytes(_ sandbox: Sandbox, _ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: sandbox.path(name))) }

    @Test func aColumnLeftOutOfAnotherProgramsTableIsRefusedUntilDropNamesIt() async throws {
        let sandbox = try Sandbox()
        try await file(sandbox, "s.sqlite")
        let before = try bytes(sandbox, "s.sqlite")
        let typo = try await sandbox.quarry(["s.sqlite", "-e", #"entity "director" { movie_title = "string?", directr = "string?" }"#])
        #expect(typo.status != 0, "\(typo)")
        #expect(typo.errorLines.count == 1, "\(typo)")
        let line = typo.errorLines.first ?? ""
        for part in [
            "entity director", "director (2 values)", "did you mean 'director' for 'directr'", #"drop = { "director" }"#, "nothing was changed"
        ] {
            #expect(line.contains(part), "\(part) in: \(line)")
        }
        // Not a byte of the file changed: no column dropped, none added, no sidecar.
        #expect(try bytes(sandbox, "s.sqlite") == before)
        #expect(!sandbox.exists("s.sqlite.quarry"))
        // An empty column is the other program's too.
        let empty = try await sandbox.quarry(["s.sqlite", "-e", #"entity "people" { id = "int64?", name = "string?" }"#])
        #expect(empty.status != 0 && empty.stderr.contains("phone_number (1 value)"), "\(empty)")
        #expect(try bytes(sandbox, "s.sqlite") == before)
        // Asked for by name, the column goes, said with its values.
        let dropped = try await sandbox.quarry([
            "s.sqlite", "-e", #"entity("director", { drop = { "director" } }) { movie_title = "string?" }; print(count("director"))"#
        ])
        #expect(dropped.status == 0, "\(dropped)")
        #expect(dropped.stdout == "3\n", "\(dropped)")
        #expect(dropped.stderr.contains("dropped attribute director (2 values)"), "\(dropped)")
        let columns = try await sandbox.run(Self.sqlite3, [sandbox.path("s.sqlite"), "SELECT name FROM pragma_table_info('director')"])
        #expect(columns.lines == ["movie_title"], "\(columns)")
        // `drop` naming what is no column, or what the definition keeps, is refused.
        let wrong = try await sandbox.quarry([
            "s.sqlite", "-e", #"entity("people", { drop = { "nme" } }) { id = "int64?", name = "string?", phone_number = "string?" }"#
        ])
        #expect(wrong.status != 0 && wrong.stderr.contains("drop names 'nme', which is no column of people"), "\(wrong)")
    }

    @Test func whatSchemaPrintedRunBackChangesNothingAndAnAddedColumnKeepsTheKey() async throws {
        let sandbox = try Sandbox()
        try await file(sandbox, "f.db")
        let before = try bytes(sandbox, "f.db")
        for table in ["people", "director"] {
            let schema = try await sandbox.quarry(["f.db"], stdin: ".schema \(table)\n")
            #expect(schema.status == 0 && schema.stdout.contains("entity \"\(table)\""), "\(schema)")
            _ = try sandbox.write("\(table).lua", schema.stdout)
            let back = try await sandbox.quarry(["f.db", "\(table).lua"])
            #expect(back.status == 0 && back.stderr.isEmpty, "\(back)")
        }
        #expect(try bytes(sandbox, "f.db") == before)
        #expect(!sandbox.exists("f.db.quarry"), "\((try? sandbox.read("f.db.quarry")) ?? "")")
        let read = try await sandbox.quarry(["f.db", "-e", #"print(people:get(1).name, #people:get(1).bank_accounts, count("director"))"#])
        #expect(read.status == 0 && read.stderr.isEmpty, "\(read)")
        #expect(read.stdout == "Ann\t2\t3\n", "\(read)")
        // A column added to what .schema printed: the table keeps its key and relationships.
        let added = try await sandbox.quarry([
            "f.db", "-e",
            #"entity "people" { id = "int64?", name = "string?", phone_number = "string?", nickname = "string?", bank_accounts = { many = "bank_accounts", inverse = "person", delete = "deny" } }"#
                + "\n" + #"people:get(2).nickname = "B"; save()"#
        ])
        #expect(added.status == 0 && added.stderr.isEmpty, "\(added)")
        let reopened = try await sandbox.quarry([
            "f.db", "-e", #"print(people:get(2).nickname, #people:get(1).bank_accounts, people:first("nickname == 'B'").id)"#
        ])
        #expect(reopened.status == 0 && reopened.stderr.isEmpty, "\(reopened)")
        #expect(reopened.stdout == "B\t2\t2\n", "\(reopened)")
    }

    /// Sidecars written before this (a `.schema` run back) keep a model of the file's own
    /// table keyed by `_pk`: the table is read as the file has it, and a note says so.
    @Test func aSidecarKeepingAModelOfTheFilesOwnTableIsIgnoredWithANote() async throws {
        let sandbox = try Sandbox()
        try await file(sandbox, "f.db")
        let definition =
            #"{"attributes":[{"isIndexed":false,"isOptional":true,"isUnique":false,"name":"id","type":"int64"},"#
            + #"{"isIndexed":false,"isOptional":true,"isUnique":false,"name":"name","type":"string"}],"name":"people","primaryKey":"_pk","relationships":[]}"#
        let entities = try JSONSerialization.data(withJSONObject: [["name": "people", "definition": definition]])
        _ = try sandbox.write(
            "f.db.quarry",
            #"{"quarry": 1, "relate": [], "entities": "# + String(decoding: entities, as: UTF8.self) + #", "formats": [], "templates": []}"#)
        let read = try await sandbox.quarry(["f.db", "-e", #"print(people:first().name, #people:get(1).bank_accounts)"#])
        #expect(read.status == 0, "\(read)")
        #expect(read.stdout == "Ann\t2\n", "\(read)")
        #expect(read.errorLines.count == 1 && read.stderr.contains("keeps a model of people keyed by _pk"), "\(read)")
    }
}

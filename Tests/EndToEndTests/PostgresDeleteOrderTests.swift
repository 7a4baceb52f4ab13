import Foundation
import QuarryTestSupport
import Testing

/// A delete takes what PostgreSQL's `DELETE` takes: the keys naming a row act in the order
/// of their triggers (the key made first acts first), a cascade running before the next
/// key acts, and a RESTRICT or NO ACTION key is checked at its turn. So a child's RESTRICT
/// or NO ACTION key declared before its CASCADE key to the same parent refuses the
/// parent's delete, and one declared after it does not (SQLite's order is the reverse).
@Suite struct PostgresDeleteOrderTests {
    @Test func keysActInTheServersOrder() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE p (id integer PRIMARY KEY, label text);
            CREATE TABLE c1 (id integer PRIMARY KEY, a integer REFERENCES p ON DELETE CASCADE, b integer REFERENCES p ON DELETE RESTRICT, note text);
            CREATE TABLE c2 (id integer PRIMARY KEY, b integer REFERENCES p ON DELETE RESTRICT, a integer REFERENCES p ON DELETE CASCADE, note text);
            CREATE TABLE c3 (id integer PRIMARY KEY, a integer REFERENCES p ON DELETE CASCADE, b integer REFERENCES p ON DELETE NO ACTION, note text);
            CREATE TABLE c4 (id integer PRIMARY KEY, b integer REFERENCES p ON DELETE NO ACTION, a integer REFERENCES p ON DELETE CASCADE, note text);
            CREATE TABLE c5 (id integer PRIMARY KEY, b integer REFERENCES p ON DELETE NO ACTION DEFERRABLE INITIALLY DEFERRED,
              a integer REFERENCES p ON DELETE CASCADE, note text);
            INSERT INTO p VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e');
            INSERT INTO c1 VALUES (1, 1, 1); INSERT INTO c2 VALUES (1, 2, 2); INSERT INTO c3 VALUES (1, 3, 3);
            INSERT INTO c4 VALUES (1, 4, 4); INSERT INTO c5 VALUES (1, 5, 5);
            """)
        let url = try await PostgresServer.database("deleteorder")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        // What the server takes, each in a transaction rolled back.
        let server = try await serverTakes(1...5, sandbox, url, then: "SET CONSTRAINTS ALL IMMEDIATE; ")
        #expect(server == ["1\ttrue", "2\tfalse", "3\ttrue", "4\tfalse", "5\ttrue"], "\(server)")
        try sandbox.write(
            "delete.lua",
            Self.triesEach(1...5) + """
                p:get(1):delete(); p:get(5):delete()
                print(save().deleted, count("p"), count("c1"), count("c5"))
                """)
        let result = try await sandbox.quarry([url, "delete.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(Array(result.lines.prefix(5)) == server, "\(result)")
        #expect(result.lines.last == "4\t3\t0\t0", "\(result)")
    }

    /// A key added later (`ALTER TABLE ... ADD FOREIGN KEY`) acts later, whatever its
    /// column's place: a RESTRICT key added after a CASCADE key of the same child lets the
    /// cascade take the child first, and one added before it refuses.
    @Test func keysActInTheOrderTheyWereMadeNotOfTheirColumns() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE p (id integer PRIMARY KEY, label text);
            CREATE TABLE later_restrict (id integer PRIMARY KEY, r integer, c integer REFERENCES p ON DELETE CASCADE, note text);
            CREATE TABLE early_restrict (id integer PRIMARY KEY, c integer, r integer REFERENCES p ON DELETE RESTRICT, note text);
            ALTER TABLE later_restrict ADD FOREIGN KEY (r) REFERENCES p ON DELETE RESTRICT;
            ALTER TABLE early_restrict ADD FOREIGN KEY (c) REFERENCES p ON DELETE CASCADE;
            INSERT INTO p VALUES (1, 'a'), (2, 'b');
            INSERT INTO later_restrict VALUES (1, 1, 1); INSERT INTO early_restrict VALUES (1, 2, 2);
            """)
        let url = try await PostgresServer.database("deleteordermade")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        let server = try await serverTakes(1...2, sandbox, url)
        #expect(server == ["1\ttrue", "2\tfalse"], "\(server)")
        try sandbox.write(
            "delete.lua",
            Self.triesEach(1...2) + """
                p:get(1):delete()
                print(save().deleted, count("p"), count("later_restrict"), count("early_restrict"))
                """)
        let result = try await sandbox.quarry([url, "delete.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(Array(result.lines.prefix(2)) == server, "\(result)")
        #expect(result.lines.last == "2\t1\t0\t1", "\(result)")
    }

    /// A cascade's deletes act on their own children after the parent's other keys: the
    /// server queues their triggers behind the ones already waiting. So a grandchild's
    /// RESTRICT key to the parent refuses the delete, though a cascade from its parent
    /// would have taken it later (SQLite's cascades act at once and take it first). (A
    /// column of its own keeps `alpha` a child, not a join table of p and zeta.)
    @Test func aCascadesOwnCascadesActAfterTheParentsOtherKeys() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE p (id integer PRIMARY KEY);
            CREATE TABLE zeta (id integer PRIMARY KEY, p_id integer REFERENCES p ON DELETE CASCADE);
            CREATE TABLE alpha (id integer PRIMARY KEY, p_id integer REFERENCES p ON DELETE RESTRICT, z_id integer REFERENCES zeta ON DELETE CASCADE, note text);
            CREATE TABLE beta (id integer PRIMARY KEY, z_id integer REFERENCES zeta ON DELETE CASCADE);
            INSERT INTO p VALUES (1), (2);
            INSERT INTO zeta VALUES (1, 1), (2, 2);
            INSERT INTO alpha VALUES (1, 1, 1, NULL);
            INSERT INTO beta VALUES (1, 2);
            """)
        let url = try await PostgresServer.database("deleteordercascades")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        let server = try await serverTakes(1...2, sandbox, url)
        #expect(server == ["1\tfalse", "2\ttrue"], "\(server)")
        try sandbox.write(
            "delete.lua",
            Self.triesEach(1...2) + """
                p:get(2):delete()
                print(save().deleted, count("p"), count("zeta"), count("beta"))
                """)
        let result = try await sandbox.quarry([url, "delete.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(Array(result.lines.prefix(2)) == server, "\(result)")
        #expect(result.lines.last == "3\t1\t1\t0", "\(result)")
    }

    /// For each id, whether the server takes `DELETE FROM p WHERE id = ...` (then
    /// `then`), each in a transaction rolled back: "id<TAB>true" or "false".
    private func serverTakes(_ ids: ClosedRange<Int>, _ sandbox: Sandbox, _ url: String, then: String = "") async throws -> [String] {
        var answers: [String] = []
        for id in ids {
            let run = try await sandbox.run(
                URL(fileURLWithPath: "/usr/bin/psql"),
                ["-v", "ON_ERROR_STOP=1", "-Atc", "BEGIN; DELETE FROM p WHERE id = \(id); \(then)ROLLBACK", url], timeout: 60)
            answers.append("\(id)\t\(run.status == 0)")
        }
        return answers
    }

    /// Lua printing the same for Quarry: each id's delete tried, then rolled back.
    private static func triesEach(_ ids: ClosedRange<Int>) -> String {
        """
        for id = \(ids.lowerBound), \(ids.upperBound) do
          print(id, (pcall(function() p:get(id):delete() end)))
          rollback()
        end

        """
    }
}

import Foundation
import Testing

/// Two copies of a file with views (Sakila's six): `.diff` compares their tables and
/// leaves each view out with a note, where the first view stopped it ("has no identity
/// to match objects by") and the dot-command could not name a key for it. `by` or
/// `entities` naming a view still compares it.
@Suite struct DiffWithViewsTests {
    @Test func viewsAreLeftOutOfAWholeStoreDiffSaid() async throws {
        let sandbox = try Sandbox()
        let schema = """
            CREATE TABLE film (film_id INTEGER PRIMARY KEY, title TEXT, rate REAL);
            CREATE VIEW cheap AS SELECT title FROM film WHERE rate < 1;
            """
        for (file, rows) in [("a.db", "(1, 'A', 0.99), (2, 'B', 2.99)"), ("b.db", "(1, 'A', 0.49), (2, 'B', 2.99), (3, 'C', 0.99)")] {
            let made = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(file), schema + "INSERT INTO film VALUES \(rows);"])
            try #require(made.status == 0, "\(made)")
        }
        let result = try await sandbox.quarry(["a.db", "-"], stdin: ".diff b.db\n")
        #expect(result.status == 1, "they differ: \(result)")
        #expect(result.lines.contains { $0.hasPrefix("~ ") && $0.contains("0.99") && $0.contains("0.49") }, "\(result)")
        #expect(result.lines.contains { $0.hasPrefix("+ ") && $0.contains("C") }, "\(result)")
        #expect(
            result.errorLines.contains {
                $0.contains(#"cheap not compared: a view, whose rows have no key of their own (by = { cheap = "key" } compares it)"#)
            },
            "\(result)")
        // Named, it is compared by the key given.
        let named = try await sandbox.quarry(["a.db", "-e", #"print(#diff(nil, open("b.db"), { by = { cheap = "title" } }))"#])
        #expect(named.status == 0 && named.lines.last == "3", "\(named)")
    }

    /// The employees sample's `tchecksum` has no key: `.diff` compared nothing at all ("diff:
    /// entity tchecksum has no identity …"). It is left out, named in one note, and the
    /// rest of the file is compared.
    @Test func aTableWithoutAKeyIsLeftOutOfDotDiffSaid() async throws {
        let sandbox = try Sandbox()
        let schema = """
            CREATE TABLE employee (emp_no INTEGER PRIMARY KEY, last_name TEXT);
            CREATE TABLE tchecksum (chk_date TEXT, chk_result TEXT);
            """
        for (file, rows) in [("a.db", "(1, 'Facello'), (2, 'Simmel')"), ("b.db", "(1, 'Facello'), (2, 'Bamford')")] {
            let made = try await sandbox.run(
                HostileFileTests.sqlite3,
                [sandbox.path(file), schema + "INSERT INTO employee VALUES \(rows); INSERT INTO tchecksum VALUES ('x', 'y');"])
            try #require(made.status == 0, "\(made)")
        }
        let result = try await sandbox.quarry(["a.db", "-"], stdin: ".diff b.db\n")
        #expect(result.status == 1, "they differ: \(result)")
        #expect(result.lines.contains { $0.hasPrefix("~ ") && $0.contains("Simmel") && $0.contains("Bamford") }, "\(result)")
        let notes = result.errorLines.filter { $0.contains("tchecksum") }
        #expect(notes.count == 1 && notes[0].contains("not compared, having no key to match objects by"), "\(result)")
        #expect(notes.first?.hasSuffix("tchecksum (.diff b.db tchecksum by KEY compares it)") == true, "\(result)")
        #expect(!result.errorLines.contains { $0.contains("has no identity") }, "\(result)")
    }

    /// Rows added to a table without a key: `.diff` said "no differences". The counts are
    /// compared, and a diff that left tables out never says "no differences".
    @Test func aTableWithoutAKeyIsComparedByItsRowCount() async throws {
        let sandbox = try Sandbox()
        for (file, rows) in [("a.db", "('Gold'), ('Silver')"), ("b.db", "('Gold'), ('Silver'), ('Bronze')"), ("c.db", "('Gold'), ('Bronze')")] {
            let made = try await sandbox.run(
                HostileFileTests.sqlite3, [sandbox.path(file), "CREATE TABLE events (medal TEXT); INSERT INTO events VALUES \(rows);"])
            try #require(made.status == 0, "\(made)")
        }
        let more = try await sandbox.quarry(["a.db", "-"], stdin: ".diff b.db\n")
        #expect(more.lines == ["events: 1 more row in b.db (2 against 3, not compared row by row)"], "\(more)")
        #expect(more.errorLines.contains { $0.contains("not compared, having no key") }, "\(more)")
        let fewer = try await sandbox.quarry(["b.db", "-"], stdin: ".diff a.db\n")
        #expect(fewer.lines == ["events: 1 more row in this store (3 against 2, not compared row by row)"], "\(fewer)")
        // As many rows, other values: not "no differences", which nothing compared; with
        // no table compared at all, no answer, and a status that says so (trial 33).
        let same = try await sandbox.quarry(["a.db", "-"], stdin: ".diff c.db\n")
        #expect(same.lines.isEmpty && same.status != 0, "\(same)")
        #expect(same.errorLines.contains { $0.contains(".diff: nothing was compared: no table has a key to match its objects by") }, "\(same)")
        // Beside a table that is compared, the others' absence is said with the answer.
        for file in ["a.db", "c.db"] {
            let made = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(file), "CREATE TABLE k (id INTEGER PRIMARY KEY, v TEXT);"])
            try #require(made.status == 0, "\(made)")
        }
        let some = try await sandbox.quarry(["a.db", "-"], stdin: ".diff c.db\n")
        #expect(some.lines == ["no differences in the tables compared"] && some.status == 0, "\(some)")
    }
}

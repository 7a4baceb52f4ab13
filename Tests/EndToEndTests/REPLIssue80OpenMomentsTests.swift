import Foundation
import Testing

/// The newcomer moments of issue 80 still open after its other fixes, typed as a person
/// types: `.changes` saying what changed, help for a dot-command from help(), and the
/// other moments each test names.
@Suite struct REPLIssue80OpenMomentsTests {
    /// A budget another program made: categories and their transactions.
    private func budget(_ sandbox: Sandbox) async throws {
        _ = try await sqlite3(
            sandbox, "budget.db",
            """
            CREATE TABLE categories (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE transactions (id INTEGER PRIMARY KEY, payee TEXT, amount REAL, category_id INTEGER REFERENCES categories (id));
            INSERT INTO categories (name) VALUES ('food'), ('rent'), ('fun');
            INSERT INTO transactions (payee, amount, category_id) VALUES ('Aldi', 10, 1), ('Aldi', 12, 1), ('Landlord', 900, 2);
            """)
    }

    /// `.changes` lists each updated object with its changed keys as `key: old → new` (a
    /// sum's float noise as Lua's tostring shows it, text quoted, a to-one as its object),
    /// an inserted one with its values, a deleted one alone; as o:changes() gives them.
    @Test func changesSayWhatChanged() async throws {
        let sandbox = try Sandbox()
        try await budget(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["budget.db"], columns: 200)
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"t = fetch("transactions", "id == 1")[1]"#)
        _ = try await repl.enter(#"t.amount = 0.1 + 0.2; t.payee = "Aldi Süd""#)
        _ = try await repl.enter(#"t.category = fetch("categories", "name == 'fun'")[1]"#)
        _ = try await repl.enter(#"transactions:new{ payee = "Bakery", amount = 4.5 }"#)
        _ = try await repl.enter(#"fetch("transactions", "id == 3")[1]:delete()"#)
        let changes = try await repl.enter(".changes")
        #expect(
            changes == [
                #"inserted: transactions/t1  payee: "Bakery", amount: 4.5"#,
                #"updated: transactions/1  amount: 10.0 → 0.3, category_id: 1 → 3, payee: "Aldi" → "Aldi Süd", category: categories/1 → categories/3"#,
                "deleted: transactions/3"
            ], "\(changes)")
        // As o:changes() has them.
        #expect(try await repl.enter("=t:changes().amount[2]") == ["0.3"])
        // Two updated objects: one a line, the second under the first.
        _ = try await repl.enter(#"fetch("transactions", "id == 2")[1].amount = 13"#)
        let two = try await repl.enter(".changes")
        #expect(two.count == 4 && two[1].hasPrefix("updated: transactions/1  ") && two[2] == "         transactions/2  amount: 12.0 → 13.0", "\(two)")
        _ = try await repl.enter("rollback()")
        #expect(try await repl.enter(".changes") == ["inserted: none", "updated: none", "deleted: none"])
    }

    /// A table `.import` (or `import()`) made in another program's file heads its object
    /// IDs `objectID`, as that file's own tables do (it was headed `id`); in Quarry's own
    /// file an imported table keeps `id`.
    @Test func anImportedTableOfAForeignFileIsHeadedAsItsOtherTables() async throws {
        let sandbox = try Sandbox()
        try await budget(sandbox)
        try "name,age\nAnn,31\nBob,40\n".write(to: sandbox.directory.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let repl = try await TmuxSession(sandbox, arguments: ["budget.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let imported = try await repl.enter(".import people.csv people")
        #expect(imported.last == "2 rows imported into people", "\(imported)")
        let people = try await repl.enter(#"fetch("people")"#)
        #expect(people.first?.hasPrefix("objectID ") == true, "\(people)")
        let own = try await repl.enter(#"fetch("categories", "id == 1")"#)
        #expect(own.first?.hasPrefix("objectID ") == true, "\(own)")
        // One object shown alone, and import() the same way.
        #expect(try await repl.enter(#"=people:first()"#).first?.hasPrefix("objectID ") == true)
        _ = try await repl.enter(#"import("people.csv", "friends")"#)
        #expect(try await repl.enter(#"fetch("friends")"#).first?.hasPrefix("objectID ") == true)
        // Reopened: the sidecar's entity the same.
        _ = try await repl.enter(".open budget.db")
        #expect(try await repl.enter(#"fetch("people")"#).first?.hasPrefix("objectID ") == true)
        // Quarry's own file keeps id.
        _ = try await repl.enter(".open own.db")
        _ = try await repl.enter(".import people.csv people")
        #expect(try await repl.enter(#"fetch("people")"#).first?.hasPrefix("id ") == true)
    }

    /// `.schema` after `relate()` on another program's file says plainly what the
    /// relationship is and what keeps it (the sidecar, or the file's foreign key), the
    /// names it also answers to once, on its own line.
    @Test func schemaAfterRelateSaysWhereTheRelationshipIsKept() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "pets.db",
            """
            CREATE TABLE owner (oid INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE pet (id INTEGER PRIMARY KEY, name TEXT, owner_oid INTEGER);
            CREATE TABLE vet (id INTEGER PRIMARY KEY, pet_id INTEGER REFERENCES pet (id));
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["pets.db"], columns: 250)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        _ = try await repl.enter(#"relate("pet", "owner_oid", "owner", "oid")"#)
        let schema = try await repl.enter(".schema")
        #expect(
            schema.contains(
                #"-- owner: to-one to owner by owner_oid (relate("pet", "owner_oid", "owner", "oid", "owner") made it; kept in pets.db.quarry beside the file, which is unchanged); also read as owner_oid_owner"#
            ), "\(schema)")
        #expect(
            schema.contains(
                #"-- pet: to-one to pet by pet_id (the file's foreign key; relate("vet", "pet_id", "pet", "id", "pet") declares the same elsewhere)"#),
            "\(schema)")
        #expect(schema.contains(#"  pets = { many = "pet", inverse = "owner", delete = "deny" },  -- also read as pet_set"#), "\(schema)")
        // No name said twice, no "already read so".
        #expect(schema.filter { $0.contains("also read as") }.count == 3 && !schema.contains { $0.contains("already read") }, "\(schema)")
    }

    /// `help(".diff")` gives the dot-command's help, as `.help diff` does (it answered
    /// "no help for '.diff'"), for every dot-command; a typo is suggested.
    @Test func helpOfADotCommandIsItsDotHelp() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox, arguments: [], columns: 200)
        try await repl.waitForPrompt()
        let dot = try await repl.enter(".help diff")
        #expect(dot.first?.hasPrefix(".diff ") == true, "\(dot)")
        #expect(try await repl.enter(#"help(".diff")"#) == dot)
        for command in ["changes", "schema", "open", "quit", "help"] {
            let shown = try await repl.enter(#"help(".\#(command)")"#)
            #expect(shown == (try await repl.enter(".help \(command)")) && shown.first?.hasPrefix(".\(command)") == true, "\(shown)")
        }
        let typo = try await repl.enter(#"help(".dif")"#).joined(separator: " ")
        #expect(typo.contains("no help for '.dif'") && typo.contains("did you mean '.diff'"), "\(typo)")
    }

    /// `diff(b, { by = ... })`: one store and a table of options compares the session's
    /// store with b under them, as `diff(nil, b, { ... })` does (it was refused).
    @Test func diffTakesOptionsAfterOneStore() async throws {
        let sandbox = try Sandbox()
        for (file, rows) in [("a.db", "(1, 'x', 1.0), (2, 'y', 2.0)"), ("b.db", "(5, 'x', 1.0), (6, 'y', 2.5)")] {
            _ = try await sqlite3(sandbox, file, "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, v REAL); INSERT INTO t VALUES \(rows);")
        }
        let result = try await sandbox.quarry([
            "a.db", "-e",
            #"""
            local b = open("b.db")
            local d = diff(b, { by = { t = "name" } })
            local same = diff(nil, b, { by = { t = "name" } })
            -- Matched by name, x and y differ in their ids (and y in v): 3 rows, as with nil first.
            print(#d, #same, d[1].change, d[1].property, d[1].old, d[1].new)
            print(#diff(b, { by = { t = "name" }, tolerance = { v = 1 } }))
            print(#diff(b))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["3\t3\t~\tid\t1\t5", "2", "4"], "\(result)")
    }

    /// `count()` under `.explain on` shows the COUNT statement's SQL, its arguments and
    /// plan, as a printed fetch is explained (it printed nothing explained); with unsaved
    /// changes that make it counted in memory, one line says so.
    @Test func countIsExplainedUnderExplainOn() async throws {
        let sandbox = try Sandbox()
        try await budget(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["budget.db"], columns: 200)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".explain on")
        let counted = try await repl.enter(#"=count("transactions", "amount > %@", 11)"#)
        #expect(counted.first?.hasPrefix("SQL: SELECT count(") == true, "\(counted)")
        #expect(counted.contains { $0.hasPrefix("arguments: [11") } && counted.contains("plan:") && counted.last == "2", "\(counted)")
        _ = try await repl.enter(#"transactions:new{ payee = "Bakery", amount = 40 }"#)
        let merged = try await repl.enter(#"=count("transactions", "amount > %@", 11)"#)
        #expect(merged.count == 2 && merged[0].hasPrefix("counted in memory: unsaved changes to transactions") && merged[1] == "3", "\(merged)")
        _ = try await repl.enter(".explain off")
        #expect(try await repl.enter(#"=count("transactions", "amount > %@", 11)"#) == ["3"])
    }
}

import Foundation
import QuarryTestSupport
import Testing

/// `open()` through the binary: a Quarry file as the session's store, another Quarry file,
/// another program's SQLite file and a copy of a Core Data store open at once; objects
/// read, changed and saved in each, copied across, and refused as links across.
@Suite struct OpenSeveralStoresTests {
    /// A SQLite file another program made (the sqlite3 shell): authors and their books.
    func foreignFile(_ sandbox: Sandbox) async throws -> String {
        try sandbox.write(
            "shelf.sql",
            """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author_id INTEGER REFERENCES author(id));
            INSERT INTO author VALUES (1, 'Le Guin'), (2, 'Lem');
            INSERT INTO book VALUES (1, 'The Dispossessed', 1), (2, 'Solaris', 2), (3, 'Lathe of Heaven', 1);
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "shelf.db", file: "shelf.sql")
        return "shelf.db"
    }

    func coreDataCopy(_ sandbox: Sandbox) throws -> String {
        let source = try CoreDataFixtures.path("cars/SampleModel_V1.sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: sandbox.path("cars.sqlite" + suffix))
        }
        return "cars.sqlite"
    }

    /// What the sqlite3 shell answers to `sql` on the file `name` of the sandbox.
    func answer(_ sandbox: Sandbox, _ name: String, _ sql: String) async throws -> String {
        let result = try await sandbox.run(URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell()), [name, sql], timeout: 60)
        guard result.status == 0 else { throw HarnessError("sqlite3 \(sql) failed: \(result)") }
        return result.lines.joined(separator: ",")
    }

    @Test func fourStoresOpenAtOnceEachSavingItsOwn() async throws {
        let sandbox = try Sandbox()
        let shelf = try await foreignFile(sandbox)
        let cars = try coreDataCopy(sandbox)
        let carsBefore = try Data(contentsOf: URL(fileURLWithPath: sandbox.path(cars)))
        let result = try await sandbox.quarry([
            "main.sqlite", "-e",
            #"""
            entity "Car" { maker = "string?", model = "string?", numberPlate = "string" }
            local f = open("shelf.db")
            local cd = open("cars.sqlite", { readonly = true })
            local b = open("other.sqlite")
            print(#stores(), tostring(stores()[1] == stores()[1]), typeof(b))
            print(count(cd, "Car"), cd.Car:count("maker == 'McLaren'"), count("Car"))
            -- The foreign file: read through its relationships, changed, saved by itself.
            local book = f.book:first("title == %@", "Solaris")
            print(book.author.name, #f.author:get(1).books)
            book.title = "Solaris (1961)"
            print(tostring(haschanges(f)), tostring(haschanges()), save(f).updated)
            -- Copies of the Core Data store's cars into the session's store.
            local copies, left = copy(fetch(cd, "Car", "maker == 'McLaren'"), stores()[1])
            print(#copies, table.concat(left, "; "))
            print(save().inserted, count("Car", "maker == 'McLaren'"))
            -- Another Quarry file, made by open(), with an entity of its own.
            entity(b, "Shelf", { title = "string", author = "string?" })
            for _, x in ipairs(fetch(f, "book", "author.name == 'Le Guin'")) do
              b.Shelf:new{ title = x.title, author = x.author.name }
            end
            print(save(b).inserted, b.Shelf:count())
            -- A link across stores is refused in one line.
            local ok, message = pcall(function() f.book:first().author = cd.Person:first() end)
            print(tostring(ok), message)
            local ok2 = pcall(function() cd.Car:first().model = "changed"; return save(cd) end)
            print(tostring(ok2))
            b:close()
            print(#stores(), pcall(count, b, "Shelf"))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        let carsAfter = try Data(contentsOf: URL(fileURLWithPath: sandbox.path(cars)))
        let mclarens = try await answer(sandbox, cars, "SELECT count(*) FROM ZCAR WHERE ZMAKER = 'McLaren'")
        let lines = result.lines
        #expect(lines.count == 10, "\(result)")
        guard lines.count == 10 else { return }
        #expect(lines[0] == "4\ttrue\tstore")
        #expect(lines[1] == "125\t\(mclarens)\t0")
        #expect(lines[2] == "Lem\t2")
        #expect(lines[3] == "true\tfalse\t1")
        #expect(
            lines[4].hasPrefix(mclarens + "\t") && lines[4].contains("Car.color: the target entity Car in ")
                && lines[4].contains(" has no attribute color") && lines[4].contains("Car.owner"), "\(lines[4])")
        #expect(lines[5] == "\(mclarens)\t\(mclarens)")
        #expect(lines[6] == "2\t2")
        #expect(lines[7].hasPrefix("false\t") && lines[7].contains("objects of two stores cannot be related"), "\(lines[7])")
        #expect(lines[8] == "false", "a read-only store refuses a save")
        #expect(lines[9].hasPrefix("3\tfalse\t") && lines[9].contains("other.sqlite is closed"), "\(lines[9])")
        // Each file holds what its own save wrote; the Core Data store is untouched.
        #expect(try await answer(sandbox, shelf, "SELECT title FROM book WHERE id = 2") == "Solaris (1961)")
        #expect(try await answer(sandbox, "main.sqlite", "SELECT count(*) FROM sqlite_master WHERE name LIKE '%Shelf%'") == "0")
        #expect(try await answer(sandbox, "other.sqlite", "SELECT count(*) FROM sqlite_master WHERE name LIKE '%Car%'") == "0")
        #expect(carsAfter == carsBefore, "the Core Data store changed")
    }

    /// `--readonly` opens every store read-only, and `--safe` makes no new file.
    @Test func readonlyAndSafeHoldForOpenedStores() async throws {
        let sandbox = try Sandbox()
        let shelf = try await foreignFile(sandbox)
        let readonly = try await sandbox.quarry([
            "--readonly", "-e",
            #"local f = open("shelf.db"); f.book:first().title = "x"; print(pcall(save, f))"#
        ])
        #expect(readonly.status == 0 && readonly.lines.first?.hasPrefix("false\t") == true, "\(readonly)")
        #expect(try await answer(sandbox, shelf, "SELECT title FROM book WHERE id = 1") == "The Dispossessed")
        let safe = try await sandbox.quarry(["--safe", "-e", #"print(pcall(open, "new.sqlite")); print(count(open("shelf.db"), "book"))"#])
        #expect(safe.status == 0, "\(safe)")
        #expect(safe.lines.first?.contains("--safe does not create files") == true, "\(safe)")
        #expect(safe.lines.last == "3", "\(safe)")
        #expect(!sandbox.exists("new.sqlite"))
    }

    /// A PostgreSQL schema opened beside a SQLite file: read, copied into, saved by
    /// `save(pg)` alone, watched (a script prints the table once), and counted by `sql(pg)`.
    @Test func aPostgreSQLSchemaBesideASQLiteFile() async throws {
        let sandbox = try Sandbox()
        let shelf = try await foreignFile(sandbox)
        let url = try await PostgresStoreTests.database(
            "severalstores", in: sandbox,
            schema: """
                CREATE TABLE book (id integer PRIMARY KEY, title text NOT NULL, pages integer);
                INSERT INTO book VALUES (100, 'Kindred', 264), (101, 'Dawn', 248);
                """)
        let result = try await sandbox.quarry([
            shelf, "-e",
            #"""
            local pg = open("\#(url)")
            print(count(pg, "book"), pg.book:get(100).title, count("book"))
            local copies, left = copy(fetch("book", "author.name == %@", "Le Guin"), pg)
            print(#copies, table.concat(left, "; "))
            print(tostring(haschanges(pg)), tostring(haschanges()), save(pg).inserted)
            print(count(pg, "book"), sql(pg, "SELECT count(*) AS n FROM book WHERE pages IS NULL")[1].n)
            watch(fetch(pg, { "book", predicate = "pages == nil", sort = { "title" } }))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count >= 4, "\(result)")
        guard result.lines.count >= 4 else { return }
        #expect(result.lines[0] == "2\tKindred\t3")
        #expect(
            result.lines[1].hasPrefix("2\t") && result.lines[1].contains("book.author_id: the target entity book in postgres")
                && result.lines[1].contains(" has no attribute author_id"), "\(result.lines[1])")
        #expect(result.lines[2] == "true\tfalse\t2")
        #expect(result.lines[3] == "4\t2")
        let watched = result.lines.dropFirst(4).joined(separator: "\n")
        #expect(watched.contains("Lathe of Heaven") && watched.contains("The Dispossessed") && !watched.contains("Kindred"), "\(watched)")
        let rows = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"), ["-Atc", "SELECT id || ':' || title FROM book ORDER BY id", url], timeout: 60)
        #expect(rows.stdout == "1:The Dispossessed\n3:Lathe of Heaven\n100:Kindred\n101:Dawn\n", "\(rows)")
    }

    /// At the prompt: another store's entities read as b.Item, and `.quit` with its
    /// changes unsaved says what would be lost there, as for the session's own.
    @Test func theREPLSaysWhatAnotherStoreWouldLose() async throws {
        let sandbox = try Sandbox()
        let shelf = try await foreignFile(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: [])
        try await repl.waitForPrompt()
        #expect(try await repl.enter(#"f = open("\#(shelf)")"#) == [])
        #expect(try await repl.enter("f.book:count()") == ["3"])
        #expect(try await repl.enter("f.book:get(1).title = 'changed'") == [])
        let asked = try await repl.enter(".quit")
        #expect(asked.contains { $0.contains("1 pending change (1 updated) in shelf.db would be lost") && $0.contains("save(b)") }, "\(asked)")
        #expect(try await repl.enter("save(f).updated") == ["1"])
        try await repl.type(".quit")
        try await repl.press("Enter")
        #expect(try await repl.waitForExit() == 0)
        #expect(try await answer(sandbox, shelf, "SELECT title FROM book WHERE id = 1") == "changed")
    }
}

extension OpenSeveralStoresTests {
    /// `diff` takes what `open()` gives: `diff(b)` compares the session's store with b,
    /// `diff(a, b)` two opened stores, `diff(author, b.author)` two entities of two stores,
    /// each reporting exactly the changes sqlite3 made to the copy.
    @Test func diffComparesOpenedStores() async throws {
        let sandbox = try Sandbox()
        let shelf = try await foreignFile(sandbox)
        try FileManager.default.copyItem(atPath: sandbox.path(shelf), toPath: sandbox.path("copy.db"))
        _ = try await answer(
            sandbox, "copy.db",
            "UPDATE book SET title = 'Solaris (1961)' WHERE id = 2; DELETE FROM book WHERE id = 3; INSERT INTO author VALUES (3, 'Banks')")
        let result = try await sandbox.quarry([
            shelf, "-e",
            #"""
            local b = open("copy.db")
            local d = diff(b)
            print(#d)
            for _, r in ipairs(d) do print(r.change, r.entity, r.key, r.property, r.old, r.new) end
            print(#diff(stores()[1], b), #diff(b, b), #diff(author, b.author), #diff(book, b.book))
            b:close()
            print(pcall(diff, b))
            print(pcall(diff, nil, b))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                "3",
                // An inserted row's values are its new, a deleted row's its old.
                "+\tauthor\t3\tnil\tnil\tname = \"Banks\"",
                "~\tbook\t2\ttitle\tSolaris\tSolaris (1961)",
                "-\tbook\t3\tnil\ttitle = \"Lathe of Heaven\", author_id = 1, author = author/1\tnil",
                "3\t0\t1\t2",
                "false\t(command line):7: diff: copy.db is closed: open() it again to use it",
                "false\t(command line):8: diff: copy.db is closed: open() it again to compare it"
            ], "\(result)")
    }
}

import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarrySwiftInput
import QuarryTestSupport
import Testing

/// import and export, against files written here and the shared nycflights13 data.
@Suite struct DataIOTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func csvImportInfersTypesAndNils() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = "name,n,x,flag,when,note\n\"Smith, J\",1,1.5,true,2024-01-22T16:26:12Z,NA\nDoe,2,,false,2024-01-23,\"say \"\"hi\"\"\"\n"
        try csv.write(to: dir.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let h = try Harness()
        h.run(
            #"""
            local n = import("\#(dir.path)/people.csv", { entity = "Person" })
            assert(n == 2 and typeof(Person) == "entity")
            local a, b = Person:get(1), Person:get(2)
            assert(a.name == "Smith, J" and math.type(a.n) == "integer" and a.x == 1.5 and a.flag == true)
            assert(tostring(a.when) == "2024-01-22T16:26:12Z" and a.note == nil)
            assert(b.x == nil and b.flag == false and b.note == 'say "hi"' and tostring(b.when) == "2024-01-23T00:00:00Z")
            """#)
        let types = h.context.entities.first { $0.name == "Person" }!.attributes.map { "\($0.name):\($0.type.rawValue)\($0.isOptional ? "?" : "")" }
        #expect(types == ["name:string", "n:int64", "x:double?", "flag:bool", "when:date", "note:string?"])
    }

    /// A quoted field is text (as export writes text that spells a number), so one quoted
    /// price makes its column text, which sorts 120.00 below 15.5: the import says so, and
    /// names the option that reads the column as numbers.
    @Test func aColumnMadeTextByQuotedNumbersIsSaid() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = "trip,cost,city\n1,15.5,\"Oslo\"\n2,\"89.90\",Rome\n3,120.00,\"7\"\n4,,Bern\n"
        try csv.write(to: dir.appendingPathComponent("trips.csv"), atomically: true, encoding: .utf8)
        let console = ConsoleAndFailureTests.RecordingConsole()
        let h = try Harness(console: console)
        h.run(#"assert(import("\#(dir.path)/trips.csv", { entity = "Trip" }) == 4)"#)
        #expect(h.string(#"type(Trip:get(2).cost) .. " " .. Trip:get(2).cost"#) == "string 89.90")
        let said = console.notes.filter { $0.contains("quoted") }
        #expect(
            said == [
                #"import trips.csv: column cost is text: 1 quoted field spells a double (a quoted field is text, as export writes it); types = { cost = "double" } reads it as double"#
            ], "\(console.notes)")
        // With the option, the column is numbers, and nothing is said.
        console.notes = []
        h.run(#"assert(import("\#(dir.path)/trips.csv", { entity = "Trip2", types = { cost = "double" } }) == 4)"#)
        #expect(h.string(#"fetch{ "Trip2", sort = "-cost" }[1].cost"#) == "120.0")
        #expect(!console.notes.contains { $0.contains("quoted") }, "\(console.notes)")
    }

    @Test func numbersADoubleWouldRoundImportAsTextKeepingEveryDigit() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 2^53 + 1 beside a fraction; 20 digits; and a column a double holds exactly.
        let csv = "big,wide,fine,first,last\n9007199254740993,99999999999999999999,2,0001-01-01,9999-12-31T23:59:59Z\n1.5,3,1.5,,\n"
        try csv.write(to: dir.appendingPathComponent("n.csv"), atomically: true, encoding: .utf8)
        try #"[{"big": 9007199254740993, "fine": 2}, {"big": 1.5, "fine": 1.5}]"#.write(
            to: dir.appendingPathComponent("n.json"), atomically: true, encoding: .utf8)
        let h = try Harness()
        h.run(
            #"""
            assert(import("\#(dir.path)/n.csv", { entity = "N" }) == 2)
            local a, b = N:get(1), N:get(2)
            assert(a.big == "9007199254740993" and b.big == "1.5", tostring(a.big))
            assert(a.wide == "99999999999999999999" and b.wide == "3", tostring(a.wide))
            assert(a.fine == 2.0 and b.fine == 1.5)
            assert(tostring(a.first) == "0001-01-01T00:00:00Z" and tostring(a.last) == "9999-12-31T23:59:59Z")
            assert(import("\#(dir.path)/n.json", { entity = "J" }) == 2)
            assert(J:get(1).big == "9007199254740993" and J:get(2).big == "1.5", tostring(J:get(1).big))
            assert(J:get(1).fine == 2.0 and J:get(2).fine == 1.5)
            """#)
        func types(_ name: String) -> [String] {
            h.context.entities.first { $0.name == name }.map { $0.attributes.map { "\($0.name):\($0.type.rawValue)" } } ?? []
        }
        #expect(types("N") == ["big:string", "wide:string", "fine:double", "first:date", "last:date"])
        #expect(types("J") == ["big:string", "fine:double"])
    }

    @Test func aBadRowStopsTheImportWithItsLineAndChangesNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "a,b\n1,2\n3,4\n5\n".write(to: dir.appendingPathComponent("ragged.csv"), atomically: true, encoding: .utf8)
        try "a,b\n1,\"open\n".write(to: dir.appendingPathComponent("quote.csv"), atomically: true, encoding: .utf8)
        try "a,b\n1,2\nx,3\n".write(to: dir.appendingPathComponent("typed.csv"), atomically: true, encoding: .utf8)
        let h = try Harness()
        #expect(h.error(#"import("\#(dir.path)/ragged.csv")"#) == "t:1: import: \(dir.path)/ragged.csv:4: expected 2 fields, got 1")
        #expect(h.error(#"import("\#(dir.path)/quote.csv")"#) == "t:1: import: \(dir.path)/quote.csv:2: a quoted field is not closed")
        #expect(h.context.entities.isEmpty)
        h.run(#"entity "Typed" { a = "int64", b = "int64" }"#)
        #expect(
            h.error(#"import("\#(dir.path)/typed.csv", { entity = "Typed" })"#)
                == "t:1: import: \(dir.path)/typed.csv:3: 'a' expects int64, got \"x\"")
        #expect(h.string(#"count("Typed")"#) == "0")
        #expect(h.error(#"import("\#(dir.path)/missing.csv")"#).contains("no such file"))
    }

    @Test func exportWritesCSVAndJSONThatImportBack() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string", n = "int64?", when = "date?" }
            Item:new{ title = "a, \"quoted\"", n = 1, when = date("2024-01-22T16:26:12Z") }
            Item:new{ title = "b" }
            save()
            assert(export(fetch{ "Item", sort = "title" }, "\#(dir.path)/out.csv") == 2)
            assert(export(fetch("Item"), "\#(dir.path)/out.json") == 2)
            assert(import("\#(dir.path)/out.csv", { entity = "Again" }) == 2)
            assert(import("\#(dir.path)/out.json", { entity = "Json" }) == 2)
            local a = Again:first("title BEGINSWITH 'a'")
            assert(a.title == 'a, "quoted"' and a.n == 1 and tostring(a.when) == "2024-01-22T16:26:12Z")
            assert(Again:first("title == 'b'").n == nil)
            assert(Json:first("title == 'b'").n == nil and Json:first("n == 1").title == 'a, "quoted"')
            """#)
        let csv = try String(contentsOf: dir.appendingPathComponent("out.csv"), encoding: .utf8)
        // Attributes defined from Lua come in name order.
        #expect(csv == "n,title,when\n1,\"a, \"\"quoted\"\"\",2024-01-22T16:26:12Z\n,b,\n")
        // An entity's name where results go (as summarize("Item") takes one) gets the call
        // that writes its rows, and writes nothing.
        let named = h.error(#"export("Item", "\#(dir.path)/named.csv")"#)
        #expect(named.contains(#"export(fetch("Item"), "\#(dir.path)/named.csv") writes its rows"#), "\(named)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("named.csv").path))
    }

    /// The shared data set imports with the right types, and fetches agree with SQL
    /// written by hand over the same tables.
    @Test func nycflightsTablesImportAndAgreeWithHandWrittenSQL() throws {
        let folder = try SharedData.path("nycflights13")
        _ = try SharedData.path("nycflights13/planes.csv")
        let h = try Harness()
        h.run(
            #"""
            assert(import("\#(folder)/airlines.csv", { entity = "Airline" }) == 16)
            assert(import("\#(folder)/planes.csv", { entity = "Plane" }) == 3322)
            assert(import("\#(folder)/weather.csv", { entity = "Weather" }) == 26115)
            """#)
        let types = Dictionary(uniqueKeysWithValues: try h.context.entity(named: "Weather").attributes.map { ($0.name, $0.type) })
        #expect(types["temp"] == .double && types["year"] == .int64 && types["time_hour"] == .date && types["origin"] == .string)
        let byHand = try h.context.connection.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM Plane WHERE manufacturer = 'BOEING' AND seats > 150")!
        }
        #expect(h.string(#"count("Plane", "manufacturer == 'BOEING' AND seats > 150")"#) == String(byHand))
        let biggest = try h.context.connection.read { db in
            try String.fetchAll(db, sql: "SELECT tailnum FROM Plane WHERE year IS NOT NULL ORDER BY seats DESC, year ASC, _pk ASC LIMIT 5")
        }
        h.run(
            #"""
            local r = fetch{ "Plane", predicate = "year != nil", sort = { "-seats", "year" }, limit = 5 }
            local got = {}
            for i, p in ipairs(r) do got[i] = p.tailnum end
            __tails = table.concat(got, ",")
            """#)
        #expect(h.string("__tails") == biggest.joined(separator: ","))
    }
}

/// A new SQLite file, made without Quarry, holding what `sql` creates.
private func sqliteFile(_ name: String, _ sql: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-\(name)-\(UUID().uuidString).db").path
    try DatabaseQueue(path: path).write { db in try db.execute(sql: sql) }
    return path
}

/// Authors and their books, with a foreign key between them.
private let booksSQL = """
    CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, year INT, author_id INTEGER REFERENCES author(id));
    INSERT INTO author VALUES (1, 'Le Guin'), (2, 'Borges');
    INSERT INTO book VALUES (1, 'Earthsea', 1968, 1), (2, 'Ficciones', 1944, 2), (3, 'The Dispossessed', 1974, 1);

    """

/// Files Quarry did not create, and relationships declared between imported entities.
@Suite struct ForeignFileTests {
    @Test func anSQLiteFileOpensAsEntitiesWithItsForeignKeysAndIsNotWritten() throws {
        let path = try sqliteFile("foreign", booksSQL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let context = try StoreOpener.open(path)
            let runtime = try QuarryRuntime(context: context, swiftReader: InProcessSwiftReader())
            let failure = runtime.run(
                #"""
                local b = book:first("title == 'Earthsea'")
                assert(b.author.name == "Le Guin" and b.author_id == 1)
                assert(#author:get(1).book_set == 2)
                assert(count("book", "author.name BEGINSWITH 'Bor'") == 1)
                assert(count("author", "ANY book_set.year < 1950") == 1)
                local sorted = fetch{ "book", sort = { "author.name", "-year" } }
                assert(sorted[1].title == "Ficciones" and sorted[2].title == "The Dispossessed")
                """#, chunkName: "=t")
            #expect(failure == nil, "\(failure?.message ?? "")")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "opening and reading wrote to the file")
    }

    @Test func dateColumnsHoldingTextAndNumbersCompareAsDates() throws {
        let path = try sqliteFile(
            "dates",
            """
                CREATE TABLE ev (id INTEGER PRIMARY KEY, at DATETIME, day DATE, stamp TIMESTAMP);
                INSERT INTO ev VALUES (1, '2020-01-01T00:00:00Z', '2020-01-01', 1577836800),
                                      (2, '2022-06-01T12:00:00.250Z', '2022-06-01', '2022-06-01T12:00:00Z'),
                                      (3, 1700000000, NULL, 1700000000.5);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let runtime = try QuarryRuntime(context: try StoreOpener.open(path), swiftReader: InProcessSwiftReader())
        let failure = runtime.run(
            #"""
            assert(typeof(ev:get(1).at) == "date" and typeof(ev:get(3).at) == "date" and typeof(ev:get(2).day) == "date")
            local cut = date("2021-01-01T00:00:00Z")
            for _, key in ipairs{ "at", "day", "stamp" } do
              local p = predicate(key .. " > %@", cut)
              local inSQL, inMemory = {}, {}
              for _, e in ipairs(fetch{ "ev", predicate = key .. " > %@", args = { cut } }) do inSQL[#inSQL + 1] = e.id end
              for _, e in ipairs(fetch{ "ev", sort = "id" }) do if p:matches(e) then inMemory[#inMemory + 1] = e.id end end
              assert(table.concat(inSQL, ",") == table.concat(inMemory, ","), key .. ": SQL " .. table.concat(inSQL, ",") .. ", memory " .. table.concat(inMemory, ","))
            end
            assert(count("ev", "at > %@", cut) == 2 and count("ev", "at == %@", date("2022-06-01T12:00:00.250Z")) == 1)
            local order = {}
            for _, e in ipairs(fetch{ "ev", sort = "-at" }) do order[#order + 1] = e.id end
            assert(table.concat(order, ",") == "3,2,1", table.concat(order, ","))
            """#, chunkName: "=t")
        #expect(failure == nil, "\(failure?.message ?? "")")
    }

    @Test func viewsOpenAsReadOnlyEntities() throws {
        let path = try sqliteFile(
            "view",
            booksSQL + """
                    CREATE VIEW old_book AS SELECT b.id, b.title, b.year, a.name AS author FROM book b JOIN author a ON a.id = b.author_id WHERE b.year < 1970;
                    CREATE VIEW per_author AS SELECT author_id AS id, count(*) AS books FROM book GROUP BY author_id;
                    CREATE VIEW titles AS SELECT title FROM book;
                    CREATE VIEW book_or_not AS SELECT b.id, a.name FROM author a LEFT JOIN book b ON b.author_id = a.id AND b.year > 1970;
                    CREATE VIEW by_author AS SELECT a.id, b.title FROM author a JOIN book b ON b.author_id = a.id;
                """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let runtime = try QuarryRuntime(context: try StoreOpener.open(path), swiftReader: InProcessSwiftReader())
            let failure = runtime.run(
                #"""
                local r = fetch{ "old_book", predicate = "author BEGINSWITH[c] %@", args = { "le" }, sort = "-year" }
                assert(#r == 1 and r[1].title == "Earthsea" and r[1]:objectID() == "old_book/1", r[1]:objectID())
                assert(count("old_book") == 2 and per_author:get(1).books == 2)
                assert(rawequal(old_book:get(1), r[1]))
                -- Rows without an id, rows that share one, and a view with no integer column:
                -- every row is an object of its own.
                assert(count("book_or_not") == 2 and #fetch("book_or_not") == 2 and count("book_or_not", "id == nil") == 1)
                assert(count("titles") == 3 and fetch{ "titles", sort = "-title" }[1].title == "The Dispossessed")
                assert(count("by_author") == 3 and count("by_author", "id == 1") == 2)
                local shared = fetch{ "by_author", predicate = "id == 1", sort = "title" }
                assert(shared[1].title == "Earthsea" and shared[2].title == "The Dispossessed" and not rawequal(shared[1], shared[2]))
                assert(rawequal(by_author:get(tonumber(shared[1]:objectID():match("%d+$"))), shared[1]))
                local function fails(f, ...)
                  local ok, message = pcall(f, ...)
                  assert(not ok and message:find("old_book is a view: its rows cannot be changed"), tostring(message))
                  assert(not message:find("\n"))
                end
                fails(function() r[1].title = "x" end)
                fails(function() old_book:new{ title = "x" } end)
                fails(function() r[1]:delete() end)
                fails(function() old_book:updateall("year > 0", {}, { title = "x" }) end)
                fails(function() old_book:deleteall("year > 0", {}) end)
                fails(function() entity "old_book" { title = "string" } end)
                assert(not haschanges())
                """#, chunkName: "=t")
            #expect(failure == nil, "\(failure?.message ?? "")")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "reading views wrote to the file")
    }

    @Test func aTableOfTwoThousandColumnsIsReadable() throws {
        let columns = (0..<2000).map { "c\($0) INT" }.joined(separator: ", ")
        let values = (0..<2000).map { String($0 * 2) }.joined(separator: ", ")
        let keyed = (0..<1998).map { "k\($0) INT" }.joined(separator: ", ")
        let path = try sqliteFile(
            "wide",
            """
            CREATE TABLE w (\(columns)); INSERT INTO w VALUES (\(values)); INSERT INTO w VALUES (\(values));
            CREATE TABLE k (id INTEGER PRIMARY KEY, \(keyed)); INSERT INTO k (id, k1997) VALUES (7, 3);
            CREATE VIEW vw AS SELECT * FROM w UNION ALL SELECT * FROM w;
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let context = try StoreOpener.open(path)
            // With its key the first table needs 2,001 result columns: its last is left
            // out, and said so, as in a view over it; the second, 1,999 columns and its
            // key, is whole.
            #expect(
                context.openingNotes == [
                    "w has 2000 columns, more than one row can hold with its key (SQLite returns at most 2000): the last is left out",
                    "vw has 2000 columns, more than one row can hold with its key (SQLite returns at most 2000): the last is left out"
                ])
            let runtime = try QuarryRuntime(context: context, swiftReader: InProcessSwiftReader())
            let failure = runtime.run(
                #"""
                local r = fetch{ "w", predicate = "c1998 == %@", args = { 3996 } }
                assert(#r == 2 and r[1].c0 == 0 and r[2].c1998 == 3996)
                local s = summarize("w")
                assert(#s == 1999 and s[1999].column == "c1998" and s[1999].count == 2 and s[1999].mean == 3996)
                assert(k:get(7).k1997 == 3 and #summarize("k") == 1999)
                assert(count("vw") == 4 and #fetch("vw") == 4 and fetch("vw")[4].c1998 == 3996)
                """#, chunkName: "=t")
            #expect(failure == nil, "\(failure?.message ?? "")")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "reading wrote to the file")
    }

    @Test func relateLinksImportedEntitiesThroughMatchingColumns() throws {
        let data = try SharedData.path("nycflights13")
        _ = try SharedData.path("nycflights13/flights.csv")
        // The first 3,000 flights are enough and keep a debug build quick (the rest of the
        // file is left unsplit).
        let lines = try String(contentsOfFile: data + "/flights.csv", encoding: .utf8)
            .split(separator: "\n", maxSplits: 3001, omittingEmptySubsequences: false).prefix(3001)
        let slice = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-flights-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: slice) }
        try (lines.joined(separator: "\n") + "\n").write(to: slice, atomically: true, encoding: .utf8)
        let h = try Harness()
        h.run(
            #"""
            import("\#(data)/airlines.csv", { entity = "Airline" })
            import("\#(slice.path)", { entity = "Flight" })
            assert(relate("Flight", "carrier", "Airline", "carrier") == "airline")
            local f = Flight:first("carrier == 'UA'")
            assert(f.airline.name == "United Air Lines Inc.")
            local ua = Airline:first("carrier == 'UA'")
            __united = count("Flight", "airline.name == 'United Air Lines Inc.'")
            assert(#ua.flight_set == __united)
            local first = fetch{ "Flight", predicate = "airline.name BEGINSWITH 'Delta'", sort = { "-dep_delay" }, limit = 1 }[1]
            __delta = first.dep_delay
            """#)
        let byHand = try h.context.connection.read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM Flight JOIN Airline ON Airline.carrier = Flight.carrier WHERE Airline.name = 'United Air Lines Inc.'")!
        }
        #expect(h.string("__united") == String(byHand))
        let delta = try h.context.connection.read { db in
            try Int.fetchOne(db, sql: "SELECT max(dep_delay) FROM Flight WHERE carrier = 'DL'")!
        }
        #expect(h.string("__delta") == String(delta))
    }
}

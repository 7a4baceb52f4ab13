import Foundation
import QuarryTestSupport
import Testing

/// A foreign key of several columns outside a join table (TPC-H's
/// `lineitem(l_partkey, l_suppkey) -> partsupp(ps_partkey, ps_suppkey)`) is a to-one
/// relationship (`lineitem.partsupp`) with its inverse to-many (`partsupp.lineitems`), on
/// SQLite and PostgreSQL alike: followed, tested in predicates (key paths, ANY, @count,
/// nil when a column is NULL, as SQL's MATCH SIMPLE), sorted through, in memory as in SQL,
/// and written (both columns) by setting it or by `:add`/`:remove`; the answers are those
/// sqlite3 and psql give to the same questions.
@Suite struct CompositeForeignKeyTests {
    static let schema = """
        CREATE TABLE part (p_partkey integer PRIMARY KEY, p_name text);
        CREATE TABLE supplier (s_suppkey integer PRIMARY KEY, s_name text);
        CREATE TABLE partsupp (ps_partkey integer NOT NULL REFERENCES part (p_partkey), ps_suppkey integer NOT NULL REFERENCES supplier (s_suppkey),
          ps_availqty integer NOT NULL, ps_comment text, PRIMARY KEY (ps_partkey, ps_suppkey));
        CREATE TABLE lineitem (l_orderkey integer NOT NULL, l_linenumber integer NOT NULL, l_partkey integer, l_suppkey integer, l_quantity integer,
          PRIMARY KEY (l_orderkey, l_linenumber), FOREIGN KEY (l_partkey, l_suppkey) REFERENCES partsupp (ps_partkey, ps_suppkey));
        INSERT INTO part VALUES (1, 'bolt'), (2, 'nut'), (3, 'gear');
        INSERT INTO supplier VALUES (1, 'Acme'), (2, 'Brill');
        INSERT INTO partsupp VALUES (1, 1, 100, 'a'), (1, 2, 50, 'b'), (2, 1, 300, 'c'), (3, 2, 0, 'd');
        INSERT INTO lineitem VALUES (1, 1, 1, 1, 10), (1, 2, 1, 2, 45), (2, 1, 2, 1, 41), (2, 2, 1, 1, 5), (3, 1, NULL, 1, 7), (3, 2, 3, NULL, 50), (4, 1, 2, 1, 3);
        """

    /// The questions, each as Quarry's predicate and as SQL over the tables, counted.
    static let questions: [(entity: String, predicate: String, sql: String)] = [
        (
            "lineitem", "partsupp.ps_availqty > 100",
            "SELECT count(*) FROM lineitem l JOIN partsupp ps ON ps.ps_partkey = l.l_partkey AND ps.ps_suppkey = l.l_suppkey WHERE ps.ps_availqty > 100"
        ),
        (
            "lineitem", "partsupp == nil",
            "SELECT count(*) FROM lineitem l WHERE NOT EXISTS (SELECT 1 FROM partsupp ps WHERE ps.ps_partkey = l.l_partkey AND ps.ps_suppkey = l.l_suppkey)"
        ),
        (
            "lineitem", "partsupp.ps_comment == 'a' OR l_quantity > 40",
            "SELECT count(*) FROM lineitem l LEFT JOIN partsupp ps ON ps.ps_partkey = l.l_partkey AND ps.ps_suppkey = l.l_suppkey WHERE ps.ps_comment = 'a' OR l.l_quantity > 40"
        ),
        (
            "partsupp", "ANY lineitems.l_quantity > 40",
            "SELECT count(*) FROM partsupp ps WHERE EXISTS (SELECT 1 FROM lineitem l WHERE l.l_partkey = ps.ps_partkey AND l.l_suppkey = ps.ps_suppkey AND l.l_quantity > 40)"
        ),
        (
            "partsupp", "lineitems.@count == 0",
            "SELECT count(*) FROM partsupp ps WHERE (SELECT count(*) FROM lineitem l WHERE l.l_partkey = ps.ps_partkey AND l.l_suppkey = ps.ps_suppkey) = 0"
        ),
        (
            "partsupp", "lineitems.@sum.l_quantity > 10",
            "SELECT count(*) FROM partsupp ps WHERE (SELECT coalesce(sum(l.l_quantity), 0) FROM lineitem l WHERE l.l_partkey = ps.ps_partkey AND l.l_suppkey = ps.ps_suppkey) > 10"
        )
    ]

    /// Each question's count in SQL and in memory (`p:matches` over every object), the
    /// links followed both ways, and lines sorted through the to-one.
    static var report: String {
        let asked = questions.map { q in
            """
            do
              local p = predicate("\(q.predicate)"); local n = 0
              for _, o in ipairs(fetch("\(q.entity)")) do if p:matches(o) then n = n + 1 end end
              print("\(q.predicate)", count("\(q.entity)", "\(q.predicate)"), n)
            end
            """
        }.joined(separator: "\n")
        return """
            local function key(l) return l.l_orderkey .. "-" .. l.l_linenumber end
            local function report()
              for _, l in ipairs(fetch{ "lineitem", sort = {"l_orderkey", "l_linenumber"} }) do
                local ps = l.partsupp
                print(key(l), ps and (ps.ps_partkey .. "/" .. ps.ps_suppkey) or "nil", ps and ps.ps_availqty or "nil")
              end
              for _, ps in ipairs(fetch{ "partsupp", sort = {"ps_partkey", "ps_suppkey"} }) do
                local keys = {}
                for _, l in ipairs(ps.lineitems) do keys[#keys + 1] = key(l) end
                table.sort(keys)
                print(ps.ps_partkey .. "/" .. ps.ps_suppkey, #ps.lineitems, table.concat(keys, ","))
              end
              local sorted = {}
              for _, l in ipairs(fetch{ "lineitem", predicate = "partsupp != nil", sort = {"-partsupp.ps_availqty", "l_orderkey", "l_linenumber"} }) do
                sorted[#sorted + 1] = key(l)
              end
              print("sorted", table.concat(sorted, ","))
            \(asked)
            end
            """
    }

    static let writes = #"""
        local function line(o, n) return fetch("lineitem", "l_orderkey == %@ AND l_linenumber == %@", o, n)[1] end
        local function ps(p, s) return fetch("partsupp", "ps_partkey == %@ AND ps_suppkey == %@", p, s)[1] end
        line(3, 1).partsupp = ps(2, 1)
        ps(3, 2).lineitems:add(line(1, 1))
        ps(1, 2).lineitems:remove(line(1, 2))
        local new = lineitem:new{ l_orderkey = 5, l_linenumber = 1, l_quantity = 99 }
        new.partsupp = ps(1, 1)
        -- Unsaved, in memory: the new line reaches its parent and the parent its new line.
        print("unsaved", new.l_partkey, new.l_suppkey, predicate("partsupp.ps_availqty >= 100"):matches(new),
              predicate("ANY lineitems.l_quantity == 99"):matches(ps(1, 1)), #ps(1, 1).lineitems, #ps(1, 2).lineitems, line(3, 1).partsupp.ps_availqty)
        save()
        print("saved")
        """#

    @Test func aForeignKeyOfSeveralColumnsIsAToOneOnBothEngines() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("schema.sql", Self.schema)
        try sandbox.write("script.lua", Self.report + "\nreport()\n" + Self.writes + "\nreport()\n")
        let (url, lite, postgres) = try await PostgresJoinTableTests.onBothEngines(sandbox, database: "compositekeys")
        let before = Array(lite.lines.prefix(while: { !$0.hasPrefix("unsaved") }))
        #expect(
            Array(before.prefix(11)) == [
                "1-1\t1/1\t100", "1-2\t1/2\t50", "2-1\t2/1\t300", "2-2\t1/1\t100", "3-1\tnil\tnil", "3-2\tnil\tnil", "4-1\t2/1\t300",
                "1/1\t2\t1-1,2-2", "1/2\t1\t1-2", "2/1\t2\t2-1,4-1", "3/2\t0\t"
            ], "\(lite)")
        #expect(before.dropFirst(11).first == "sorted\t2-1,4-1,1-1,2-2,1-2", "\(lite)")
        #expect(lite.lines.contains("unsaved\t1\t1\ttrue\ttrue\t2\t0\t300"), "\(lite)")
        #expect(lite.lines.contains("saved"), "\(lite)")
        // Each question: Quarry's count in SQL and in memory, before and after the writes,
        // agree with each other and with sqlite3's and psql's answers after.
        let asked = lite.lines.filter { line in Self.questions.contains { line.hasPrefix($0.predicate + "\t") } }
        #expect(asked.count == 2 * Self.questions.count, "\(lite)")
        for line in asked {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(fields.count == 3 && fields[1] == fields[2], "in memory and in SQL: \(line)")
        }
        let after = Array(asked.suffix(Self.questions.count))
        for (question, line) in zip(Self.questions, after) {
            let psql = try await sandbox.run(URL(fileURLWithPath: "/usr/bin/psql"), ["-Atc", question.sql, url], timeout: 60)
            let sqlite = try await sandbox.run(URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell()), ["lite.db", question.sql], timeout: 60)
            let count = psql.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(sqlite.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == count, "\(question.sql): \(sqlite) \(psql)")
            #expect(line == "\(question.predicate)\t\(count)\t\(count)", "\(question.sql): psql says \(count), Quarry \(line)")
        }
        // The writes, as sqlite3 and psql read the rows.
        let query =
            "SELECT l_orderkey || '-' || l_linenumber || ':' || coalesce(l_partkey::text, '') || '/' || coalesce(l_suppkey::text, '') FROM lineitem ORDER BY 1"
        let expected = ["1-1:3/2", "1-2:/", "2-1:2/1", "2-2:1/1", "3-1:2/1", "3-2:3/", "4-1:2/1", "5-1:1/1"]
        let rows = try await sandbox.run(URL(fileURLWithPath: "/usr/bin/psql"), ["-Atc", query, url], timeout: 60)
        #expect(rows.stdout.split(separator: "\n").map(String.init) == expected, "\(rows)")
        let liteRows = try await sandbox.run(
            URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell()),
            ["lite.db", query.replacingOccurrences(of: "::text", with: "")], timeout: 60)
        #expect(liteRows.stdout.split(separator: "\n").map(String.init) == expected, "\(liteRows)")
        // Both engines answer alike, and the key is no longer said to be read as its columns.
        let differences = PostgresStoreTests.differences(lite.lines, postgres.lines)
        #expect(differences == nil, "\(differences ?? "")")
        #expect(
            !lite.stderr.contains("lineitem(l_partkey, l_suppkey)") && !postgres.stderr.contains("lineitem(l_partkey, l_suppkey)"),
            "\(lite.stderr)\n\(postgres.stderr)")
    }

    /// A parent with children by such a key is refused a delete (NO ACTION), naming them,
    /// as the engines refuse it; once the children are relinked in the same save, it goes.
    @Test func aParentHeldByAKeyOfSeveralColumnsIsKeptByItsDenyRule() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("schema.sql", Self.schema)
        try sandbox.write(
            "script.lua",
            #"""
            local ps = fetch("partsupp", "ps_partkey == 1 AND ps_suppkey == 2")[1]
            print((pcall(function() ps:delete() end)))
            for _, l in ipairs(ps.lineitems) do l.partsupp = nil end
            ps:delete(); save()
            print(count("partsupp"), count("lineitem", "partsupp == nil"))
            """#)
        let (url, lite, postgres) = try await PostgresJoinTableTests.onBothEngines(sandbox, database: "compositekeydelete")
        #expect(lite.lines == ["false", "3\t3"], "\(lite)")
        let differences = PostgresStoreTests.differences(lite.lines, postgres.lines)
        #expect(differences == nil, "\(differences ?? "")")
        let rows = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"), ["-Atc", "SELECT count(*) FROM lineitem WHERE l_partkey IS NULL AND l_suppkey IS NULL", url],
            timeout: 60)
        #expect(rows.stdout == "1\n", "\(rows)")
    }

    /// With ON DELETE CASCADE, deleting a parent takes its children, as an object and by
    /// `deleteall`; `updateall` selects through the key; on both engines, as sqlite3 and
    /// psql count the rows left.
    @Test func aCascadeOfAKeyOfSeveralColumnsTakesTheChildren() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            Self.schema.replacingOccurrences(
                of: "REFERENCES partsupp (ps_partkey, ps_suppkey))",
                with: "REFERENCES partsupp (ps_partkey, ps_suppkey) ON DELETE CASCADE)"))
        try sandbox.write(
            "script.lua",
            #"""
            local ps = fetch("partsupp", "ps_partkey == 1 AND ps_suppkey == 1")[1]
            ps:delete(); save()
            print(count("lineitem"), count("partsupp"))
            print(partsupp:deleteall("ps_partkey == 2"))
            print(count("lineitem"), count("partsupp"))
            print(lineitem:updateall("partsupp.ps_availqty == 50", {}, { l_quantity = 1 }))
            print(count("lineitem", "l_quantity == 1"), count("lineitem", "partsupp.ps_comment == 'b'"))
            """#)
        let (url, lite, postgres) = try await PostgresJoinTableTests.onBothEngines(sandbox, database: "compositekeycascade")
        #expect(lite.lines == ["5\t3", "1", "3\t2", "1", "1\t1"], "\(lite)")
        let differences = PostgresStoreTests.differences(lite.lines, postgres.lines)
        #expect(differences == nil, "\(differences ?? "")")
        let query = "SELECT l_orderkey || '-' || l_linenumber || ':' || l_quantity FROM lineitem ORDER BY 1"
        let expected = ["1-2:1", "3-1:7", "3-2:50"]
        let rows = try await sandbox.run(URL(fileURLWithPath: "/usr/bin/psql"), ["-Atc", query, url], timeout: 60)
        #expect(rows.stdout.split(separator: "\n").map(String.init) == expected, "\(rows)")
        let liteRows = try await sandbox.run(URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell()), ["lite.db", query], timeout: 60)
        #expect(liteRows.stdout.split(separator: "\n").map(String.init) == expected, "\(liteRows)")
    }

    /// Results through such a key (a key path on the to-one, ANY on the to-many) follow
    /// each save as SQL counts them: a parent's value changing, a link set, a child's
    /// value changing, one of the key's columns written as an attribute.
    @Test func resultsThroughAKeyOfSeveralColumnsFollowEachSave() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("schema.sql", Self.schema)
        try sandbox.write(
            "script.lua",
            #"""
            local function line(o, n) return fetch("lineitem", "l_orderkey == %@ AND l_linenumber == %@", o, n)[1] end
            local function ps(p, s) return fetch("partsupp", "ps_partkey == %@ AND ps_suppkey == %@", p, s)[1] end
            local r = fetch{ "lineitem", predicate = "partsupp.ps_availqty > 100", sort = {"l_orderkey", "l_linenumber"} }
            local q = fetch{ "partsupp", predicate = "ANY lineitems.l_quantity > 40" }
            observe(r, function(ev) print("r", #ev.inserted, #ev.deleted) end)
            observe(q, function(ev) print("q", #ev.inserted, #ev.deleted) end)
            print(#r, #q)
            ps(1, 2).ps_availqty = 500; save()
            print(#r, count("lineitem", "partsupp.ps_availqty > 100"), #q, count("partsupp", "ANY lineitems.l_quantity > 40"))
            line(3, 1).partsupp = ps(2, 1); save()
            print(#r, count("lineitem", "partsupp.ps_availqty > 100"))
            line(1, 1).l_quantity = 90; save()
            print(#q, count("partsupp", "ANY lineitems.l_quantity > 40"))
            line(1, 2).l_suppkey = 1; save()
            print(#r, count("lineitem", "partsupp.ps_availqty > 100"), #q, count("partsupp", "ANY lineitems.l_quantity > 40"))
            """#)
        let (_, lite, postgres) = try await PostgresJoinTableTests.onBothEngines(sandbox, database: "compositekeyresults")
        let counts = lite.lines.filter { !$0.hasPrefix("r\t") && !$0.hasPrefix("q\t") }
        #expect(counts == ["2\t2", "3\t3\t2\t2", "4\t4", "3\t3", "3\t3\t2\t2"], "\(lite)")
        // Each results object holds what SQL counts after each save.
        for line in counts.dropFirst() {
            let fields = line.split(separator: "\t")
            #expect(fields[0] == fields[1] && (fields.count == 2 || fields[2] == fields[3]), "\(line)")
        }
        #expect(lite.lines.filter { $0.hasPrefix("r\t") } == ["r\t1\t0", "r\t1\t0", "r\t0\t1"], "\(lite)")
        let differences = PostgresStoreTests.differences(lite.lines, postgres.lines)
        #expect(differences == nil, "\(differences ?? "")")
    }
}

import Foundation
import QuarryTestSupport
import Testing

/// A PostgreSQL enum orders by its labels (issue 45): `<`, `>`, BETWEEN, sorts, groups,
/// @max and min/max follow `pg_enum.enumsortorder`, as psql does, not the labels' text.
/// Every answer is psql's own, run on the same server; memory (`matches`, unsaved objects
/// in a fetch) agrees with SQL; writes keep working and a value that is no label is
/// refused in one line, before any SQL runs, leaving the table as it was.
@Suite struct PostgresEnumOrderTests {
    /// `meh` added before `ok` later, so its sort order is no whole number and the labels'
    /// order is neither their text's nor the order they were made in.
    static let schema = """
        CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
        ALTER TYPE mood ADD VALUE 'meh' BEFORE 'ok';
        CREATE TABLE person (id serial PRIMARY KEY, name text, m mood);
        CREATE TABLE note (id serial PRIMARY KEY, person_id integer REFERENCES person (id), m mood NOT NULL);
        INSERT INTO person (name, m) VALUES ('Ann', 'happy'), ('Bo', 'sad'), ('Cy', 'ok'), ('Di', NULL), ('Ed', 'meh'),
          ('Fay', 'happy'), ('Gus', 'sad'), ('Hal', 'meh');
        INSERT INTO note (person_id, m) VALUES (1, 'sad'), (1, 'ok'), (2, 'happy'), (3, 'meh'), (5, 'meh'), (5, 'sad'),
          (6, 'ok'), (8, 'happy');
        """

    /// Predicates and the same conditions in psql's SQL, over person (`p`).
    /// Expects the first lines of `result` to be, for each of `conditions`, psql's count
    /// (a line of `counts`) twice: in SQL and in memory. Returns the lines after them.
    static func expectPsqlsCounts(_ counts: String, _ conditions: [(quarry: String, psql: String)], _ result: ProcessResult) -> [String] {
        let lines = result.lines
        let psqlCounts = counts.split(separator: "\n").map(String.init)
        #expect(psqlCounts.count == conditions.count)
        for (i, condition) in conditions.enumerated() {
            #expect(
                lines.dropFirst(i).first == "\(psqlCounts.dropFirst(i).first ?? "")\t\(psqlCounts.dropFirst(i).first ?? "")",
                "\(condition.quarry): \(result)")
        }
        return Array(lines.dropFirst(conditions.count))
    }

    static let conditions: [(quarry: String, psql: String)] = [
        ("m > 'meh'", "p.m > 'meh'"),
        ("m < 'ok'", "p.m < 'ok'"),
        ("m <= 'ok'", "p.m <= 'ok'"),
        ("m >= 'happy'", "p.m >= 'happy'"),
        ("'meh' < m", "'meh' < p.m"),
        ("m BETWEEN {'meh', 'happy'}", "p.m BETWEEN 'meh' AND 'happy'"),
        ("NOT (m > 'ok')", "NOT (p.m > 'ok')"),
        ("m > 'sad' AND m < 'happy'", "p.m > 'sad' AND p.m < 'happy'"),
        ("ANY notes.m > 'ok'", "EXISTS (SELECT 1 FROM note n WHERE n.person_id = p.id AND n.m > 'ok')"),
        ("ANY notes.m > m", "EXISTS (SELECT 1 FROM note n WHERE n.person_id = p.id AND n.m > p.m)"),
        ("notes.@max.m == 'ok'", "(SELECT max(n.m) FROM note n WHERE n.person_id = p.id) = 'ok'"),
        ("notes.@min.m < 'ok'", "(SELECT min(n.m) FROM note n WHERE n.person_id = p.id) < 'ok'")
    ]

    static func psql(_ sandbox: Sandbox, _ url: String, _ query: String) async throws -> String {
        try await PostgresDecimalTests.psqlRows(sandbox, url, query)
    }

    @Test func enumsCompareAndSortByTheirLabelsAsPsqlDoes() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("enumorder", in: sandbox, schema: Self.schema)
        // psql's counts, each condition's; and Quarry's, in SQL and by `matches` over every object.
        let counts = try await Self.psql(
            sandbox, url,
            Self.conditions.map { "SELECT count(*) FROM person p WHERE \($0.psql)" }
                .joined(separator: " UNION ALL "))
        // psql's orders: labels in their order; NULL first ascending and last descending, as Quarry sorts nil everywhere.
        let ascending = try await Self.psql(sandbox, url, "SELECT string_agg(name, ' ' ORDER BY m NULLS FIRST, id) FROM person")
        let descending = try await Self.psql(sandbox, url, "SELECT string_agg(name, ' ' ORDER BY m DESC NULLS LAST, id DESC) FROM person")
        let throughPath = try await Self.psql(sandbox, url, "SELECT count(*) FROM note n JOIN person p ON p.id = n.person_id WHERE p.m > 'meh'")
        let sortedByPath = try await Self.psql(
            sandbox, url, "SELECT string_agg(n.id::text, ' ' ORDER BY p.m NULLS FIRST, n.id) FROM note n LEFT JOIN person p ON p.id = n.person_id")
        let groups = try await Self.psql(sandbox, url, "SELECT m, count(*) FROM person GROUP BY m ORDER BY m NULLS FIRST")
        let extremes = try await Self.psql(sandbox, url, "SELECT min(m), max(m) FROM person")
        let sections = try await Self.psql(
            sandbox, url, "SELECT string_agg(coalesce(m::text, 'nil'), ' ' ORDER BY m NULLS FIRST) FROM (SELECT DISTINCT m FROM person) AS d")
        let script =
            Self.conditions.map { c in
                """
                do local p = predicate("\(c.quarry)"); local k = 0
                  for _, o in ipairs(fetch("person")) do if p:matches(o) then k = k + 1 end end
                  print(count("person", p), k) end
                """
            }.joined(separator: "\n") + #"""

                local function names(r) local t = {} for _, o in ipairs(r) do t[#t + 1] = o.name end return table.concat(t, " ") end
                print(names(fetch{ "person", sort = { "m" } }))
                print(names(fetch{ "person", sort = { "-m" } }))
                print(count("note", "person.m > 'meh'"))
                local ids = {} for _, n in ipairs(fetch{ "note", sort = { "person.m" } }) do ids[#ids + 1] = n.id end print(table.concat(ids, " "))
                for _, g in ipairs(fetch{ "person", result = "dictionaries", properties = { "m", "count(*)" }, group = { "m" } }) do
                  print(tostring(g.m) .. "\t" .. g.count) end
                local e = fetch{ "person", result = "dictionaries", properties = { "min(m)", "max(m)" } }[1]
                print(e["min(m)"] .. "\t" .. e["max(m)"])
                local r = fetch{ "person", section = "m" }; local ids = {} for i = 1, #r do ids[#ids + 1] = tostring(r[i].id) end
                print(table.concat(ids, " "))
                for _, s in ipairs(summarize("person")) do if s.column == "m" then print(s.min .. "\t" .. s.max) end end
                """#
        let result = try await sandbox.quarry([url, "-e", script])
        #expect(result.status == 0, "\(result)")
        let rest = Self.expectPsqlsCounts(counts, Self.conditions, result)
        #expect(rest.first.map { $0 + "\n" } == ascending, "\(result)")
        // Not the text order (happy meh ok sad), nor the order the labels were made in.
        #expect(ascending == "Di Bo Gus Ed Hal Cy Ann Fay\n")
        #expect(rest.dropFirst().first.map { $0 + "\n" } == descending, "\(result)")
        #expect(rest.dropFirst(2).first.map { $0 + "\n" } == throughPath, "\(result)")
        #expect(rest.dropFirst(3).first.map { $0 + "\n" } == sortedByPath, "\(result)")
        #expect(rest.dropFirst(4).prefix(5).joined(separator: "\n") + "\n" == (groups.hasPrefix("\t") ? "nil" + groups : groups), "\(result)")
        #expect(rest.dropFirst(9).first.map { $0 + "\n" } == extremes, "\(result)")
        #expect(extremes == "sad\thappy\n")
        // Sections in the labels' order; summarize's least and greatest are psql's min and max.
        #expect(rest.dropFirst(10).first.map { $0 + "\n" } == sections, "\(result)")
        #expect(rest.dropFirst(11).first.map { $0 + "\n" } == extremes, "\(result)")
    }

    /// Unsaved objects sort and match in memory as the saved rows do in SQL; writes of
    /// labels save, and a value that is no label is refused at once, in one line.
    @Test func memoryAgreesAndWritesKeepToTheLabels() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("enumwrites", in: sandbox, schema: Self.schema)
        let before = try await Self.psql(sandbox, url, "SELECT id, name, m FROM person ORDER BY id")
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            local function names(r) local t = {} for _, o in ipairs(r) do t[#t + 1] = o.name end return table.concat(t, " ") end
            person:new{ name = "Ivy", m = "meh" }; person:new{ name = "Jo", m = "happy" }; person:new{ name = "Kim" }
            person:get(2).m = "ok"
            local p = predicate("m > %@", "meh")
            local unsaved = person:new{ name = "Lu", m = "ok" }
            print(p:matches(unsaved), p:matches(person:get(5)), predicate("m BETWEEN {'sad', 'meh'}"):matches(person:get(5)))
            print(names(fetch{ "person", sort = { "m" } }))
            print(names(fetch{ "person", sort = { "-m" } }))
            print(count("person", p))
            save()
            print(names(fetch{ "person", sort = { "m" } }))
            print(names(fetch{ "person", sort = { "-m" } }))
            print(count("person", p))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        #expect(lines.first == "true\tfalse\ttrue", "\(result)")
        // Before the save (merged in memory) as after it (SQL alone), and as psql sorts the saved rows.
        #expect(lines.dropFirst().first == lines.dropFirst(4).first, "\(result)")
        #expect(lines.dropFirst(2).first == lines.dropFirst(5).first, "\(result)")
        #expect(lines.dropFirst(3).first == lines.dropFirst(6).first, "\(result)")
        let sorted = try await Self.psql(sandbox, url, "SELECT string_agg(name, ' ' ORDER BY m NULLS FIRST, id) FROM person")
        #expect(lines.dropFirst(4).first.map { $0 + "\n" } == sorted, "\(result)")
        let stored = try await Self.psql(sandbox, url, "SELECT m FROM person WHERE name IN ('Bo', 'Ivy', 'Lu') ORDER BY name")
        #expect(stored == "ok\nmeh\nok\n", "\(stored)")

        // A label that is none: refused when given, and in a predicate's order, one line each; nothing written.
        let saved = try await Self.psql(sandbox, url, "SELECT id, name, m FROM person ORDER BY id")
        #expect(saved != before)
        // Equality and string tests stay the text's, as before (psql's answers, before the run below writes).
        let others = try await Self.psql(sandbox, url, "SELECT 0, count(*), count(*) FILTER (WHERE m::text LIKE 'h%') FROM person")
        let refused = try await sandbox.quarry([
            url, "-e",
            #"""
            print(pcall(function() person:get(1).m = "glad" end))
            print(pcall(count, "person", "m > 'glad'"))
            print(pcall(count, "person", "m > name"))
            print(pcall(count, "person", "m BETWEEN {'sad', 'glad'}"))
            print(pcall(function() return person:updateall("name == 'Ann'", nil, { m = "glad" }) end))
            print(count("person", "m == 'glad'"), count("person", "m != 'glad'"), count("person", "m LIKE 'h*'"))
            person:get(1).m = "sad"
            print(save().updated)
            """#
        ])
        #expect(refused.status == 0, "\(refused)")
        let said = refused.lines
        #expect(
            said.first == "false\t(command line):1: person.m expects one of enum mood's labels ('sad', 'meh', 'ok', 'happy'), got string (\"glad\")",
            "\(refused)")
        #expect(
            said.dropFirst().first
                == "false\t(command line):2: predicate: 'm' is of enum mood, ordered 'sad' < 'meh' < 'ok' < 'happy'; 'glad' is none of its labels at column 5",
            "\(refused)")
        #expect(
            said.dropFirst(2).first?.contains(
                "'m' is of enum mood, ordered 'sad' < 'meh' < 'ok' < 'happy'; > orders it against its labels or another value of mood, not 'name'")
                == true, "\(refused)")
        #expect(said.dropFirst(3).first?.contains("'glad' is none of its labels") == true, "\(refused)")
        #expect(said.dropFirst(4).first?.contains("expects one of enum mood's labels") == true, "\(refused)")
        // No label is 'glad', and nil is not.
        #expect(said.dropFirst(5).first.map { $0 + "\n" } == others, "\(refused)")
        #expect(said.dropFirst(6).first == "1", "\(refused)")
        let after = try await Self.psql(sandbox, url, "SELECT id, name, m FROM person ORDER BY id")
        #expect(after == saved.replacingOccurrences(of: "1\tAnn\thappy", with: "1\tAnn\tsad"), "\(after)")
    }

    /// Swift orders a String by its characters, not an enum's labels: `m < 'ok'` and a sort
    /// by `m` would select and order other rows there ('happy' < 'meh' < 'ok' < 'sad'), so
    /// they are one line saying why; equality means the same and is written.
    @Test func swiftSaysNoEnumOrder() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("enumswift", in: sandbox, schema: Self.schema)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            print(predicate("m < 'ok'"):swift("person"))
            print(predicate("m BETWEEN {'meh', 'happy'}"):swift("person"))
            print(predicate("m == 'ok'"):swift("person"))
            print(fetch{ "person", sort = { "m" } }:swift("query"))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        let text = result.lines.joined(separator: "\n")
        #expect(!text.contains("$0 < \"ok\""), "\(result)")
        #expect(!text.contains("$0 >= \"meh\""), "\(result)")
        #expect(!text.contains("SortDescriptor(\\person.m"), "\(result)")
        #expect(text.contains("< on enum mood, ordered 'sad' < 'meh' < 'ok' < 'happy': Swift orders its String by characters"), "\(result)")
        #expect(text.contains("BETWEEN on enum mood"), "\(result)")
        #expect(text.contains("not expressed: sort by 'm': it is of enum mood"), "\(result)")
        #expect(text.contains("$0 == \"ok\"") || text.contains("person.m == \"ok\""), "\(result)")
        // `.schema` says the order, as a comment its output still loads with.
        let schema = try await sandbox.quarry([url, "-"], stdin: ".schema person\n")
        #expect(schema.lines.contains("  m = \"string?\",  -- enum mood: \"sad\" < \"meh\" < \"ok\" < \"happy\""), "\(schema)")
    }
}

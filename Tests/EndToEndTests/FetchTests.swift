import Foundation
import Testing

/// Fetch requests, results, counts and the predicate language, against a saved store.
@Suite struct FetchTests {
    /// Five saved items; b and d have a date, the others none; b and c share n = 2.
    static let fixture =
        itemSchema + """

            Item:new{ title = "a", n = 1 }
            Item:new{ title = "b", n = 2, when = date(1700000000) }
            Item:new{ title = "c", n = 2 }
            Item:new{ title = "d", n = 4, when = date(1700000100) }
            Item:new{ title = "e", n = 5 }
            save()
            function titles(r)
              local t = {}
              for _, o in ipairs(r) do t[#t + 1] = o.title end
              return table.concat(t, ",")
            end

            """

    /// Runs `code` after the fixture, in one process, and returns stdout's lines.
    func run(_ code: String) async throws -> [String] {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["-e", Self.fixture + code])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        return result.lines
    }

    @Test func fetchWithFormatAndArguments() async throws {
        let lines = try await run(
            """
            local r = fetch("Item", "n > %@", 2)
            print(#r, r[1] ~= nil, r[3])
            print(titles(fetch{ "Item", predicate = "n > %@", args = { 2 }, sort = { "title" } }))
            """)
        #expect(lines == ["2\ttrue\tnil", "d,e"])
    }

    @Test func resultsIndexLengthAndIpairs() async throws {
        let lines = try await run(
            """
            local r = fetch{ "Item", sort = { "title" } }
            print(#r, r[1].title, r[5].title, r[0], r[6])
            local n = 0
            for i, o in ipairs(r) do n = n + 1; assert(rawequal(o, r[i]) or o:objectID() == r[i]:objectID()) end
            print(n)
            """)
        #expect(lines == ["5\ta\te\tnil\tnil", "5"])
    }

    @Test func sortKeysAscendingDescendingAndTies() async throws {
        let lines = try await run(
            """
            print(titles(fetch{ "Item", sort = { "-n", "title" } }))
            print(titles(fetch{ "Item", sort = { "n", "-title" } }))
            print(titles(fetch{ "Item", sort = { "-title" } }))
            """)
        #expect(lines == ["e,d,b,c,a", "a,c,b,d,e", "e,d,c,b,a"])
    }

    @Test func limitAndOffset() async throws {
        let lines = try await run(
            """
            print(titles(fetch{ "Item", sort = { "-n", "title" }, limit = 2 }))
            print(titles(fetch{ "Item", sort = { "-n", "title" }, limit = 2, offset = 1 }))
            print(titles(fetch{ "Item", predicate = "n >= %@", args = { 2 }, sort = { "n", "title" }, offset = 2 }))
            print(#fetch{ "Item", offset = 10 })
            """)
        #expect(lines == ["e,d", "d,b", "d,e", "0"])
    }

    @Test func countFirstAndGet() async throws {
        let lines = try await run(
            """
            print(count("Item"), count("Item", "n == %@", 2), count("Item", "n > %@ AND title != %@", 1, "e"))
            print(Item:count(), Item:count("n < %@", 3))
            print(Item:first("n == %@", 2) ~= nil, Item:first("n > 100"))
            print(Item:get(4).title, Item:get(99))
            """)
        #expect(lines == ["5\t2\t3", "5\t3", "true\tnil", "d\tnil"])
    }

    /// Each predicate (format, Lua arguments) with the titles it selects, sorted by title.
    @Test(arguments: [
        (#"n == 2"#, #""#, "b,c"),
        (#"n != 2"#, #""#, "a,d,e"),
        (#"n < 2"#, #""#, "a"),
        (#"n <= 2"#, #""#, "a,b,c"),
        (#"n > 4"#, #""#, "e"),
        (#"n >= 4"#, #""#, "d,e"),
        (#"title == 'c'"#, #""#, "c"),
        (#"n == 1 OR n == 5"#, #""#, "a,e"),
        (#"n > 1 AND n < 5"#, #""#, "b,c,d"),
        (#"NOT n > 1"#, #""#, "a"),
        (#"NOT (n > 1 AND n < 5)"#, #""#, "a,e"),
        (#"(n == 1 OR n == 2) AND title != 'b'"#, #""#, "a,c"),
        (#"n == 1 OR (n == 2 AND title == 'c')"#, #""#, "a,c"),
        (#"%K == %@"#, #""title", "d""#, "d"),
        (#"n == %d"#, #"4"#, "d"),
        (#"title == %@ OR n >= %d"#, #""a", 5"#, "a,e"),
        (#"when == NULL"#, #""#, "a,c,e"),
        (#"when == nil"#, #""#, "a,c,e"),
        (#"when != nil"#, #""#, "b,d"),
        (#"when > %@"#, #"date(1700000050)"#, "d")
    ])
    func predicates(format: String, arguments: String, expected: String) async throws {
        let matches = expected.split(separator: ",").count
        let extra = arguments.isEmpty ? "" : ", " + arguments
        let lines = try await run(
            """
            print(titles(fetch{ "Item", predicate = "\(format)", args = { \(arguments) }, sort = { "title" } }))
            print(#fetch("Item", "\(format)"\(extra)), count("Item", "\(format)"\(extra)))
            """)
        #expect(lines == [expected, "\(matches)\t\(matches)"], "predicate \(format) with {\(arguments)}")
    }
}

import Foundation
import QuarryShell
import Testing

/// Issue 60, item 6: SQL sorts by columns it does not select, and so does a dictionary
/// request; where grouping (or `distinct`) makes such a key meaningless it is refused,
/// saying why. Each order is checked against plain SQL on the same file.
@Suite struct DictionarySortKeysTests {
    static let schema = """
        CREATE TABLE urls (id INTEGER PRIMARY KEY, title TEXT, visit_count INTEGER, host TEXT);
        INSERT INTO urls VALUES (1, 'one', 5, 'a'), (2, 'two', 9, 'b'), (3, 'three', 5, 'a'), (4, 'four', 9, 'a'),
          (5, 'five', 1, 'b'), (6, 'six', 5, 'c'), (7, 'seven', 0, 'c');
        """

    /// The `title`s of a dictionary fetch, in its order.
    private func titles(_ h: Harness, _ options: String) -> String? {
        h.string(
            #"(function() local t = {} for _, d in ipairs(fetch{ "urls", result = "dictionaries", \#(options) }) do t[#t + 1] = tostring(d.title) end return table.concat(t, ",") end)()"#
        )
    }

    @Test func aDictionaryRequestSortsByKeysItDoesNotSelect() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let sorted = titles(h, #"properties = { "title", "visit_count" }, sort = { "-visit_count", "id" }, limit = 5"#)
        #expect(sorted == (try sqlAnswer(path, "SELECT title FROM urls ORDER BY visit_count DESC, id LIMIT 5")))
        #expect(sorted == "two,four,one,three,six")
        // Descending the other way, and the unselected key only.
        #expect(
            titles(h, #"properties = { "title" }, sort = { "-id" }"#) == (try sqlAnswer(path, "SELECT title FROM urls ORDER BY id DESC")))
        // Rows carry only the properties asked for.
        #expect(h.string(#"fetch{ "urls", result = "dictionaries", properties = { "title" }, sort = { "-id" } }[1].id"#) == "nil")
        // A key it does not know is still refused, as before.
        #expect(h.error(#"fetch{ "urls", result = "dictionaries", properties = { "title" }, sort = { "nosuch" } }"#).contains("nosuch"))
    }

    @Test func withGroupsAKeyNeitherGroupedNorAnAggregateIsRefusedSayingWhy() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.error(#"fetch{ "urls", result = "dictionaries", properties = { "count(*)" }, group = { "host" }, sort = { "id" } }"#)
        #expect(message.contains("'id' is neither grouped nor an aggregate"), "\(message)")
        #expect(!message.contains("\n"), "\(message)")
        // A grouped key, or an aggregate, orders the groups even when no property shows it.
        let hosts = h.string(
            #"(function() local t = {} for _, d in ipairs(fetch{ "urls", result = "dictionaries", properties = { "count(*) AS n" }, group = { "host" }, sort = { "-host" } }) do t[#t + 1] = d.n end return table.concat(t, ",") end)()"#
        )
        #expect(hosts == (try sqlAnswer(path, "SELECT count(*) FROM urls GROUP BY host ORDER BY host DESC")))
        let byTotal = h.string(
            #"(function() local t = {} for _, d in ipairs(fetch{ "urls", result = "dictionaries", properties = { "host" }, group = { "host" }, sort = { "-sum(visit_count)", "host" } }) do t[#t + 1] = d.host end return table.concat(t, ",") end)()"#
        )
        #expect(byTotal == (try sqlAnswer(path, "SELECT host FROM urls GROUP BY host ORDER BY sum(visit_count) DESC, host")))
        let distinct = h.error(#"fetch{ "urls", result = "dictionaries", properties = { "host" }, distinct = true, sort = { "id" } }"#)
        #expect(distinct.contains("with distinct"), "\(distinct)")
        let aggregate = h.error(#"fetch{ "urls", result = "dictionaries", properties = { "title" }, sort = { "count(*)" } }"#)
        #expect(aggregate.contains("needs group"), "\(aggregate)")
    }
}

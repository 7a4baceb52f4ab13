import Foundation
import QuarryShell
import Testing

/// Issue 80, point 6: on a table with columns `first`, `last` and `size` (words of the
/// predicate grammar), a key written without `#` is taken wherever it cannot be read as
/// the word, and `#first` is taken too. Each answer is checked against plain SQL on the
/// same file.
@Suite struct ReservedWordKeyTests {
    static let schema = """
        CREATE TABLE Doc (id INTEGER PRIMARY KEY, first TEXT, last TEXT, size INTEGER, kind TEXT);
        INSERT INTO Doc VALUES (1, 'bob', 'zed', 3145728, 'a'), (2, 'ann', 'yu', 1048576, 'b'),
          (3, 'dee', 'xi', 5242880, 'a'), (4, 'cy', 'wu', 2097152, 'b'), (5, 'eve', 'vo', 7340032, 'c');
        """

    /// `key` of each row `fetch{ "Doc", options }` gives, in its order, joined by commas.
    private func column(_ h: Harness, _ options: String, _ key: String) -> String? {
        h.string(
            ##"(function() local t = {} for _, d in ipairs(fetch{ "Doc", \##(options) }) do t[#t + 1] = type(d.\##(key)) == "number" and string.format("%.15g", d.\##(key)) or tostring(d.\##(key)) end return table.concat(t, ",") end)()"##
        )
    }

    @Test func aSortKeyTakesAReservedWordWithOrWithoutTheHash() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let expected = try sqlAnswer(path, "SELECT first FROM Doc ORDER BY first DESC")
        #expect(expected == "eve,dee,cy,bob,ann")
        #expect(column(h, ##"sort = "-first""##, "first") == expected)
        #expect(column(h, ##"sort = "-#first""##, "first") == expected)
        #expect(column(h, ##"sort = { { "#first", ascending = false } }"##, "first") == expected)
        #expect(column(h, ##"sort = { "#size" }"##, "first") == (try sqlAnswer(path, "SELECT first FROM Doc ORDER BY size")))
        // Pending objects are placed by the same key in memory.
        h.run(##"Doc:new{ first = "cz", last = "a", size = 1, kind = "a" }"##)
        #expect(column(h, ##"sort = "-#first""##, "first") == "eve,dee,cz,cy,bob,ann")
        #expect(column(h, ##"sort = "#last""##, "first") == "cz,eve,cy,dee,ann,bob")
        // A dictionary request's sort, too.
        #expect(
            column(h, ##"result = "dictionaries", properties = { "first" }, sort = "-#first""##, "first")
                == (try sqlAnswer(path, "SELECT first FROM Doc ORDER BY first DESC")))
        // A key it does not have is still refused, by its name.
        let unknown = h.error(##"fetch{ "Doc", sort = "-#nosuch" }"##)
        #expect(unknown.contains("'nosuch'") && !unknown.contains("#"), "\(unknown)")
    }

    @Test func propertiesGroupsAndAggregatesReadABareReservedWordAsTheKey() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let megabytes = try sqlAnswer(path, "SELECT sum(size / 1048576) FROM Doc GROUP BY kind ORDER BY kind")
        #expect(megabytes == "8,3,7")
        let grouped = ##"result = "dictionaries", group = { "kind" }, sort = "kind""##
        #expect(column(h, ##"properties = { "kind", "sum(size / 1048576) AS mb" }, \##(grouped)"##, "mb") == megabytes)
        #expect(column(h, ##"properties = { "kind", "sum(#size / 1048576) AS mb" }, \##(grouped)"##, "mb") == megabytes)
        // An aggregate of the key goes by its name, however the key is written.
        #expect(column(h, ##"properties = { "kind", "max(#size)" }, \##(grouped)"##, "max_size") == "5242880,2097152,7340032")
        #expect(column(h, ##"properties = { "kind", "min(first)" }, \##(grouped)"##, "min_first") == "bob,ann,eve")
        // An expression of two such keys, and a key path read as one.
        #expect(
            column(h, ##"properties = { "id", "size - size AS zero", "#last" }, result = "dictionaries", sort = "id""##, "last")
                == (try sqlAnswer(path, "SELECT last FROM Doc ORDER BY id")))
        // Grouped by a reserved word, sorted by it and filtered by it in having.
        let byFirst = ##"result = "dictionaries", properties = { "first", "count(*) AS n" }, group = { "first" }"##
        #expect(
            column(h, ##"\##(byFirst), sort = "-#first", having = "first != 'bob' AND max(size) > 1048576""##, "first")
                == (try sqlAnswer(path, "SELECT first FROM Doc GROUP BY first HAVING first != 'bob' AND max(size) > 1048576 ORDER BY first DESC")))
        #expect(
            column(h, ##"result = "dictionaries", properties = { "#first", "count(*) AS n" }, group = { "#first" }, sort = "first""##, "first")
                == (try sqlAnswer(path, "SELECT first FROM Doc GROUP BY first ORDER BY first")))
    }

    /// Core Data's request names the key without the '#' the text may carry.
    @Test func theSwiftOfSuchARequestNamesTheKey() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let code =
            h.string(
                ##"swift(fetch{ "Doc", result = "dictionaries", properties = { "#first", "max(#size)" }, group = { "#first" }, sort = "-#first" })"##
            ) ?? ""
        #expect(code.contains(#"request.propertiesToGroupBy = ["first"]"#), "\(code)")
        #expect(code.contains(#"NSExpression(forKeyPath: "size")"#) && code.contains(#"property1.name = "max_size""#), "\(code)")
        #expect(code.contains(#"NSSortDescriptor(key: "first", ascending: false"#), "\(code)")
        #expect(!code.contains("#first") && !code.contains("not expressed"), "\(code)")
    }

    @Test func aReservedWordThatIsNoKeyIsStillRefusedSayingSo() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let word = h.error(##"fetch{ "Doc", result = "dictionaries", properties = { "kind", "sum(size * any)" }, group = { "kind" } }"##)
        #expect(word.contains("'any' is a reserved word") && word.contains("#any"), "\(word)")
        // A message's column is the one written, before any '#' was added.
        let unknown = h.error(##"fetch{ "Doc", result = "dictionaries", properties = { "kind", "sum(size * nope)" }, group = { "kind" } }"##)
        #expect(unknown.contains("'nope'") && unknown.contains("column 12"), "\(unknown)")
    }
}

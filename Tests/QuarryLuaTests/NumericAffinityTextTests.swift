import Foundation
import QuarryShell
import Testing

/// A column of a SQLite file whose type Quarry does not know (MySQL's `YEAR` and `ENUM` in
/// the Sakila sample, `MONEY`): SQLite gives it NUMERIC affinity, so it keeps `'2006'` as
/// the integer 2006 and labels as text. It reads as a string attribute that holds what
/// SQLite stored, and a predicate compares it as SQLite does, in SQL and in memory alike.
/// It was refused (`ENUM` read as a double: "'rating' is double and cannot be compared
/// with string"), or counted one way in SQL and another in memory (`YEAR`).
@Suite struct NumericAffinityTextTests {
    static func file() throws -> String {
        try foreignFile(
            """
            CREATE TABLE film (id INTEGER PRIMARY KEY, release_year YEAR, rating ENUM, price MONEY);
            INSERT INTO film (release_year, rating, price) VALUES (2006, 'PG', '4.99'), ('2006', 'G', 0.99), ('abc', '10', 'n/a'),
              (9, 'PG-13', NULL), (NULL, 5.0, 2), ('10.0', 'R', ' 3 '), (2010, x'01', -1);
            """)
    }

    static let cases: [(predicate: String, sql: String)] = [
        ("release_year == 2006", "release_year = 2006"),
        ("release_year == '2006'", "release_year = '2006'"),
        ("release_year > 2005", "release_year > 2005"),
        ("release_year > '9'", "release_year > '9'"),
        ("release_year < 'b'", "release_year < 'b'"),
        ("release_year IN {2006, '10', 'abc'}", "release_year IN (2006, '10', 'abc')"),
        ("release_year BETWEEN {'1', '3000'}", "release_year BETWEEN '1' AND '3000'"),
        ("release_year BEGINSWITH '20'", "release_year GLOB '20*'"),
        ("rating == 'PG'", "rating = 'PG'"),
        ("rating == '10'", "rating = '10'"),
        ("rating == 5", "rating = 5"),
        ("rating > '5'", "rating > '5'"),
        ("rating != 'G'", "rating IS NOT 'G'"),
        ("rating CONTAINS 'G'", "rating GLOB '*G*'"),
        ("rating BEGINSWITH[c] 'pg'", "lower(rating) GLOB 'pg*'"),
        ("price == '4.99'", "price = '4.99'"),
        ("price > 1", "price > 1"),
        ("price < 'a'", "price < 'a'")
    ]

    @Test func countsAndMatchesAgreeWithSQLite() throws {
        let path = try Self.file()
        let h = try Harness(context: try StoreOpener.open(path))
        try expectCountsAgreeWithSQLite(h, path, table: "film", Self.cases)
        #expect(h.string(#"math.type(film:first("id == 2").release_year)"#) == "integer")
        #expect(h.string(#"film:first("id == 1").rating"#) == "PG")
    }

    /// A new object holds what SQLite will store, so it matches before the save as its row
    /// does after it, and a number is taken as given.
    @Test func aNewObjectHoldsWhatSQLiteStores() throws {
        let path = try Self.file()
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"o = film:new{ release_year = "2007", rating = "42", price = 3 }"#)
        #expect(h.string(#"math.type(o.release_year)"#) == "integer")
        #expect(h.string(#"predicate("release_year == 2007 AND rating == 42 AND price == 3"):matches(o)"#) == "true")
        h.run("save()")
        #expect(h.string(#"count("film", "release_year == 2007 AND rating == 42 AND price == 3")"#) == "1")
        #expect(h.string(#"predicate("release_year == 2007"):matches(o)"#) == "true")
        #expect(try sqlAnswer(path, "SELECT typeof(release_year) || typeof(rating) FROM film WHERE id = 8") == "integerinteger")
        h.run(#"film:new{ rating = "NC-17" }; save()"#)
        #expect(try sqlAnswer(path, "SELECT rating FROM film WHERE id = 9") == "NC-17")
    }
}

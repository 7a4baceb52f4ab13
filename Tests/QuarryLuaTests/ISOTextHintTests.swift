import Foundation
import QuarryShell
import QuarryStore
import Testing

/// A TEXT column of ISO 8601 times compared with a date (issue 85, item 7): the refusal
/// names the `format()` that makes it a date, with the layout's name and the entity's,
/// ready to paste; text that is no time gets no such hint; `format(e, a)` answers the
/// layout's name (`iso-space`), not an example of it.
@Suite struct ISOTextHintTests {
    @Test func isoTextComparedWithADateNamesTheFormatThatMakesItADate() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t(id INTEGER PRIMARY KEY, made TEXT, other TEXT);
            INSERT INTO t(made, other) VALUES ('2022-07-21 20:28:54', 'x'), ('2022-07-22 01:00:00', 'y'), (NULL, NULL);
            CREATE TABLE u(id INTEGER PRIMARY KEY, made TEXT);
            INSERT INTO u(made) VALUES ('2022-07-21T20:28:54.735+0800');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        let hint = h.error("return count('t', 'made > %@', date('2022-07-21'))")
        #expect(hint.contains(#"its text reads as ISO 8601 times: format("t", "made", "iso-space") makes it a date"#), "\(hint)")
        #expect(!hint.contains("\n"))
        let none = h.error("return count('t', 'other > %@', date('2022-07-21'))")
        #expect(none.contains("'other' is string and cannot be compared with date") && !none.contains("format("), "\(none)")
        // A layout no short name says is named by its example, which format() takes too.
        let example = h.error("return count('u', 'made > %@', date('2022-07-21'))")
        #expect(example.contains(#"format("u", "made", "2021-01-01T00:00:00.000+0000") makes it a date"#), "\(example)")
        // Following the hint: a date, counted as sqlite3 counts the text.
        h.run(#"format("t", "made", "iso-space"); format("u", "made", "2021-01-01T00:00:00.000+0000")"#)
        #expect(h.string(#"format("t", "made")"#) == "iso-space")
        #expect(h.string(#"format("u", "made")"#) == "2021-01-01T00:00:00.000+0000")
        let later = try sqlAnswer(path, "SELECT count(*) FROM t WHERE julianday(made) > julianday('2022-07-21T22:00:00Z')")
        #expect(later == "1")
        #expect(h.string("count('t', 'made > %@', date('2022-07-21T22:00:00Z'))") == later)
    }

    /// `made.year` in `properties` or `group` on such a column: the same hint, in the same
    /// words (one place writes it), after the refusal of a part of an attribute.
    @Test func aDatePartOfISOTextNamesTheSameFormat() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t(id INTEGER PRIMARY KEY, made TEXT, other TEXT);
            INSERT INTO t(made, other) VALUES ('2022-07-21 20:28:54', 'x'), ('2023-07-22 01:00:00', 'y');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        let hint = #"its text reads as ISO 8601 times: format("t", "made", "iso-space") makes it a date"#
        let compared = h.error("return count('t', 'made > %@', date('2022-07-21'))")
        // The position before the remedy, so the column is not read as part of the code to paste.
        #expect(compared.contains(" at column ") && compared.hasSuffix("; " + hint), "\(compared)")
        for request in [#"fetch{ "t", properties = { "made.year" } }"#, #"fetch{ "t", properties = { "count(*)" }, group = { "made.year" } }"#] {
            let error = h.error("return " + request)
            #expect(
                error.contains("'made' in 'made.year' is an attribute of t, not a relationship") && error.hasSuffix("; " + hint)
                    && !error.contains("\n"),
                "\(error)")
        }
        let other = h.error(#"return fetch{ "t", properties = { "other.year" } }"#)
        #expect(other.contains("'other.year': other is text, not a date, so it has no year") && !other.contains("format("), "\(other)")
    }

    /// `ts.month` on a column of Unix seconds near today: the `format()` that makes it a
    /// date, as comparing it with a date says; a column of small counts gets none.
    @Test func aDatePartOfUnixSecondsNamesTheFormat() throws {
        let path = try foreignFile(
            """
            CREATE TABLE log(id INTEGER PRIMARY KEY, ts INTEGER, n INTEGER);
            INSERT INTO log(ts, n) VALUES (1735689600, 3), (1738368000, 4), (1740787200, 5);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        let error = h.error(#"return fetch{ "log", properties = { "ts.month AS m", "count(*) AS n" }, group = { "ts.month" } }"#)
        let hint = #"not a relationship; if another program keeps times there, declare their unit: format("log", "ts", "unix")"#
        #expect(error.contains(hint), "\(error)")
        let counts = h.error(#"return fetch{ "log", properties = { "n.month" } }"#)
        #expect(counts.contains("not a relationship") && !counts.contains("format("), "\(counts)")
        // Following it: months, grouped in SQL.
        h.run(#"format("log", "ts", "unix")"#)
        #expect(h.string(#"#fetch{ "log", properties = { "ts.month AS m", "count(*) AS n" }, group = { "ts.month" } }"#) == "3")
    }

    /// A date part of text in Quarry's own entity (an import kept quoted times as text):
    /// what the column is and the import option that reads it as dates, not "not a
    /// relationship" (trial 32).
    @Test func aDatePartOfOwnTextNamesTheImportType() throws {
        let h = try Harness()
        h.run(#"entity "Pay" { payment_date = "string" }; Pay:new{ payment_date = "2005-05-25 11:30:37.000" }; save()"#)
        let error = h.error(#"return count("Pay", "payment_date.month == 5")"#)
        #expect(error.contains("'payment_date.month': payment_date is text, not a date, so it has no month"), "\(error)")
        #expect(error.contains(#"types = { payment_date = "date" }"#) && !error.contains("relationship") && !error.contains("\n"), "\(error)")
    }
}

import Foundation
import QuarryShell
import QuarryStore
import Testing

/// A unit of times that misreads the numbers is refused (issue 85, item 1): milliseconds
/// declared `unix` put every date in the year 56048 and the count answered 0 where
/// sqlite3 counts 2. `format()` reads the column's numbers first and names the unit that
/// reads them near today; the message of a number compared with a date names it first,
/// ready to paste with the entity's own name.
@Suite struct FormatUnitCheckTests {
    static func file() throws -> String {
        try foreignFile(
            """
            CREATE TABLE t(id INTEGER PRIMARY KEY, ms INTEGER, s INTEGER, old INTEGER);
            INSERT INTO t(ms, s, old) VALUES (1706547200963, 1706547200, -2208988800), (1709130157084, 1709130157, -1000000000),
              (NULL, 1600000000, NULL);
            """)
    }

    @Test func aUnitThatMisreadsTheNumbersIsRefusedNamingTheOneThatReadsThem() throws {
        let path = try Self.file()
        let h = try Harness(context: try StoreOpener.open(path))
        // Before any declaration, the comparison names the unit the numbers fit, first.
        let missing = h.error("return count('t', 'ms >= %@', date('2024-01-01'))")
        #expect(
            missing.contains(#"declare their unit: format("t", "ms", "unix-ms") (as unix-ms, one of its values reads 2024-01-29T16:53:20.963Z)"#),
            "\(missing)")
        // Seconds for milliseconds: past the year 9999, refused naming unix-ms and its reading.
        #expect(
            h.error("format('t', 'ms', 'unix')")
                .contains(
                    #"as unix, ms's 1706547200963 is a date past the year 9999; as unix-ms it reads 2024-01-29T16:53:20.963Z: format("t", "ms", "unix-ms")"#
                ))
        for unit in ["cocoa", "julian", "unix-us", "webkit"] {
            #expect(h.error("format('t', 'ms', '\(unit)')").contains("as unix-ms it reads 2024-01-29T16:53:20.963Z"), "\(unit)")
        }
        // Milliseconds for seconds: 1970, fifty years from the unit that reads them today.
        #expect(h.error("format('t', 's', 'unix-ms')").contains(#"as unix-ms, s's 1706547200 reads 1970-01-20T18:02:27.2Z; as unix it reads"#))
        // Nothing was declared by a refusal: the column is still a number.
        #expect(h.string("typeof(t:get(1).ms)") == "number")
        // The units that read them are taken; the counts are sqlite3's on the raw numbers.
        h.run("format('t', 'ms', 'unix-ms'); format('t', 's', 'unix')")
        let since = try sqlAnswer(path, "SELECT count(*) FROM t WHERE ms >= CAST(strftime('%s', '2024-01-01') AS INTEGER) * 1000")
        #expect(since == "2")
        #expect(h.string("count('t', 'ms >= %@', date('2024-01-01'))") == since)
        #expect(h.string("count('t', 's < %@', date('2024-01-01'))") == (try sqlAnswer(path, "SELECT count(*) FROM t WHERE s < 1704067200")))
        // Old times in their own unit, which no other unit reads near today, are taken.
        h.run("format('t', 'old', 'unix')")
        #expect(h.string("t:get(1).old.year") == "1900")
    }
}

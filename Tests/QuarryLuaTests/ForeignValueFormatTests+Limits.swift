import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// Layouts past what Quarry can write, and values a layout cannot hold (issue 48): each
/// refused with one line, the file as it was; none stops the process.
extension ForeignValueFormatTests {
    /// A file whose table `t` has one date written as `text` in `d`, opened.
    func dateColumn(_ text: String) throws -> (path: String, h: Harness) {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, d DATETIME);
            INSERT INTO t VALUES (1, '\(text)');
            """)
        return (path, try Harness(context: try StoreOpener.open(path)))
    }

    /// The text Quarry wrote for the second row.
    func secondDate(_ path: String) throws -> String? {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchOne(db, sql: "SELECT d FROM t WHERE id = 2") }
    }

    /// A column written with 19 fraction digits: a save of a date with a fraction is
    /// refused, naming the column and a layout Quarry writes; declared, the save goes
    /// through in nine digits.
    @Test func aColumnWithMoreFractionDigitsThanQuarryWritesIsRefused() throws {
        let (path, h) = try dateColumn("2021-01-01T00:00:00.1234567890123456789Z")
        let before = try snapshot(path)
        // 0.99 s: the fraction times 10^19 is past Int.max, where the write trapped.
        h.run("t:new{ d = date(1000000000.99) }")
        let message = h.error("save()")
        #expect(
            message.contains("t.d") && message.contains("19 fraction digits") && message.contains("nothing was written")
                && message.contains(#"format("t", "d", "2021-01-01T00:00:00.000000000Z")"#), "\(message)")
        #expect(!message.contains("\n"))
        #expect(h.error(#"format("t", "d")"#).contains("19 fraction digits"))
        let after = try snapshot(path)
        #expect(after.0 == before.0 && after.1 == before.1)
        h.run(#"format("t", "d", "2021-01-01T00:00:00.000000000Z"); save()"#)
        let written = try secondDate(path)
        #expect(written?.hasPrefix("2001-09-09T01:46:40.99") == true && written?.count == 30, "\(written ?? "nil")")
    }

    /// `format()` with a layout of 300 fraction digits: one short line saying how many
    /// Quarry writes; nothing is declared.
    @Test func aLayoutOfThreeHundredFractionDigitsIsRefused() throws {
        let (_, h) = try dateColumn("2021-01-01T00:00:00Z")
        let message = h.error(#"format("t", "d", "2021-01-01T00:00:00." .. ("0"):rep(300) .. "Z")"#)
        #expect(message.contains("300 fraction digits") && message.contains("at most 9"), "\(message)")
        #expect(!message.contains("\n") && message.count < 200, "\(message)")
        #expect(h.string(#"format("t", "d")"#) == "2021-01-01T00:00:00Z")
        // Ten digits are past nine too; nine are kept.
        #expect(h.error(#"format("t", "d", "2021-01-01T00:00:00.0000000000Z")"#).contains("10 fraction digits"))
        #expect(h.string(#"format("t", "d", "2021-01-01T00:00:00.000000000Z")"#) == "2021-01-01T00:00:00.000000000Z")
    }

    /// A column to the minute: the last half minute of 9999 would round to
    /// `10000-01-01 00:00`, which nothing reads as a date; it is refused at save, and the
    /// minute before it is written.
    @Test func aDateRoundedPastTheYear9999IsRefusedAtSave() throws {
        let (path, h) = try dateColumn("2021-01-01 00:00")
        let before = try snapshot(path)
        h.run("t:new{ d = date('9999-12-31T23:59:50Z') }")
        let message = h.error("save()")
        #expect(message.contains("t.d") && message.contains("year 10000") && message.contains("nothing was written"), "\(message)")
        let batch = h.error(#"rollback(); t:updateall("id == 1", {}, { d = date('9999-12-31T23:59:31Z') })"#)
        #expect(batch.contains("year 10000"), "\(batch)")
        let after = try snapshot(path)
        #expect(after.0 == before.0 && after.1 == before.1)
        h.run("t:new{ d = date('9999-12-31T23:59:20Z') }; save()")
        #expect(try secondDate(path) == "9999-12-31 23:59")
    }
}

import Foundation
import QuarryShell
import QuarryStore
import Testing

/// ISO text with an offset in ISO 8601's basic form (issue 85, item 2): Trilium writes
/// `2022-07-21 20:28:54.735+0800`, which SQLite's `julianday()` does not read, so every
/// comparison was false in SQL while the values printed right. `+HHMM` and `+HH` read as
/// `+HH:MM` does, in SQL and in memory; the counts are sqlite3's on the same text with
/// its offsets written `+HH:MM` (normalised here, in Swift).
@Suite struct ISOBasicOffsetTests {
    static let texts = [
        "2022-07-21 20:28:54.735+0800", "2022-07-21 20:28:54+08", "2022-07-21 12:28:54.735Z", "2022-07-22 01:00:00.000-0500",
        "2022-07-21 23:30:00-0130", "2022-07-21T05:00:00+05:30", "2022-07-21 09:00:00", "2022-07-21 10:15:00.5+0000"
    ]

    /// `text` with its offset written `+HH:MM`.
    static func normalised(_ text: String) -> String {
        // The sign after the time (index 10 on: a date's own dashes come before).
        guard let sign = text.lastIndex(where: { $0 == "+" || $0 == "-" }), text.distance(from: text.startIndex, to: sign) > 10 else {
            return text
        }
        let head = String(text[...sign])
        let tail = String(text[text.index(after: sign)...])
        guard tail.allSatisfy(\.isNumber) else { return text }
        switch tail.count {
        case 4: return head + tail.prefix(2) + ":" + tail.suffix(2)
        case 2: return head + tail + ":00"
        default: return text
        }
    }

    @Test func basicOffsetsReadAsExtendedOnesInSQLAndInMemory() throws {
        let values = Self.texts.map { "('\($0)', '\(Self.normalised($0))')" }.joined(separator: ", ")
        let path = try foreignFile(
            """
            CREATE TABLE t(id INTEGER PRIMARY KEY, made TEXT, norm TEXT);
            INSERT INTO t(made, norm) VALUES \(values), (NULL, NULL);
            """)
        // SQLite itself reads none of the basic offsets.
        #expect(try sqlAnswer(path, "SELECT count(*) FROM t WHERE julianday(made) IS NULL AND made IS NOT NULL") == "5")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM t WHERE julianday(norm) IS NOT NULL") == String(Self.texts.count))
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("format('t', 'made', 'iso-space')")
        let at = "julianday('2022-07-21T12:28:54.735Z')"
        try expectCountsAgreeWithSQLite(
            h, path, table: "t",
            [
                ("made != nil", "julianday(norm) IS NOT NULL"),
                ("made > CAST('2022-07-21T12:28:54.735Z', 'NSDate')", "julianday(norm) > \(at)"),
                ("made >= CAST('2022-07-21T12:28:54.735Z', 'NSDate')", "julianday(norm) >= \(at)"),
                ("made == CAST('2022-07-21T12:28:54.735Z', 'NSDate')", "julianday(norm) = \(at)"),
                ("made < CAST('2022-07-21T10:00:00Z', 'NSDate')", "julianday(norm) < julianday('2022-07-21T10:00:00Z')"),
                ("made.hour == 12", "strftime('%H', norm) = '12'"),
                ("made.date == CAST('2022-07-22', 'NSDate')", "date(norm) = '2022-07-22'")
            ])
        // Each reads the instant sqlite3 reads its normalised text as.
        let instants = try sqlAnswer(path, "SELECT coalesce(strftime('%Y-%m-%dT%H:%M:%S', norm), 'nil') FROM t ORDER BY id")
        let read = h.string(
            "(function() local t = {} for _, o in ipairs(fetch{ 't', sort = { 'id' } }) do t[#t + 1] = o.made == nil and 'nil' or tostring(o.made):sub(1, 19) end return table.concat(t, ',') end)()"
        )
        #expect(read == instants)
    }
}

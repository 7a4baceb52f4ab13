import Foundation
import QuarryShell
import QuarryStore
import Testing

/// A SQLite file pandas wrote may hold a column of 8-byte blobs where it meant integers
/// (numpy's int64 it could not bind: a crime table's `hora`, 18,512 cells of
/// `x'1600000000000000'`). Such cells are bytes, not text: the notes of summarize, a count,
/// a histogram and an aggregate named them text, which the table (`<8 bytes>`) belied.
/// Each now says bytes, and its count with its digits grouped as the rest of the line.
@Suite struct BytesInNumberColumnsTests {
    static func file() throws -> String {
        try foreignFile(
            """
            CREATE TABLE crimes (id INTEGER PRIMARY KEY, hora INTEGER, bairro TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
            INSERT INTO crimes (hora, bairro) SELECT zeroblob(8), 'CENTRO' FROM n;
            """)
    }

    @Test func notesNameBytesAsBytes() throws {
        let path = try Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try sqlAnswer(path, "SELECT count(*) FROM crimes WHERE typeof(hora) = 'blob'") == "1200")
        let console = ConsoleAndFailureTests.RecordingConsole()
        let h = try Harness(context: try StoreOpener.open(path), console: console)
        h.run(#"local s = summarize("crimes"); assert(s[2].column == "hora" and s[2].text == 1200, tostring(s[2].text))"#)
        #expect(
            console.notes == [
                "note: summarize crimes: hora holds 1,200 cells of bytes: not numbers, left out of min, max, mean, stddev and the quartiles "
                    + "(the text column counts them)"
            ], "\(console.notes)")
        console.notes = []
        h.run(#"assert(count("crimes", "hora > 12") == 1200)"#)
        #expect(
            console.notes == [
                "note: rows counted whose cell holds bytes, not a number: 1,200 in crimes.hora (SQLite orders bytes after every number, so the "
                    + "comparison of hora with a number holds for them; summarize() shows those cells)"
            ], "\(console.notes)")
        console.notes = []
        h.run(#"local r = fetch{ "crimes", properties = { "max(hora) AS m" } }; assert(#r == 1)"#)
        #expect(
            console.notes == [
                "note: rows aggregated whose cell holds bytes, not a number: 1,200 in crimes.hora (in SQLite, max orders bytes after every "
                    + "number; summarize() leaves those cells out)"
            ], "\(console.notes)")
        let chart = h.string(#"histogram("crimes", "hora")"#) ?? ""
        #expect(chart.hasSuffix("\n1,200 cells are bytes, not numbers, left out"), "\(chart)")
    }
}

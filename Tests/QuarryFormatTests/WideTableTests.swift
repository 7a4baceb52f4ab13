import Foundation
import QuarryFormat
import QuarryModel
import Testing

/// Wide data in view (issue 80): a text column takes what the terminal leaves, a cap only
/// when the table would not fit (shared fairly), `.width N` sets one (0: none), and a table
/// a pager takes is laid out whole.
@Suite struct WideTableTests {
    private let url = "https://example.com/" + String(repeating: "a", count: 70)

    @Test func aLongTextTakesTheTerminalsWidthWhenTheTableFits() {
        var format = TableFormat()
        format.width = 160
        let table = TextTable(headers: ["id", "url"], values: [[.integer(1), .text(url)]])
        let text = table.render(format)
        #expect(text.contains(url) && !text.contains("…"), "\(text)")
        // Off a terminal (a pipe, a file): whole, as sqlite3 writes to a pipe; `.width N` still caps.
        #expect(table.render(TableFormat()).contains(url))
        var capped = TableFormat()
        capped.textWidth = 40
        #expect(table.render(capped).contains("…"))
    }

    @Test func aTableTooWideIsCappedFairlyBeforeAnyColumnIsLeftOut() {
        var format = TableFormat()
        format.width = 120
        let long = String(repeating: "m", count: 80)
        let table = TextTable(headers: ["a", "b", "n"], values: [[.text(url), .text(long), .integer(7)]])
        let lines = table.render(format).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 120 }, "\(lines)")
        #expect(!lines.contains { $0.contains("+1 column") }, "every column kept: \(lines)")
        // Both wide columns gave up the same: each is cut to the same width.
        let cells = lines[2].components(separatedBy: " | ")
        #expect(cells.count == 3 && cells[0].count == cells[1].count && cells[0].hasSuffix("…"), "\(lines)")
        #expect(TextTable.cap([90, 80, 1], headers: [1, 1, 1], room: 114, format: format) == 56)
        #expect(TextTable.cap([90, 80, 1], headers: [1, 1, 1], room: 300, format: format) == nil)
        // Too wide at 40: cut further, down to 12, before a column is left out.
        #expect(TextTable.cap([90, 80, 70, 60], headers: [1, 1, 1, 1], room: 100, format: format) == 25)
        // Too wide even at 12: columns past the edge are left out.
        #expect(TextTable.cap([90, 80, 70, 60, 50, 40, 30, 20, 10], headers: Array(repeating: 1, count: 9), room: 80, format: format) == 12)
    }

    /// A date is never cut, as a number is not (a summary's min and max within one week
    /// read `2020-09-13T…`): the texts beside it give up their width instead.
    @Test func aDateIsNeverCut() {
        var format = TableFormat()
        format.width = 70
        let table = TextTable(headers: ["a", "when", "b"], values: [[.text(url), .date(1_600_010_800), .text(url)]])
        let lines = table.render(format).split(separator: "\n").map(String.init)
        #expect(lines[2].contains(" | 2020-09-13T15:26:40Z | "), "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 70 } && lines[2].hasSuffix("…"), "\(lines)")
        format.textWidth = 8
        #expect(table.render(format).contains("2020-09-13T15:26:40Z"), ".width N cuts texts, not dates")
    }

    @Test func dotWidthSetsTheCapAndZeroRemovesIt() {
        var format = TableFormat()
        format.width = 160
        format.textWidth = 10
        let table = TextTable(headers: ["url"], values: [[.text(url)]])
        #expect(table.render(format).contains("https://e…"), "\(table.render(format))")
        format.textWidth = 0
        format.width = 40
        let whole = table.render(format)
        #expect(whole.contains(url), "\(whole)")
    }

    @Test func aTableForThePagerIsLaidOutWhole() {
        var format = TableFormat()
        format.width = 30
        format.pagerRows = 5
        let headers = ["first_column", "second_column", "third_column"]
        let rows: [[Value]] = (1...10).map { [.integer(Int64($0)), .text(url), .text("x")] }
        let paged = TextTable(headers: headers, values: rows).render(format)
        #expect(paged.contains("third_column") && paged.contains(url) && !paged.contains("+1 column"), "\(paged)")
        // Short enough for the screen: it fits the terminal as before.
        let short = TextTable(headers: headers, values: Array(rows.prefix(2))).render(format)
        #expect(short.contains("… +") && !short.contains(url), "\(short)")
    }

    /// A summary cuts its text down to 12 columns before leaving a statistic out, but never
    /// a number (a number cut reads as another) nor a column's name.
    @Test func aSummaryCutsTextButNeverNumbersNorNames() {
        var format = TableFormat()
        format.width = 90
        let headers = ["column", "type", "min", "max", "mean", "q50"]
        let rows: [[Value]] = [
            [.text("preview_image_url"), .text("string"), .text(url), .text(url), .null, .null],
            [.text("url_hash"), .text("int64"), .integer(38_717_609_072), .integer(140_675_968_334_567), .real(7.0238e13), .real(7.2e13)]
        ]
        var table = TextTable(headers: headers, values: rows)
        table.digits = 6
        table.narrowestCap = 12
        table.wholeColumns = [0]
        let lines = table.render(format).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 90 } && lines[0].hasSuffix("q50"), "\(lines)")
        #expect(lines[2].hasPrefix("preview_image_url |") && lines[2].contains("…"), "\(lines)")
        #expect(lines[3].contains("140675968334567") && lines[3].contains("7.0238e+13") && !lines[3].contains("…"), "\(lines)")
    }
}

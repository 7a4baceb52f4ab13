import Foundation
import QuarryFormat
import QuarryModel
import QuarryStore
import Testing

/// How tables are shown: one object vertically when it would not fit, a choice of
/// columns, dates in local time, and the live view's row marks.
@Suite(.serialized) struct TableChoicesTests {
    private func format(width: Int) -> TableFormat {
        var format = TableFormat()
        format.width = width
        return format
    }

    @Test func anObjectThatFitsIsAOneRowTable() {
        let text = TextTable.record(headers: ["id", "n", "title"], values: [.text("T/1"), .integer(5), .text("a")], format: format(width: 80))
        #expect(text == "id  | n | title\n----+---+------\nT/1 | 5 | a", "\(text)")
    }

    @Test func aWideObjectPrintsOneKeyPerLineLeavingNothingOut() {
        let headers = ["id"] + (1...12).map { "column_\($0)" }
        let values: [Value] = [.text("W/1")] + (1...12).map { .integer(Int64($0 * 1000)) }
        let text = TextTable.record(headers: headers, values: values, format: format(width: 60))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 13, "\(text)")
        #expect(lines[0] == "id        | W/1", "\(text)")
        #expect(lines[12] == "column_12 | 12000", "\(text)")
        #expect(!text.contains("+") && !text.contains("…"), "nothing cut or left out: \(text)")
        // A long value is not cut at 40 characters when the line has room for it: a
        // one-row table, the value whole (issue 80); one past the line, one key per line,
        // the value going on over the lines below it, whole.
        let long = String(repeating: "x", count: 50)
        let one = TextTable.record(headers: ["id", "text"], values: [.text("L/1"), .text(long)], format: format(width: 80))
        #expect(one.contains(long) && one.split(separator: "\n").count == 3, "\(one)")
        let longer = String(repeating: "x", count: 78)
        let two = TextTable.record(headers: ["id", "text"], values: [.text("L/1"), .text(longer)], format: format(width: 80))
        let twoLines = two.split(separator: "\n").map(String.init)
        #expect(!two.contains("…") && twoLines.count == 3, "\(two)")
        #expect(twoLines[1] == "text | " + String(repeating: "x", count: 69) && twoLines[2] == "     | xxxxxxxxx", "\(two)")
        // Words are not broken where a blank ends a line at least half full.
        let words = (1...30).map { "word\($0)" }.joined(separator: " ")
        let three = TextTable.record(headers: ["id", "text"], values: [.text("L/1"), .text(words)], format: format(width: 60))
        let threeLines = three.split(separator: "\n").dropFirst().map { String($0.dropFirst(7)) }
        #expect(threeLines.joined(separator: " ") == words, "\(three)")
        #expect(threeLines.allSatisfy { $0.count <= 49 }, "\(three)")
        // `.width N` chosen: cut at N, as every table cuts.
        var chosenWidth = format(width: 80)
        chosenWidth.textWidth = 30
        let cutAt = TextTable.record(headers: ["id", "text"], values: [.text("L/1"), .text(longer)], format: chosenWidth)
        #expect(cutAt.hasSuffix("…") && cutAt.split(separator: "\n").count == 2, "\(cutAt)")
        // Nil stays visible.
        let empty = TextTable.record(headers: ["id", "text"], values: [.text("L/2"), .null], format: format(width: 9))
        #expect(empty.split(separator: "\n").last == "text | nil", "\(empty)")
    }

    /// A carriage return in a cell is written as an escape, as a newline is: raw, it sent
    /// the terminal's cursor back over the row (found by review).
    @Test func controlCharactersInACellStayOnItsLine() {
        let text = TextTable.record(headers: ["id", "s"], values: [.text("T/1"), .text("cr\rlf\ncrlf\r\ntab\t")], format: format(width: 80))
        #expect(text == "id  | s\n----+----------------------\nT/1 | cr\\rlf\\ncrlf\\r\\ntab\\t", "\(text)")
    }

    @Test func chosenColumnsKeepTheIdAndTheirOrder() {
        var chosen = format(width: 0)
        chosen.columns = ["b", "nothing", "a"]
        let table = TextTable(headers: ["id", "a", "b", "c"], values: [[.text("T/1"), .integer(1), .integer(2), .integer(3)]])
        #expect(table.render(chosen) == "id  | b | a\n----+---+--\nT/1 | 2 | 1", "\(table.render(chosen))")
        chosen.columns = ["nothing"]
        #expect(table.render(chosen).hasPrefix("id  | a | b | c"), "none of them: every column")
        chosen.mode = .csv
        chosen.columns = ["c"]
        #expect(table.render(chosen) == "id,c\nT/1,3")
    }

    @Test func datesShowInLocalTimeWhenAsked() throws {
        let saved = ProcessInfo.processInfo.environment["TZ"]
        setenv("TZ", "America/New_York", 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        var local = format(width: 0)
        local.localTime = true
        let table = TextTable(headers: ["when"], values: [[.date(1_357_034_400)], [.date(1_372_680_000.5)]])
        #expect(
            table.render(local) == "when\n---------------------------\n2013-01-01T05:00:00-05:00\n2013-07-01T08:00:00.5-04:00",
            "\(table.render(local))")
        #expect(table.render(format(width: 0)).contains("2013-01-01T10:00:00Z"), "UTC by default")
        let old = TextTable(headers: ["when"], values: [[.date(-5_364_662_400)]])
        #expect(old.render(local).hasSuffix("1799-12-31T19:03:58-04:56:02"), "local mean time keeps its seconds: \(old.render(local))")
        local.mode = .csv
        #expect(table.render(local) == "when\n2013-01-01T10:00:00Z\n2013-07-01T12:00:00.5Z", "data modes stay in UTC")
    }

    @Test func marksFollowTheirRowsOutsideTheColumns() {
        var table = TextTable(headers: ["id", "n"], values: [[.text("T/1"), .integer(1)], [.text("T/2"), .integer(22)]])
        table.marks = ["", "+"]
        #expect(table.render(format(width: 0)) == "id  | n\n----+---\nT/1 |  1\nT/2 | 22 +", "\(table.render(format(width: 0)))")
    }
}

import CLua
import QuarryFormat
import QuarryStore
import Testing

@testable import QuarryLua

/// `watch` of dictionary rows and `sql()` rows (issue 32): the rows stay plain tables,
/// remember the query that made them, and the view runs it again, marks what changed,
/// re-sorts with keys and pages. (The live redraw on a terminal: `WatchRowsREPLTests`.)
@Suite struct WatchRowsTests {
    private func harness() throws -> Harness {
        let h = try Harness()
        h.run(
            #"""
            entity "Sale" { country = "string?", total = "double" }
            Sale:new{ country = "FR", total = 10 }; Sale:new{ country = "FR", total = 5 }
            Sale:new{ country = "DE", total = 7 }
            save()
            """#)
        return h
    }

    private static let grouped =
        #"fetch{ "Sale", result = "dictionaries", properties = { "country", "sum(total) AS revenue" }, group = { "country" }, sort = "country" }"#

    /// The query remembered for the global `name`'s rows.
    private func query(_ h: Harness, _ name: String) -> RowsQuery? {
        lua_getglobal(h.runtime.state, name)
        defer { lua_settop(h.runtime.state, -2) }
        return rememberedQuery(h.runtime.state, -1)
    }

    @Test func rowsStayPlainTablesAndRememberTheirQuery() throws {
        let h = try harness()
        h.run("rows = \(Self.grouped)")
        h.run(#"byArgs = sql("SELECT country, total FROM Sale WHERE total > ? ORDER BY total", 6)"#)
        h.run("plain = { { a = 1 } }")
        #expect(h.string("getmetatable(rows)") == "nil")
        #expect(h.string("getmetatable(byArgs)") == "nil")
        let grouped = try #require(query(h, "rows"))
        let sql = try #require(query(h, "byArgs"))
        #expect(query(h, "plain") == nil)
        h.run(#"Sale:new{ country = "DE", total = 8 }; Sale:new{ country = "US", total = 1 }; save()"#)
        // Run again: the new rows; the script's table keeps what it was given.
        let again = try h.runtime.rows(of: grouped)
        #expect(again.shown ?? again.columns == ["country", "revenue"])
        let revenue = try #require(again.columns.firstIndex(of: "revenue"))
        #expect(again.rows.map { $0[revenue] } == [.real(15), .real(15), .real(1)])
        #expect(h.string("#rows .. ' ' .. rows[1].revenue") == "2 7.0")
        // sql() runs again with its arguments.
        #expect(try h.runtime.rows(of: sql).rows.map { $0[1] } == [.real(7), .real(8), .real(10)])
    }

    @Test func theViewMarksChangedAndNewRowsAndSortsWithKeys() throws {
        let h = try harness()
        h.run("rows = \(Self.grouped)")
        let grouped = try #require(query(h, "rows"))
        var format = TableFormat()
        format.maxRows = 2
        let view = WatchRowsView(format: format, markSeconds: 3600) { try h.runtime.rows(of: grouped) }
        try view.refresh()
        view.startPaging()
        #expect(view.headers == ["country", "revenue"])
        #expect(view.text().contains("(2 rows)"))
        // Nothing is marked on the first run.
        #expect(!view.text().split(separator: "\n").contains { $0.hasSuffix(" +") || $0.hasSuffix(" ~") }, "\(view.text())")
        h.run(#"Sale:new{ country = "DE", total = 1 }; Sale:new{ country = "US", total = 100 }; save()"#)
        try view.refresh()
        let lines = view.text().split(separator: "\n").map(String.init)
        // DE's revenue changed (~), US is new (+), on the second page; FR is as it was.
        #expect(lines.contains { $0.hasPrefix("DE ") && $0.hasSuffix(" ~") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("FR ") && !$0.hasSuffix("~") && !$0.hasSuffix("+") }, "\(lines)")
        #expect(lines.last == "rows 1–2 of 3", "\(lines)")
        view.press(.character(UInt8(ascii: "n")))
        #expect(view.text().split(separator: "\n").contains { $0.hasPrefix("US ") && $0.hasSuffix(" +") }, "\(view.text())")
        view.press(.character(UInt8(ascii: "g")))
        // 2: by revenue, up; again: down; r: the other way again.
        view.press(.character(UInt8(ascii: "2")))
        #expect(view.rows.map { $0[0] } == [.text("DE"), .text("FR"), .text("US")])
        view.press(.character(UInt8(ascii: "2")))
        #expect(view.rows.map { $0[0] } == [.text("US"), .text("FR"), .text("DE")])
        #expect(view.text().hasSuffix("rows 1–2 of 3 · sorted here by -revenue"), "\(view.text())")
        view.press(.character(UInt8(ascii: "r")))
        #expect(view.rows.map { $0[0] } == [.text("DE"), .text("FR"), .text("US")])
        // 9: no such column, nothing changes.
        view.press(.character(UInt8(ascii: "9")))
        #expect(view.order?.column == "revenue" && view.order?.ascending == true)
    }

    @Test func anEmptyResultKeepsItsHeaderAndNilsSortFirst() throws {
        let h = try harness()
        h.run(#"Sale:new{ total = 3 }; save()"#)
        h.run(#"rows = sql("SELECT country, max(total) AS top FROM Sale GROUP BY country ORDER BY top")"#)
        let made = try #require(query(h, "rows"))
        let view = WatchRowsView(format: TableFormat()) { try h.runtime.rows(of: made) }
        try view.refresh()
        #expect(view.rows.map { $0[0] } == [.null, .text("DE"), .text("FR")])
        view.press(.character(UInt8(ascii: "1")))
        #expect(view.rows.map { $0[0] } == [.null, .text("DE"), .text("FR")])
        view.press(.character(UInt8(ascii: "1")))
        #expect(view.rows.map { $0[0] } == [.text("FR"), .text("DE"), .null])
        h.run(#"for _, o in ipairs(fetch("Sale"):totable()) do o:delete() end; save()"#)
        try view.refresh()
        #expect(view.headers == ["country", "top"])
        #expect(view.text().contains("(0 rows)"), "\(view.text())")
    }

    @Test func watchRefusesWhatItCannotRunAgain() throws {
        let h = try harness()
        // Not a terminal here: the table once, as print shows it, and back.
        h.run("watch(\(Self.grouped))")
        h.run(#"watch(sql("SELECT count(*) AS n FROM Sale"))"#)
        let summary = h.error(#"watch(summarize("Sale"))"#)
        #expect(
            summary
                == #"t:1: watch: these rows have no query to run again (summarize's); watch results, fetch{ ..., result = "dictionaries" } or sql(...)"#,
            "\(summary)")
        let plain = h.error("watch({ { a = 1 } })")
        #expect(plain.contains("results, dictionary results or sql() rows expected"), "\(plain)")
        let option = h.error(#"watch(fetch("Sale"), { mark = 1 })"#)
        #expect(option.contains("watch: unknown option 'mark' (did you mean 'marks'?)"), "\(option)")
    }
}

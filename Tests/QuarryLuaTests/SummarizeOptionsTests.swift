import Foundation
import QuarryFetch
import QuarryLua
import QuarryPredicates
import QuarryStore
import Testing

// summarize(source, { exact = true }): options refused as fetch{} refuses them, estimates
// marked in the printed header, and exact counts on request.

private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("quarry-summarize-\(getpid())-\(name)").path
}

private func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\") + "\"" }

/// What the REPL prints for `expression` (quarry.show, sent to a file as `.once` does).
private func shown(_ h: Harness, _ expression: String) throws -> String {
    let path = temporaryPath("show-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(atPath: path) }
    h.run("quarry.__once = \(quoted(path)); quarry.show(\(expression))")
    return try String(contentsOfFile: path, encoding: .utf8)
}

/// A store with `Big`: 70,000 rows, `n` = 1...70,000 (more distinct values and more values
/// than the one scan counts exactly: 16,384 and 65,536) and `g` = n % 7.
private func bigHarness() throws -> Harness {
    let csv = temporaryPath("big-\(UUID().uuidString).csv")
    defer { try? FileManager.default.removeItem(atPath: csv) }
    var text = "n,g\n"
    for n in 1...70_000 { text += "\(n),\(n % 7)\n" }
    try text.write(toFile: csv, atomically: true, encoding: .utf8)
    let h = try Harness()
    h.run("assert(import(\(quoted(csv)), { entity = 'Big' }) == 70000)")
    return h
}

struct SummarizeOptionsTests {
    @Test func unknownOptionsAndBadValuesAreRefused() throws {
        let h = try Harness()
        h.run("entity 'Item' { n = 'int64' }; Item:new{ n = 1 }; save()")
        let typo = h.error("summarize(Item, { exat = true })")
        #expect(typo.contains("summarize: unknown option 'exat'") && typo.contains("did you mean 'exact'"), "\(typo)")
        #expect(!typo.contains("\n"), "\(typo)")
        let value = h.error("summarize(Item, { exact = 'yes' })")
        #expect(value.contains("summarize: exact must be true or false, got string"), "\(value)")
        let listed = h.error("summarize(Item, { true })")
        #expect(listed.contains("summarize: options are named (exact)"), "\(listed)")
        let notTable = h.error("summarize(Item, 5)")
        #expect(notTable.contains("bad argument #2 to 'summarize' (table of options expected"), "\(notTable)")
        // nil and an empty table are no options; exact = false is the default.
        h.run("assert(#summarize(Item, nil) == 1 and #summarize(Item, {}) == 1 and summarize(Item, { exact = false })[1].count == 1)")
    }

    @Test func estimatesAreMarkedInTheHeaderAndExactCountsThem() throws {
        let h = try bigHarness()
        h.run(
            """
            local s = summarize("Big")
            local n, g = s[1], s[2]
            assert(n.column == "n" and n.count == 70000 and n.nulls == 0 and n.min == 1 and n.max == 70000, n.count)
            assert(n.mean == 35000.5, n.mean)
            -- Estimated: within 3% (HyperLogLog's standard error is about 0.8%) ...
            assert(math.abs(n.distinct - 70000) <= 2100, n.distinct)
            assert(math.abs(n.q50 - 35000.5) <= 2100, n.q50)
            -- ... but few distinct values are counted exactly.
            assert(g.distinct == 7, g.distinct)
            local e = summarize("Big", { exact = true })[1]
            assert(e.distinct == 70000 and e.q25 == 17500.75 and e.q50 == 35000.5 and e.q75 == 52500.25, e.q25)
            assert(e.count == n.count and e.min == n.min and e.max == n.max and e.mean == n.mean)
            assert(math.abs(e.stddev - n.stddev) < 1e-9 * e.stddev, e.stddev)
            """)
        let quick = try shown(h, "summarize('Big')")
        let header = quick.split(separator: "\n").first.map(String.init) ?? ""
        for marked in ["distinct~", "q25~", "q50~", "q75~"] { #expect(header.contains(marked), "\(header)") }
        for plain in ["count ", "mean ", "stddev "] { #expect(header.contains(plain), "\(header)") }
        let exact = try shown(h, "summarize('Big', { exact = true })")
        #expect(!(exact.split(separator: "\n").first ?? "").contains("~"), "\(exact)")
        // The rows keep their plain keys, and so do data modes.
        h.run("assert(summarize('Big')[1].distinct ~= nil and summarize('Big')[1]['distinct~'] == nil)")
        h.runtime.settings.format.mode = .json
        let json = try shown(h, "summarize('Big')")
        #expect(json.contains("\"distinct\"") && !json.contains("~"), "\(json)")
    }

    /// What the terminal's progress line is made from: the one scan reports rows read
    /// every 65,536 of them, out of all the entity's rows (counted without a scan); a
    /// predicate leaves the total unknown. (The line itself is drawn only on a terminal.)
    @Test func theScanReportsRowsRead() throws {
        let h = try bigHarness()
        var steps: [SummaryStep] = []
        _ = try SummaryRequest(FetchRequest(entityName: "Big")).execute(in: h.context) { steps.append($0) }
        #expect(steps.map(\.done) == [65_536] && steps.map(\.total) == [70_000] && steps.map(\.unit) == ["rows"], "\(steps)")
        steps = []
        var request = FetchRequest(entityName: "Big")
        request.predicate = try PredicateParser.parse("g >= 0", arguments: PredicateArguments([]))
        _ = try SummaryRequest(request).execute(in: h.context) { steps.append($0) }
        #expect(steps.map(\.done) == [65_536] && steps.map(\.total) == [nil], "\(steps)")
    }

    @Test func smallInputsAreExactAndUnmarked() throws {
        let h = try Harness()
        h.run(
            """
            entity "Item" { n = "int64", name = "string?" }
            for i = 1, 9 do Item:new{ n = i, name = i % 2 == 0 and "even" or nil } end
            save()
            local s = summarize(Item)
            assert(s[1].distinct == 9 and s[1].q25 == 3 and s[1].q75 == 7 and s[2].distinct == 1)
            """)
        let text = try shown(h, "summarize(Item)")
        #expect(!text.contains("~") && text.hasPrefix("column | type   | count | nulls | distinct |"), "\(text)")
    }
}

import QuarryFetch
import QuarryModel
import QuarryStore

/// Results as a table: one row per object (ID, then attributes); a long result shows its
/// first and last rows (`.maxrows` in all) and says how many there are.
public struct ResultsTable {
    let results: FetchResults
    var format: TableFormat
    var mode: OutputMode { format.mode }
    /// For the live view: the rows from this index (`format.maxRows` of them) instead of
    /// the first and last, and a mark after a row (by its key; nil: no marks).
    public var pageStart: Int?
    public var mark: ((Int64) -> String?)?

    public init(_ results: FetchResults, format: TableFormat = TableFormat()) {
        self.results = results
        self.format = format
    }

    public func render() throws -> String {
        guard results.isSectioned else {
            let total = try results.count()
            return try table(start: 0, count: total, shown: format.rowLimit(total: total))
        }
        // Sectioned: a header line per section, then its rows, `.maxrows` in all as a flat
        // result shows (`sectionShares`): each section its first and last rows and how many
        // it hid, and under the last one shown how many sections were left out.
        let sections = try results.sections()
        let key = results.request.sectionKey ?? ""
        let (shownCount, perSection) = Self.sectionShares(sections.map(\.count), rows: format.mode.isData ? .max : format.rowLimit)
        var parts: [String] = []
        // The sections go to the pager together when together they are longer than the
        // terminal: each is then laid out whole for `less -S`, as one long table is,
        // though none alone would fill the screen. (A title, a header of two lines, the
        // rows, a gap and a footer each; the count of sections at the end.)
        var shownTables = self
        let lines = sections.prefix(shownCount).reduce(2) { $0 + min($1.count, perSection) + 5 }
        if format.pagerRows > 0, lines > format.pagerRows { shownTables.format.pagerRows = 1 }
        // Section keys that are dates read as a table's column of them: days alone where
        // every one is midnight UTC.
        let dates = sections.compactMap { section -> Double? in if case .date(let s) = section.id { return s } else { return nil } }
        let days = !dates.isEmpty && dates.allSatisfy { Value.dayText($0) != nil }
        for section in sections.prefix(shownCount) {
            parts.append(try shownTables.render(section: section, key: key, shown: perSection, days: days))
        }
        let total = "(\(grouped(sections.count)) \(sections.count == 1 ? "section" : "sections"))"
        let hidden = sections.count - shownCount
        if hidden > 0 {
            let rows = sections.dropFirst(shownCount).reduce(0) { $0 + $1.count }
            let left = "\(grouped(hidden)) \(hidden == 1 ? "section" : "sections") (\(grouped(rows)) \(rows == 1 ? "object" : "objects")) not shown"
            parts.append(total + ", " + left + (format.hiddenRowsHint.map { " (\($0))" } ?? ""))
        } else {
            parts.append(total)
        }
        return parts.joined(separator: "\n")
    }

    /// How many of the sections (their sizes `counts`, in order) show, and the most rows
    /// each shows, so that together they show at most `rows` (`.maxrows`): every section,
    /// each cut to the largest share that fits (the big ones give up the same, the small
    /// ones show whole), as a wide table's columns share the terminal; when even three
    /// rows each (the fewest that show a section's first and last rows around its gap)
    /// would not fit, the first sections that fit at three.
    public static func sectionShares(_ counts: [Int], rows budget: Int) -> (sections: Int, rows: Int) {
        let largest = counts.max() ?? 0
        func needed(_ share: Int) -> Int { counts.reduce(0) { $0 + min($1, share) } }
        if needed(largest) <= budget { return (counts.count, max(1, largest)) }
        let floor = min(3, max(1, budget))
        guard needed(floor) <= budget else {
            var used = 0
            var shown = 0
            for count in counts {
                let rows = min(count, floor)
                if shown > 0, used + rows > budget { break }
                used += rows
                shown += 1
            }
            return (shown, floor)
        }
        var (low, high) = (floor, largest)
        // The largest share that fits: needed() grows with the share.
        while low < high {
            let middle = (low + high + 1) / 2
            if needed(middle) <= budget { low = middle } else { high = middle - 1 }
        }
        return (counts.count, low)
    }

    /// `days`: the section's key, a date, reads as its day (the sections' keys are all
    /// midnights); nil: where it is midnight itself.
    public func render(section: SectionInfo, key: String? = nil, shown: Int? = nil, days: Bool? = nil) throws -> String {
        let name = key ?? results.request.sectionKey ?? ""
        let id = days == false ? section.id : section.id.shownAsDay()
        let title = CellText.flat("[\(name) = \(id.isNull ? "nil" : CellText.display(id, local: format.localTime))]")
        // The section's own attribute is in its title: a table wider than the terminal
        // gives its width to the other columns rather than repeat it on each row (trial
        // 32: `rating` listed among the hidden columns, titles cut to 12 characters).
        let inTitle = mode.isData ? nil : results.request.sectionKey.flatMap { results.entity.attribute(named: $0)?.name }
        return title + "\n" + (try table(start: section.start, count: section.count, shown: shown ?? format.rowLimit, leaving: inTitle))
    }

    private func table(start: Int, count total: Int, shown: Int, leaving inTitle: String? = nil) throws -> String {
        var indexes: [Int]
        var footer: String
        var gap: Int?
        if let pageStart, !results.isSectioned {
            // One page of the live view: "rows 21-40 of 336,776".
            let first = min(max(0, pageStart), max(0, total - 1))
            indexes = Array(first..<(first + max(0, min(shown, total - first))))
            footer =
                indexes.isEmpty
                ? "(0 objects)"
                : total > shown ? "rows \(grouped(first + 1))–\(grouped(first + indexes.count)) of \(grouped(total))" : Self.footer(total)
        } else {
            // Data modes (CSV, JSON) hold every row; the aligned ones abbreviate, but
            // never to hide one row behind a line of "…" as tall as the row itself.
            let whole = mode.isData || !TableFormat.hides(total: total, shown: shown)
            let head = whole ? total : (shown + 1) / 2
            let tail = whole ? 0 : shown - head
            indexes = Array(start..<(start + head)) + Array((start + total - tail)..<(start + total))
            // One style whether rows were left out or not (it said "63 rows" here), with
            // how many are hidden and how to see them where the REPL says so.
            footer = format.footer(Self.footer(total), total: total, shown: head + tail)
            gap = total > head + tail && tail > 0 ? head : nil
        }
        var rows: [[Value]] = []
        var marks: [String] = []
        let names = results.entity.attributeNames.filter { $0 != inTitle }
        let days = indexes.isEmpty ? [] : DayAttributes(of: results.entity).names(in: results.context)
        for index in indexes {
            guard let object = try results.object(at: index) else { break }
            // By name: in a hierarchy the results' entity has every sub-entity's keys, and
            // an object only its own entity's (the others read nil).
            let values = Dictionary(object.shownValues.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            rows.append([.text(object.objectID)] + names.map { name in values[name].map { days.contains(name) ? $0.shownAsDay() : $0 } ?? .null })
            marks.append(object.primaryKey.flatMap { mark?($0) } ?? "")
        }
        // A date attribute whose shown values are all midnights holds days: shown as days.
        if !mode.isData {
            let dates = names.indices.filter { !days.contains(names[$0]) && results.entity.attribute(named: names[$0])?.type == .date }
            rows = MidnightColumns.shownAsDays(rows, columns: dates.map { $0 + 1 })
        }
        let idHeader = Self.idHeader(attributes: names, storage: results.context.mapped(results.entity), in: results.context)
        var table = TextTable(headers: [idHeader] + names, values: rows, footer: mode.isData ? nil : footer, gap: gap)
        // An ID is what a person copies (to `Entity:get`, into a predicate): never cut, as
        // numbers are not; the text columns give up their width first.
        table.wholeColumns = [0]
        let numbers: Set<AttributeType> = [.int16, .int32, .int64, .double, .decimal]
        let numberAttributes = names.indices.filter { results.entity.attribute(named: names[$0]).map { numbers.contains($0.type) } == true }
        table.numberColumns = Set(numberAttributes.map { $0 + 1 })
        if mark != nil { table.marks = marks }
        return table.render(format)
    }
}

extension ResultsTable {
    /// How many objects the results hold, under the table: "(336,776 objects)", as
    /// dictionary rows say "(4 rows)".
    static func footer(_ total: Int) -> String { "(\(grouped(total)) \(total == 1 ? "object" : "objects"))" }

    /// The header of the object ID's column: `id` in Quarry's own tables (a Quarry file's,
    /// or a server schema's, keyed by Quarry's own key column); elsewhere (another
    /// program's table, a Core Data store), wherever an attribute is `id`, and in every
    /// table of a file Quarry did not make (one `.import` or `entity()` added there too,
    /// so that a file's tables read alike), the method that gives it, `objectID`: a
    /// file's table without an `id` column headed so sent people to `o.id`, which is no
    /// key there.
    public static func idHeader(attributes names: [String], storage: EntityStorage, in context: ObjectContext) -> String {
        let quarrys =
            storage.layout == .quarry ? context.store.isQuarrysFile : storage.keyColumn == EntityStorage.quarryKeyColumn
        return !quarrys || names.contains { $0.lowercased() == "id" } ? "objectID" : "id"
    }
}

/// 336776 → "336,776": a count people read at a glance.
public func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return (n < 0 ? "-" : "") + out
}

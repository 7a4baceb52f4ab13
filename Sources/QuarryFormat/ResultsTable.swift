import QuarryFetch
import QuarryStore

/// Results as a table: one row per object (ID, then attributes); a long result shows its
/// first and last rows (`.maxrows` in all) and says how many there are.
public struct ResultsTable {
    let results: FetchResults
    let format: TableFormat
    var mode: OutputMode { format.mode }

    public init(_ results: FetchResults, format: TableFormat = TableFormat()) { self.results = results; self.format = format }

    public func render() throws -> String {
        guard results.isSectioned else { return try table(start: 0, count: try results.count(), shown: format.maxRows) }
        // Sectioned: a header line per section, then its first rows.
        let sections = try results.sections()
        let key = results.request.sectionKey ?? ""
        var parts: [String] = []
        for section in sections.prefix(Self.sectionsShown) {
            parts.append(try render(section: section, key: key, shown: Self.rowsPerSection))
        }
        if sections.count > Self.sectionsShown { parts.append("... \(sections.count - Self.sectionsShown) more sections") }
        parts.append("(\(sections.count) \(sections.count == 1 ? "section" : "sections"))")
        return parts.joined(separator: "\n")
    }

    static let sectionsShown = 10
    static let rowsPerSection = 5

    public func render(section: SectionInfo, key: String? = nil, shown: Int? = nil) throws -> String {
        let name = key ?? results.request.sectionKey ?? ""
        let title = "[\(name) = \(section.id.isNull ? "nil" : section.id.displayString)]"
        return title + "\n" + (try table(start: section.start, count: section.count, shown: shown ?? format.maxRows))
    }

    private func table(start: Int, count total: Int, shown: Int) throws -> String {
        // Data modes (CSV, JSON) hold every row; the aligned ones abbreviate.
        let head = mode.isData || total <= shown ? total : (shown + 1) / 2
        let tail = mode.isData || total <= shown ? 0 : shown - head
        var rows: [[Value]] = []
        for index in Array(start..<(start + head)) + Array((start + total - tail)..<(start + total)) {
            guard let object = try results.object(at: index) else { break }
            rows.append([.text(object.objectID)] + object.values.map(\.value))
        }
        let footer = total > rows.count ? "\(grouped(total)) rows" : "(\(total) \(total == 1 ? "object" : "objects"))"
        return TextTable(headers: ["id"] + results.entity.attributeNames, values: rows, footer: mode.isData ? nil : footer,
                         gap: total > rows.count && tail > 0 ? head : nil).render(format)
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

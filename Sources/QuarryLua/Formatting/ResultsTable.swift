import QuarryFetch
import QuarryStore

/// Results as a table: one row per object (ID, then attributes), the first rows only.
struct ResultsTable {
    let results: FetchResults
    let format: TableFormat
    var mode: OutputMode { format.mode }
    static let rowsShown = 20

    init(_ results: FetchResults, format: TableFormat = TableFormat()) { self.results = results; self.format = format }

    func render() throws -> String {
        guard results.isSectioned else { return try table(start: 0, count: try results.count(), shown: Self.rowsShown) }
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

    func render(section: SectionInfo, key: String? = nil, shown: Int = ResultsTable.rowsShown) throws -> String {
        let name = key ?? results.request.sectionKey ?? ""
        let title = "[\(name) = \(section.id.isNull ? "nil" : section.id.displayString)]"
        return title + "\n" + (try table(start: section.start, count: section.count, shown: shown))
    }

    private func table(start: Int, count total: Int, shown: Int) throws -> String {
        // Data modes (CSV, JSON) hold every row; the aligned ones abbreviate.
        let isData = mode == .csv || mode == .json || mode == .line
        let limit = isData ? total : min(total, shown)
        var rows: [[String?]] = []
        for index in start..<(start + limit) {
            guard let object = try results.object(at: index) else { break }
            rows.append([object.objectID] + object.values.map { $0.value.isNull ? nil : $0.value.displayString })
        }
        let noun = total == 1 ? "object" : "objects"
        let footer = total > rows.count ? "... \(total - rows.count) more (\(total) \(noun))" : "(\(total) \(noun))"
        return TextTable(headers: ["id"] + results.entity.attributeNames, rows: rows, footer: isData ? nil : footer).render(format)
    }
}

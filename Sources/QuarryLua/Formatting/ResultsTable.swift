import QuarryFetch
import QuarryStore

/// Results as a table: one row per object (ID, then attributes), the first rows only.
struct ResultsTable {
    let results: FetchResults
    static let rowsShown = 20

    init(_ results: FetchResults) { self.results = results }

    func render() throws -> String {
        let total = try results.count()
        var rows: [[String]] = []
        for index in 0..<min(total, Self.rowsShown) {
            guard let object = try results.object(at: index) else { break }
            rows.append([object.objectID] + object.values.map { cell($0.value) })
        }
        let noun = total == 1 ? "object" : "objects"
        let footer = total > rows.count ? "... \(total - rows.count) more (\(total) \(noun))" : "(\(total) \(noun))"
        return TextTable(headers: ["id"] + results.entity.attributeNames, rows: rows, footer: footer).render()
    }

    private func cell(_ value: Value) -> String {
        value.isNull ? "nil" : value.displayString
    }
}

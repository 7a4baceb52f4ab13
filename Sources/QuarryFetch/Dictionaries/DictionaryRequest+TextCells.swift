import QuarryModel
import QuarryStore

/// A SQLite file's INTEGER or REAL column may hold text (`"487\n487"`): SQLite's sum and
/// avg read such a cell as the number it starts with, max orders it after every number, so
/// `max(Total)` gives the text and `avg(HP)` differs from summarize()'s mean, which leaves
/// text cells out. The aggregates stay SQLite's; the rows' own query counts, beside them,
/// how many of the cells they took are text (no query of its own), only for a column that
/// may hold text (`EntityStorage.takesText`), as a count does (`CompiledRequest+TextCells`).
extension DictionaryRequest {
    /// A number column whose text cells aggregates took in: how many, and by which functions.
    public struct TextCellsAggregated: Sendable {
        public var key: String
        public var count: Int
        public var functions: [String]
    }

    /// For each own number attribute that sum, avg, min or max take as it is and whose
    /// column may hold text, and each text attribute that sum or avg take (on SQLite, which
    /// sums text), the SQL that counts its text cells in a group, once each.
    /// None with `distinct`: a column more could keep rows apart that it would fold.
    static func textCellCounts(
        _ columns: [ResultColumn], distinct: Bool, compiled: CompiledRequest
    ) -> [(key: String, functions: [String], sql: String)] {
        guard !distinct else { return [] }
        var counts: [(key: String, functions: [String], sql: String)] = []
        for column in columns {
            guard let function = column.function, ["sum", "avg", "min", "max"].contains(function), let key = column.aggregatedKey,
                let attribute = compiled.entity.attribute(named: key)
            else { continue }
            let cell = "\(compiled.table).\(compiled.storage.column(key))"
            let counted: String
            if [.int16, .int32, .int64, .double, .decimal].contains(attribute.type), compiled.storage.takesText.contains(key) {
                // At or after '', which every number orders before, as `ObjectContext.columnHoldsText` asks.
                counted = "\(cell) >= ''"
            } else if attribute.type == .string, function == "sum" || function == "avg", compiled.dialect.runsQuarryFunctions {
                // A text column summed (money kept as '$1,200', dates as '12/31/2021'):
                // SQLite reads each cell as the number it starts with, 0 for none, so the
                // figure is 0 or a part; the cells that are not numbers are counted.
                // (A column of TEXT affinity keeps a number written to it as text too.)
                counted = "trim(\(cell)) = '' OR trim(\(cell)) GLOB '*[^0-9.eE+-]*'"
            } else {
                continue
            }
            if let i = counts.firstIndex(where: { $0.key == key }) {
                if !counts[i].functions.contains(function) { counts[i].functions.append(function) }
                continue
            }
            counts.append((key, [function], "count(CASE WHEN \(counted) THEN 1 END)"))
        }
        return counts
    }
}

import QuarryFetch
import QuarryModel

extension QuarryRuntime {
    /// Says, in one note, the text cells a count took in through a comparison with a
    /// number (`GNPOld > 0` holds for a SQLite file's `''` there, which SQLite orders after
    /// every number), and in one more those a sort placed after every number, as summarize
    /// and histogram count them apart. Nothing when there were none; each count's once.
    func noteTextCells(_ results: FetchResults) {
        let taken = results.takeTextCellsCounted()
        let entity = results.request.entityName
        let leftOut = results.takeUnreadableDatesLeftOut()
        if !leftOut.isEmpty {
            let cells = leftOut.map { "\($0.count) in \(entity).\($0.key)" }.joined(separator: ", ")
            writeNotice(
                "rows left out whose cell holds text that reads as no date: \(cells) (no date comparison takes them; "
                    + "== nil does not hold for them; summarize() shows them)")
        }
        let counted = taken.filter { !$0.sorted }
        if !counted.isEmpty {
            let cells = counted.map { "\($0.count) in \(entity).\($0.key)" }.joined(separator: ", ")
            let keys = counted.map(\.key).joined(separator: ", ")
            writeNotice(
                "rows counted whose cell holds text, not a number: \(cells) (SQLite orders text after every number, so the comparison of "
                    + "\(keys) with a number holds for them; summarize() shows the text cells)")
        }
        let sorted = taken.filter(\.sorted)
        if !sorted.isEmpty {
            let cells = sorted.map { "\($0.count) in \(entity).\($0.key)" }.joined(separator: ", ")
            let keys = sorted.map(\.key).joined(separator: ", ")
            writeNotice(
                "rows sorted whose cell holds text, not a number: \(cells) (SQLite orders text after every number, so a sort by "
                    + "\(keys) puts them last, or first when descending; summarize() shows the text cells)")
        }
    }

    /// Says, in one note, the text cells of a number column that dictionary aggregates
    /// took in (`DictionaryRequest.TextCellsAggregated`): SQLite's sum and avg read each as
    /// the number it starts with, max and min order it after every number, where
    /// summarize() leaves them out. Nothing when there were none.
    func noteTextCells(_ aggregated: [DictionaryRequest.TextCellsAggregated], entity: String) {
        guard !aggregated.isEmpty else { return }
        let cells = aggregated.map { "\($0.count) in \(entity).\($0.key)" }.joined(separator: ", ")
        let functions = Set(aggregated.flatMap(\.functions))
        var reads: [String] = []
        let sums = ["sum", "avg"].filter(functions.contains)
        if !sums.isEmpty {
            reads.append("\(sums.joined(separator: " and ")) \(sums.count == 1 ? "reads" : "read") each as the number it starts with, 0 for none")
        }
        let extremes = ["max", "min"].filter(functions.contains)
        if !extremes.isEmpty {
            reads.append("\(extremes.joined(separator: " and ")) \(extremes.count == 1 ? "orders" : "order") text after every number")
        }
        writeNotice(
            "rows aggregated whose cell holds text, not a number: \(cells) (in SQLite, \(reads.joined(separator: ", and ")); "
                + "summarize() leaves the text cells out)")
    }
}

import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryStore

extension QuarryRuntime {
    /// Says, in one note, the text cells a count took in through a comparison with a
    /// number (`GNPOld > 0` holds for a SQLite file's `''` there, which SQLite orders after
    /// every number), and in one more those a sort placed after every number, as summarize
    /// and histogram count them apart. Nothing when there were none; each count's once.
    func noteTextCells(_ results: FetchResults) {
        let taken = results.takeTextCellsCounted()
        let entity = results.request.entityName
        noteTextDates(
            entity, sorted: results.request.sortDescriptors.map(\.key), grouped: results.request.sectionKey.map { [$0] } ?? [])
        let leftOut = results.takeUnreadableDatesLeftOut()
        if !leftOut.isEmpty {
            let cells = leftOut.map { "\($0.count) in \(entity).\($0.key)" }.joined(separator: ", ")
            writeNotice(
                "note: rows left out whose cell holds text that reads as no date: \(cells) (no date comparison takes them; "
                    + "== nil does not hold for them; summarize() shows them)")
        }
        let counted = taken.filter { !$0.sorted }
        if !counted.isEmpty {
            let cells = counted.map { "\(grouped($0.count)) in \(entity).\($0.key)" }.joined(separator: ", ")
            let keys = counted.map(\.key).joined(separator: ", ")
            let held = nonNumberWord(entity, counted.map(\.key))
            writeNotice(
                "note: rows counted whose cell holds \(held), not a number: \(cells) (SQLite orders \(held) after every number, so the comparison of "
                    + "\(keys) with a number holds for them; summarize() shows \(held == "text" ? "the text cells" : "those cells"))")
        }
        let sorted = taken.filter(\.sorted)
        if !sorted.isEmpty {
            let cells = sorted.map { "\(grouped($0.count)) in \(entity).\($0.key)" }.joined(separator: ", ")
            let keys = sorted.map(\.key).joined(separator: ", ")
            let held = nonNumberWord(entity, sorted.map(\.key))
            writeNotice(
                "note: rows sorted whose cell holds \(held), not a number: \(cells) (SQLite orders \(held) after every number, so a sort by "
                    + "\(keys) puts them last, or first when descending; summarize() shows \(held == "text" ? "the text cells" : "those cells"))")
        }
    }

    /// Says, in one note, the text cells of a number column that dictionary aggregates
    /// took in (`DictionaryRequest.TextCellsAggregated`): SQLite's sum and avg read each as
    /// the number it starts with, max and min order it after every number, where
    /// summarize() leaves them out; and the cells of a text column that sum and avg took
    /// in that are not numbers. Nothing when there were none.
    func noteTextCells(_ aggregated: [DictionaryRequest.TextCellsAggregated], entity: String) {
        // A text column summed (money as '$1,200', dates): its own note, as the figure is
        // no sum of the column at all.
        let description = try? context.entity(named: entity)
        let texts = aggregated.filter { description?.attribute(named: $0.key)?.type == .string }
        if !texts.isEmpty {
            let cells = texts.map { "\(grouped($0.count)) in \(entity).\($0.key)" }.joined(separator: ", ")
            writeNotice(
                "note: text summed: cells that are not numbers: \(cells) (SQLite's sum and avg read each as the number it starts with, "
                    + "0 for none: '$1,200' is 0, '1,300' is 1; sql() reads cleaned text as a number: "
                    + "CAST(replace(replace(x, '$', ''), ',', '') AS REAL))")
        }
        let numbers = aggregated.filter { description?.attribute(named: $0.key)?.type != .string }
        noteTextCellsOfNumbers(numbers, entity: entity)
    }

    private func noteTextCellsOfNumbers(_ aggregated: [DictionaryRequest.TextCellsAggregated], entity: String) {
        guard !aggregated.isEmpty else { return }
        let cells = aggregated.map { "\(grouped($0.count)) in \(entity).\($0.key)" }.joined(separator: ", ")
        let held = nonNumberWord(entity, aggregated.map(\.key))
        let functions = Set(aggregated.flatMap(\.functions))
        var reads: [String] = []
        let sums = ["sum", "avg"].filter(functions.contains)
        if !sums.isEmpty {
            reads.append("\(sums.joined(separator: " and ")) \(sums.count == 1 ? "reads" : "read") each as the number it starts with, 0 for none")
        }
        let extremes = ["max", "min"].filter(functions.contains)
        if !extremes.isEmpty {
            reads.append("\(extremes.joined(separator: " and ")) \(extremes.count == 1 ? "orders" : "order") \(held) after every number")
        }
        writeNotice(
            "note: rows aggregated whose cell holds \(held), not a number: \(cells) (in SQLite, \(reads.joined(separator: ", and ")); "
                + "summarize() leaves \(held == "text" ? "the text cells" : "those cells") out)")
    }

    /// What the cells of `keys` of `entityName` that are no number hold, as a note names
    /// them: "text" (also when it cannot be told), "bytes" when every one is a blob (8 bytes
    /// where pandas wrote numpy's int64), "text or bytes" for both.
    func nonNumberWord(_ entityName: String, _ keys: [String]) -> String {
        guard let entity = try? context.entity(named: entityName) else { return "text" }
        let kinds = keys.compactMap { context.nonNumberCells(entity, $0) }
        if kinds.isEmpty || kinds.allSatisfy({ $0 == .text }) { return "text" }
        return kinds.allSatisfy { $0 == .bytes } ? "bytes" : "text or bytes"
    }

    /// Says once a session, for each text column of another program's file that a sort,
    /// a `group` or a `section` reads, when its cells are dates in a form that is not ISO
    /// 8601 (`31/12/2021`): text orders by its first field, the day or the month, so the
    /// rows are not in time, and which of day and month comes first is not guessed.
    func noteTextDates(_ entityName: String, sorted: [String], grouped: [String]) {
        guard let entity = try? context.entity(named: entityName) else { return }
        for (keys, verb) in [(sorted, "sorts"), (grouped, "groups")] {
            for key in keys {
                let name = key.hasPrefix("#") ? String(key.dropFirst()) : key
                guard entity.attribute(named: name)?.type == .string, textDateNotices.insert("\(entityName).\(name)").inserted,
                    let form = context.textDateForm(entity, name)
                else { continue }
                writeNotice(
                    "note: \(entityName).\(name) holds \(form.described): as text it \(verb) by its first field, not in time "
                        + "(sql() can put its parts in ISO order with substr())")
            }
        }
    }
}
